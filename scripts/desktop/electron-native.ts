/**
 * better-sqlite3 built for Electron, at out/native/better_sqlite3.node, where the desktop app
 * loads it (src/service/packaged-paths.ts) in `npm run dev` and in packages.
 *
 * node_modules keeps npm's build for Node, which the tests, `npm run serve` and the CLI
 * load: the Electron build is made on a copy of the package in node_modules/.cache with
 * @electron/rebuild (a prebuilt binary when one is published for this Electron, otherwise a
 * compile against Electron's headers; both download, so this needs the internet), then
 * checked: it must carry Electron's ABI (NODE_MODULE_VERSION), not Node's. A build that
 * passed is reused until Electron, better-sqlite3, the platform or the architecture change.
 *
 *   tsx scripts/desktop/electron-native.ts [--arch x64|arm64]   build (or reuse) and install
 *   tsx scripts/desktop/electron-native.ts --check FILE          only check a binary
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
export const ELECTRON_BINDING = path.join(ROOT, 'out', 'native', 'better_sqlite3.node');

function packageVersion(name: string): string {
  return (
    JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
  ).version;
}

export function electronVersion(): string {
  return packageVersion('electron');
}

/** NODE_MODULE_VERSION of an Electron release. */
export function electronAbi(version: string): number {
  const { getAbi } = require('node-abi') as { getAbi: (target: string, runtime: string) => string };
  return Number(getAbi(version, 'electron'));
}

/**
 * The NODE_MODULE_VERSION a native addon was built for, found by loading it in a separate
 * Node process: it loads when built for this Node, and otherwise Node's refusal names it.
 */
export function addonAbi(file: string): number {
  const probe = `try { process.dlopen({ exports: {} }, ${JSON.stringify(file)}); console.log('ABI ' + process.versions.modules) } catch (e) { console.log(e.message) }`;
  const result = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  const said = `${result.stdout}${result.stderr}`.trim();
  const abi = /^ABI (\d+)$/m.exec(said)?.[1] ?? /using NODE_MODULE_VERSION (\d+)/.exec(said)?.[1];
  if (!abi) throw new Error(`Could not tell which Node or Electron ${file} was built for. Loading it said: ${said}`);
  return Number(abi);
}

/** Throws unless `file` is built for the given Electron. */
export function checkElectronBuild(file: string, version = electronVersion()): void {
  if (!existsSync(file))
    throw new Error(
      `${file} does not exist. Run \`tsx scripts/desktop/electron-native.ts\` to build it (needs the internet).`,
    );
  const expected = electronAbi(version);
  const found = addonAbi(file);
  if (found !== expected) {
    const what = found === Number(process.versions.modules) ? `Node ${process.version}` : 'another runtime';
    throw new Error(
      `${file} is built for ${what} (NODE_MODULE_VERSION ${found}), not for Electron ${version} (NODE_MODULE_VERSION ${expected}). ` +
        'Delete it and run `tsx scripts/desktop/electron-native.ts` again.',
    );
  }
}

/** Builds (or reuses) better-sqlite3 for Electron and installs it at out/native; returns its path. */
export async function installElectronSqlite(arch: string = process.arch): Promise<string> {
  const version = electronVersion();
  const sqliteVersion = packageVersion('better-sqlite3');
  const work = path.join(
    ROOT,
    'node_modules',
    '.cache',
    'traitscope-electron-native',
    `electron-${version}-${process.platform}-${arch}-better-sqlite3-${sqliteVersion}`,
  );
  const built = path.join(work, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

  let reuse = false;
  try {
    checkElectronBuild(built, version);
    reuse = true;
  } catch {
    // not built yet, or not usable: build afresh
  }
  if (!reuse) {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(path.join(work, 'node_modules'), { recursive: true });
    writeFileSync(
      path.join(work, 'package.json'),
      JSON.stringify({
        name: 'traitscope-electron-native',
        private: true,
        dependencies: { 'better-sqlite3': sqliteVersion },
      }),
    );
    cpSync(path.join(ROOT, 'node_modules', 'better-sqlite3'), path.join(work, 'node_modules', 'better-sqlite3'), {
      recursive: true,
      filter: (src) => !src.includes(`${path.sep}better-sqlite3${path.sep}build`),
    });
    console.log(`Building better-sqlite3 ${sqliteVersion} for Electron ${version} (${process.platform}-${arch})…`);
    const { rebuild } = await import('@electron/rebuild');
    try {
      await rebuild({ buildPath: work, electronVersion: version, arch, onlyModules: ['better-sqlite3'], force: true });
    } catch (err) {
      throw new Error(
        `Building better-sqlite3 for Electron ${version} failed: ${(err as Error).message}\n` +
          "It downloads a prebuilt binary or Electron's headers: check the internet connection, and that python3, make and a C++ compiler are installed.",
        { cause: err },
      );
    }
    checkElectronBuild(built, version);
  }
  mkdirSync(path.dirname(ELECTRON_BINDING), { recursive: true });
  cpSync(built, ELECTRON_BINDING);
  console.log(
    `better-sqlite3 for Electron ${version} (NODE_MODULE_VERSION ${electronAbi(version)}) is at ${path.relative(ROOT, ELECTRON_BINDING)}${reuse ? ' (reused)' : ''}.`,
  );
  return ELECTRON_BINDING;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { arch: { type: 'string' }, check: { type: 'string' } } });
  try {
    if (values.check) {
      checkElectronBuild(path.resolve(values.check));
      console.log(`${values.check} is built for Electron ${electronVersion()}.`);
    } else {
      await installElectronSqlite(values.arch);
    }
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
