/**
 * Runs the Traitscope service inside the main process, on 127.0.0.1: the default port
 * when it is free (so third-party tools find a stable address), any free port otherwise.
 */
import path from 'node:path';
import { app } from 'electron';
import { DEFAULT_PORT } from '../service/config.js';
import { startService, type RunningService } from '../service/index.js';

export interface AppSession {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  token: string;
}

/**
 * Where the shipped files live. Packaged, the catalog and the built UI sit in the
 * unpacked part of the archive, where the parse worker thread can read them as plain files.
 */
function appFile(...parts: string[]): string {
  const root = app.getAppPath();
  const base = app.isPackaged ? root.replace(/app\.asar$/, 'app.asar.unpacked') : root;
  return path.join(base, ...parts);
}

export async function startHostedService(): Promise<RunningService> {
  const options = {
    dataDir: app.getPath('userData'),
    resourcesDir: appFile('resources'),
    uiDir: appFile('out', 'renderer'),
  };
  try {
    return await startService({ ...options, port: DEFAULT_PORT });
  } catch (err) {
    // Usually the default port is taken (another program, or `npm run serve`): any port will do.
    console.warn(`[traitscope] port ${DEFAULT_PORT} unavailable (${(err as Error).message}); using a free port`);
    return startService({ ...options, port: 0 });
  }
}

/** A fresh access token of the app's own client, for the window's renderer. */
export function appSession(service: RunningService): AppSession {
  return { baseUrl: service.origin, token: service.appToken() };
}
