/**
 * Service settings and their defaults. Everything the service touches on disk lives
 * under `dataDir`; nothing is written anywhere else.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ATTEMPT_LIMITS } from './auth/attempt-limits.js';
import type { ProcessStarter } from './processing/engine-process.js';

export interface ServiceConfig {
  /** Folder holding the database and uploaded files. */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Folder with the shipped trait catalog and reference data. */
  resourcesDir: string;
  /** Folder with the built web UI (index.html), or null to serve none. */
  uiDir: string | null;
  tokenTtlSeconds: number;
  /**
   * A wrong client secret is answered after this many milliseconds times the client's recent
   * failures, up to twenty times as long (auth/attempt-limits.ts). TRAITSCOPE_AUTH_FAILURE_DELAY_MS.
   */
  authFailureDelayMs: number;
  uploadUrlTtlSeconds: number;
  maxUploadBytes: number;
  /** Engine worker threads (parsing and scoring); undefined: from the core count (TRAITSCOPE_WORKERS overrides). */
  workers: number | undefined;
  /** Nice value of the worker threads on Linux (0–19; 0: the service's own priority). TRAITSCOPE_WORKER_NICE. */
  workerNice: number;
  /** Parse an upload while it arrives when a worker is free (TRAITSCOPE_PARSE_WHILE_RECEIVING=0 turns it off, for comparison). */
  parseWhileReceiving: boolean;
  /** Jobs people wait for (uploads, compute requests, imports) that may wait for a worker before new ones get 503. */
  maxQueuedJobs: number;
  /** Browser origins allowed to call the API for this run (CORS), besides those saved in Settings. */
  corsOrigins: string[];
  /** Seconds a client may take to send a request's headers. */
  headersTimeoutSeconds: number;
  /** Seconds a request body may stall (less than 1 KiB arriving) before the connection is closed. */
  bodyIdleSeconds: number;
  /** Uploads received at once, in all and for one profile; more are answered 429. */
  maxConcurrentUploads: number;
  maxConcurrentUploadsPerProfile: number;
  /** Expected memory of the parses that may run at once, in MiB (TRAITSCOPE_MEMORY_BUDGET_MIB; default 1024). */
  memoryBudgetMib: number | undefined;
  /**
   * Whether large jobs run in a process of their own (processing/engine-process.ts);
   * undefined: where the runtime allows it. TRAITSCOPE_OWN_PROCESSES=0 turns it off, for comparison.
   */
  ownProcesses: boolean | undefined;
  /**
   * Keep one such process started ahead of need (TRAITSCOPE_SPARE_PROCESS=1). Off by default: a
   * file parsed as it arrives starts its process when the upload begins, which hides the start,
   * and an idle spare holds ~90 MiB (docs/performance.md, "Memory").
   */
  spareProcess: boolean;
  /** Starts those processes (the desktop app's utilityProcess); undefined: child_process.fork. Not from the environment. */
  startProcess: ProcessStarter | undefined;
}

export const DEFAULT_PORT = 4780;

/** The repository (or packaged app) root: two levels above this module, in source and in the bundle. */
const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The app's version from package.json (inside app.asar when packaged: Electron reads it there). */
export function appVersion(): string {
  for (const root of [appRoot, appRoot.replace(/app\.asar\.unpacked$/, 'app.asar')]) {
    try {
      return String(
        (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: unknown }).version,
      );
    } catch {
      // try the next place
    }
  }
  return 'unknown';
}

/**
 * The per-user application data folder, the same one Electron's app.getPath('userData')
 * gives for an app named Traitscope, so the desktop app and `npm run serve` share data.
 */
export function defaultDataDir(): string {
  const home = homedir();
  if (process.platform === 'win32')
    return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Traitscope');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Traitscope');
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Traitscope');
}

/** A positive number from the environment (TRAITSCOPE_*), for tuning limits without code. */
function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}").`);
  return value;
}

/** A whole number ≥ 0 from the environment. */
function envCount(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number, 0 or more (got "${raw}").`);
  return value;
}

/** Workers yield to the event loop on a shared core (docs/performance.md, "What runs on the event loop"). */
const DEFAULT_WORKER_NICE = 5;

function niceValue(value: number | undefined): number | undefined {
  if (value !== undefined && value > 19) throw new Error(`TRAITSCOPE_WORKER_NICE must be from 0 to 19 (got ${value}).`);
  return value;
}

function atMost(value: number | undefined, most: number, name: string): number | undefined {
  if (value !== undefined && value > most) throw new Error(`${name} must be at most ${most} (got ${value}).`);
  return value;
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === 0) throw new Error(`${name} must be at least 1.`);
  return value;
}

export function resolveConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    dataDir: overrides.dataDir ?? defaultDataDir(),
    port: overrides.port ?? DEFAULT_PORT,
    resourcesDir: overrides.resourcesDir ?? path.join(appRoot, 'resources'),
    uiDir: overrides.uiDir === undefined ? path.join(appRoot, 'out', 'renderer') : overrides.uiDir,
    tokenTtlSeconds: overrides.tokenTtlSeconds ?? envNumber('TRAITSCOPE_TOKEN_TTL_SECONDS') ?? 24 * 3600,
    authFailureDelayMs:
      overrides.authFailureDelayMs ??
      atMost(envNumber('TRAITSCOPE_AUTH_FAILURE_DELAY_MS'), 10_000, 'TRAITSCOPE_AUTH_FAILURE_DELAY_MS') ??
      DEFAULT_ATTEMPT_LIMITS.failureDelayMs,
    uploadUrlTtlSeconds: overrides.uploadUrlTtlSeconds ?? envNumber('TRAITSCOPE_UPLOAD_URL_TTL_SECONDS') ?? 180,
    maxUploadBytes: overrides.maxUploadBytes ?? envNumber('TRAITSCOPE_MAX_UPLOAD_BYTES') ?? 1024 ** 3,
    workers: overrides.workers ?? positive(envCount('TRAITSCOPE_WORKERS'), 'TRAITSCOPE_WORKERS'),
    workerNice: overrides.workerNice ?? niceValue(envCount('TRAITSCOPE_WORKER_NICE')) ?? DEFAULT_WORKER_NICE,
    parseWhileReceiving: overrides.parseWhileReceiving ?? process.env.TRAITSCOPE_PARSE_WHILE_RECEIVING !== '0',
    maxQueuedJobs: overrides.maxQueuedJobs ?? envCount('TRAITSCOPE_MAX_QUEUED_JOBS') ?? 32,
    corsOrigins: [...(process.env.TRAITSCOPE_CORS_ORIGINS ?? '').split(','), ...(overrides.corsOrigins ?? [])]
      .map((o) => o.trim())
      .filter(Boolean),
    headersTimeoutSeconds: overrides.headersTimeoutSeconds ?? envNumber('TRAITSCOPE_HEADERS_TIMEOUT_SECONDS') ?? 20,
    bodyIdleSeconds: overrides.bodyIdleSeconds ?? envNumber('TRAITSCOPE_BODY_IDLE_SECONDS') ?? 30,
    maxConcurrentUploads: overrides.maxConcurrentUploads ?? envNumber('TRAITSCOPE_MAX_CONCURRENT_UPLOADS') ?? 8,
    maxConcurrentUploadsPerProfile: overrides.maxConcurrentUploadsPerProfile ?? 2,
    memoryBudgetMib: overrides.memoryBudgetMib ?? envNumber('TRAITSCOPE_MEMORY_BUDGET_MIB'),
    ownProcesses: overrides.ownProcesses ?? (process.env.TRAITSCOPE_OWN_PROCESSES === '0' ? false : undefined),
    spareProcess: overrides.spareProcess ?? process.env.TRAITSCOPE_SPARE_PROCESS === '1',
    startProcess: overrides.startProcess,
  };
}

export function databasePath(dataDir: string): string {
  return path.join(dataDir, 'traitscope.db');
}
