/**
 * Where the service finds the files shipped with the app, from Electron's app path
 * (app.getAppPath(): the repository in development, …/resources/app.asar when packaged).
 * Kept free of Electron so tests can apply it to a packaged layout.
 */
import path from 'node:path';
import { unpackedPath } from '../service/packaged-paths.js';

export interface ShippedFiles {
  /** The trait catalog and ancestry model: read by the parse worker too, which cannot look inside app.asar, so unpacked. */
  resourcesDir: string;
  /** The built UI: served by the main process, which reads the archive, so it stays inside (under the archive's integrity check). */
  uiDir: string;
}

export function shippedFiles(appPath: string): ShippedFiles {
  return {
    resourcesDir: unpackedPath(path.join(appPath, 'resources')),
    uiDir: path.join(appPath, 'out', 'renderer'),
  };
}
