/**
 * Where files that cannot be used from inside app.asar live when the desktop app is
 * packaged. Worker threads and native addons are loaded from real files, so
 * electron-builder unpacks them to app.asar.unpacked (asarUnpack in electron-builder.yml);
 * this maps a location inside app.asar to its unpacked twin. Outside a package (tests,
 * `npm run serve`, development) it returns the path unchanged.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';

const IN_ASAR = /([\\/])app\.asar([\\/])/;

export function unpackedPath(path: string): string {
  return path.replace(IN_ASAR, '$1app.asar.unpacked$2');
}

/** A module URL beside `base` (import.meta.url of the caller), from app.asar.unpacked when packaged. */
export function unpackedModuleUrl(relative: string, base: string): URL {
  return pathToFileURL(unpackedPath(fileURLToPath(new URL(relative, base))));
}
