/**
 * `npm run package [-- --dir] [-- ELECTRON_BUILDER_ARGS…]`: the installers of this machine's
 * system and architecture in dist/ — Windows: NSIS; macOS: dmg; Linux: AppImage and deb —
 * or with --dir only the unpacked app (quick to build, and what `npm run test:packaged`
 * can run too).
 *
 * 1. bundles the app (electron-vite build);
 * 2. builds better-sqlite3 for Electron into out/native and checks it (electron-native.ts);
 * 3. runs electron-builder with electron-builder.yml.
 * Native code is built for the machine it runs on, so each system and architecture is
 * packaged on its own kind of machine (.github/workflows/desktop.yml does all of them).
 * Needs the internet: Electron, its headers and the installer tools are downloaded.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { installElectronSqlite } from './electron-native.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

const INSTALLERS: Partial<Record<NodeJS.Platform, { flag: string; targets: string[] }>> = {
  linux: { flag: '--linux', targets: ['AppImage', 'deb'] },
  win32: { flag: '--win', targets: ['nsis'] },
  darwin: { flag: '--mac', targets: ['dmg'] },
};

function run(script: string, args: string[]): void {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', ...script.split('/')), ...args], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const system = INSTALLERS[process.platform];
if (!system || !['x64', 'arm64'].includes(process.arch)) {
  console.error(
    `Traitscope is packaged for Windows, macOS and Linux on x64 or arm64, not ${process.platform}-${process.arch}.`,
  );
  process.exit(1);
}
const args = process.argv.slice(2);
const dirOnly = args.includes('--dir');
const passThrough = args.filter((a) => a !== '--dir');

run('electron-vite/bin/electron-vite.js', ['build']);
try {
  await installElectronSqlite(process.arch);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
run('electron-builder/cli.js', [
  '--config',
  'electron-builder.yml',
  system.flag,
  ...(dirOnly ? ['dir'] : system.targets),
  `--${process.arch}`,
  '--publish',
  'never',
  ...passThrough,
]);
