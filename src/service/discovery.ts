/**
 * service.json in the data folder: where the running service listens, for local tools
 * (and `traitscope status`) to find it without asking the user. Written once the server
 * listens, removed when it stops; a file whose process is gone is stale.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { API_VERSION } from '../shared/api-version.js';
import { appVersion } from './config.js';

export const SERVICE_FILE = 'service.json';

export interface ServiceFile {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** {base_url}: origin + /api */
  api: string;
  /** The API reference page. */
  docs: string;
  pid: number;
  /** The app version. */
  version: string;
  api_version: string;
  started_at: string;
}

const exitHooks = new Map<string, () => void>();

function filePath(dataDir: string): string {
  return path.join(dataDir, SERVICE_FILE);
}

/** Publishes this process's service at `origin` (http://127.0.0.1:<port>). */
export function writeServiceFile(dataDir: string, origin: string): void {
  const info: ServiceFile = {
    origin,
    api: `${origin}/api`,
    docs: `${origin}/api/docs`,
    pid: process.pid,
    version: appVersion(),
    api_version: API_VERSION,
    started_at: new Date().toISOString(),
  };
  const file = filePath(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 }); // the data folder is the user's alone
  renameSync(temp, file); // readers never see half a file
  // Also when the process ends without closing the service (process.exit, an uncaught error).
  const hook = () => removeServiceFile(dataDir);
  exitHooks.set(dataDir, hook);
  process.once('exit', hook);
}

/** Removes the file if it is this process's. */
export function removeServiceFile(dataDir: string): void {
  const hook = exitHooks.get(dataDir);
  if (hook) process.removeListener('exit', hook);
  exitHooks.delete(dataDir);
  if (readServiceFile(dataDir)?.pid === process.pid) rmSync(filePath(dataDir), { force: true });
}

export function readServiceFile(dataDir: string): ServiceFile | undefined {
  try {
    return JSON.parse(readFileSync(filePath(dataDir), 'utf8')) as ServiceFile;
  } catch {
    return undefined;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
