/**
 * Where files that cannot be used from inside app.asar live when the desktop app is
 * packaged. Worker threads and native addons are loaded from real files, so
 * electron-builder unpacks them to app.asar.unpacked (asarUnpack in electron-builder.yml);
 * this maps a location inside app.asar to its unpacked twin. Outside a package (tests,
 * `npm run serve`, development) it returns the path unchanged.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const IN_ASAR = /([\\/])app\.asar([\\/])/;
/** The archive's own path, from a file inside it or inside its unpacked twin. */
const PACKAGED_ROOT = /^(.*[\\/]app\.asar)(?:\.unpacked)?[\\/]/;

/**
 * better-sqlite3 built for Electron, relative to the app root. `npm run dev` and packaging
 * write it there (scripts/desktop/electron-native.ts), so node_modules keeps the build for
 * Node that the tests and `npm run serve` use.
 */
export const ELECTRON_SQLITE_BINDING = ['out', 'native', 'better_sqlite3.node'] as const;

export function unpackedPath(path: string): string {
  return path.replace(IN_ASAR, '$1app.asar.unpacked$2');
}

/** A module URL beside `base` (import.meta.url of the caller), from app.asar.unpacked when packaged. */
export function unpackedModuleUrl(relative: string, base: string): URL {
  return pathToFileURL(unpackedPath(fileURLToPath(new URL(relative, base))));
}

/** The packaged app's archive (…/resources/app.asar) when `moduleUrl` is inside it or its unpacked twin. */
export function packagedArchive(moduleUrl: string): string | null {
  return PACKAGED_ROOT.exec(fileURLToPath(moduleUrl))?.[1] ?? null;
}

/**
 * The better-sqlite3 addon to load, named explicitly because the bundle (out/main) carries
 * better-sqlite3's JavaScript but not its binary:
 * - packaged: the Electron build in app.asar.unpacked (the main process and the worker,
 *   which runs from app.asar.unpacked, both find it there);
 * - Electron in development (`npm run dev`): the Electron build in out/native;
 * - Node (tests, `npm run serve`, the CLI): the build in node_modules, or better-sqlite3's
 *   own search when there is none (its error then says what is missing).
 * `moduleUrl` is where the caller runs: two folders below the app root, both as source
 * (src/service) and as bundle (out/main).
 */
export function sqliteNativeBinding(moduleUrl: string = import.meta.url): string | undefined {
  const archive = packagedArchive(moduleUrl);
  if (archive) return path.join(`${archive}.unpacked`, ...ELECTRON_SQLITE_BINDING);
  if (process.versions.electron) {
    const binding = path.join(fileURLToPath(new URL('../..', moduleUrl)), ...ELECTRON_SQLITE_BINDING);
    if (!existsSync(binding))
      throw new Error(
        `better-sqlite3 is not built for Electron yet (${binding} is missing). Start the app with \`npm run dev\`, which builds it.`,
      );
    return binding;
  }
  try {
    return createRequire(moduleUrl).resolve('better-sqlite3/build/Release/better_sqlite3.node');
  } catch {
    return undefined;
  }
}
