/**
 * Starts the whole Traitscope service on 127.0.0.1: database, science engine, processing
 * worker threads and the HTTP server. Used by the desktop app, `npm run serve` and tests.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureAppClient } from './auth/clients.js';
import { issueToken } from './auth/tokens.js';
import { databasePath, resolveConfig, type ServiceConfig } from './config.js';
import { removeServiceFile, writeServiceFile } from './discovery.js';
import { openDatabase, type Db } from './db/database.js';
import { interruptedProfiles } from './genotype/genotype-store.js';
import { createApp } from './http/app.js';
import { replyToClientErrors } from './http/client-errors.js';
import { origin, type ServiceContext } from './http/context.js';
import { createProcessor } from './processing/processor.js';
import type { ScienceEngineExt } from './science/index.js';
import { persistentKey, SERVICE_ORIGIN, setSetting } from './settings.js';
import { createSignInCode } from './auth/sign-in.js';
import { genotypesDir, removeStoredFile } from './storage/file-store.js';
import { engineWithCustomTraits } from './traits/custom-traits.js';
import { refreshStaleAssessments } from './traits/refresh.js';

export interface RunningService {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  config: ServiceConfig;
  db: Db;
  engine: () => ScienceEngineExt;
  /** A new access token of the app's own client (for the UI of this machine's user). */
  appToken(): string;
  /** A one-time link that signs a browser tab in to the web UI. */
  signInUrl(): string;
  close(): Promise<void>;
}

export async function startService(overrides: Partial<ServiceConfig> = {}): Promise<RunningService> {
  const config = resolveConfig(overrides);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const dbPath = databasePath(config.dataDir);
  const db = openDatabase(dbPath);
  const engine = engineWithCustomTraits(db, config.resourcesDir);
  const processor = createProcessor({
    db,
    jobBase: { dataDir: config.dataDir, dbPath, resourcesDir: config.resourcesDir },
    maxParallel: config.maxParallelParses,
  });
  let port = config.port;
  const ctx: ServiceContext = {
    config,
    db,
    get engine() {
      return engine();
    },
    processor,
    uploadKey: persistentKey(db, 'upload_url_key'),
    port: () => port,
  };

  refreshStaleAssessments(db, engine());
  removeOrphanFiles(db, config.dataDir);

  const server: Server = await new Promise((resolve, reject) => {
    const s = createApp(ctx).listen(config.port, '127.0.0.1');
    replyToClientErrors(s);
    s.once('listening', () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) => {
      db.close();
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`Port ${config.port} on 127.0.0.1 is already in use (another Traitscope?). Choose another with --port, or --port 0 for any free one.`)
          : err,
      );
    });
  });
  port = (server.address() as AddressInfo).port;
  // Longer than clients' own keep-alive idle time, so a reused connection is never closed
  // under a request that is already on its way.
  server.keepAliveTimeout = 65_000;

  setSetting(db, SERVICE_ORIGIN, origin(ctx));
  writeServiceFile(config.dataDir, origin(ctx));

  // Files uploaded but not processed when the service last stopped are processed now.
  for (const profileId of interruptedProfiles(db)) void processor.process(profileId);

  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    config,
    db,
    engine,
    appToken() {
      const app = ensureAppClient(db);
      return issueToken(db, { clientId: app.id, scopes: app.scopes }, config.tokenTtlSeconds).token;
    },
    signInUrl() {
      return `${origin(ctx)}/#signin=${createSignInCode(db, config.tokenTtlSeconds)}`;
    },
    async close() {
      setSetting(db, SERVICE_ORIGIN, null);
      removeServiceFile(config.dataDir);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await processor.close();
      db.close();
    },
  };
}

/** Uploaded files no profile refers to (left by a crash mid-upload or a locked file on Windows). */
function removeOrphanFiles(db: Db, dataDir: string): void {
  const referenced = new Set(db.prepare<[], { file_name: string }>('SELECT file_name FROM genotype_files').all().map((r) => r.file_name));
  let names: string[] = [];
  try {
    names = readdirSync(genotypesDir(dataDir));
  } catch {
    return;
  }
  for (const name of names) if (!referenced.has(name)) void removeStoredFile(dataDir, name).catch(() => undefined);
}
