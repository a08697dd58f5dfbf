/**
 * Runs the Traitscope service inside the main process, on 127.0.0.1: the default port
 * when it is free (so third-party tools find a stable address), any free port otherwise
 * (port-choice.ts).
 * A data folder that another Traitscope service already uses is refused, not shared.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { app } from 'electron';
import { databasePath, DEFAULT_PORT } from '../service/config.js';
import { startService, type RunningService } from '../service/index.js';
import { sqliteNativeBinding } from '../service/packaged-paths.js';
import { getSetting, SERVICE_ORIGIN } from '../service/settings.js';
import { shippedFiles } from './app-paths.js';
import { utilityProcessStarter } from './engine-process-starter.js';
import { choosePort } from './port-choice.js';
import { ServiceAlreadyRunningError } from './startup-failure.js';

export interface AppSession {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  token: string;
}

/**
 * The origin of a Traitscope service that is running on this data folder now, if any: the
 * service records where it listens while it runs, and that address still answers as
 * Traitscope. A record left by a crash, or an address now used by something else, is ignored.
 */
async function runningServiceOrigin(dataDir: string): Promise<string | null> {
  const file = databasePath(dataDir);
  if (!existsSync(file)) return null;
  let origin: string | undefined;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true, nativeBinding: sqliteNativeBinding() });
    try {
      origin = getSetting(db, SERVICE_ORIGIN);
    } finally {
      db.close();
    }
  } catch {
    return null; // unreadable: starting the service reports what is wrong with it
  }
  if (!origin) return null;
  try {
    const res = await fetch(`${origin}/api/openapi.json`, { signal: AbortSignal.timeout(2000) });
    const doc = (await res.json()) as { info?: { title?: string } };
    return doc.info?.title?.startsWith('Traitscope') ? origin : null;
  } catch {
    return null;
  }
}

export async function startHostedService(dataDir: string): Promise<RunningService> {
  const running = await runningServiceOrigin(dataDir);
  if (running) throw new ServiceAlreadyRunningError(running);
  // Another program has the usual port: any port will do, and the window says so (port-choice.ts).
  const port = await choosePort(DEFAULT_PORT);
  if (port === 0) console.warn(`[traitscope] port ${DEFAULT_PORT} on 127.0.0.1 is in use; using a free port`);
  // Large jobs in processes of their own (their memory goes back when they exit): Electron's
  // utilityProcess starts them, as its executable may not run as Node.
  return startService({ dataDir, port, ...shippedFiles(app.getAppPath()), startProcess: utilityProcessStarter });
}

/** A fresh access token of the app's own client, for the window's renderer. */
export function appSession(service: RunningService): AppSession {
  return { baseUrl: service.origin, token: service.appToken() };
}
