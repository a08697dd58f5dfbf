/**
 * Starts the whole Traitscope service on 127.0.0.1: database, science engine, processing
 * worker threads and the HTTP server. Used by the desktop app, `npm run serve` and tests.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureAppClient } from './auth/clients.js';
import { issueToken } from './auth/tokens.js';
import { databasePath, resolveConfig, type ServiceConfig } from './config.js';
import { openDatabase, type Db } from './db/database.js';
import { interruptedProfiles, referencedFiles } from './genotype/genotype-store.js';
import { createApp } from './http/app.js';
import { createHttpServer } from './http/slow-clients.js';
import { origin, type ServiceContext } from './http/context.js';
import { createProcessor } from './processing/processor.js';
import type { ScienceEngineExt } from './science/index.js';
import { SERVICE_ORIGIN, setSetting } from './settings.js';
import { createSignInCode } from './auth/sign-in.js';
import { sweepStoredFiles } from './storage/file-store.js';
import { makePrivateDir } from './storage/private-files.js';
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
  makePrivateDir(config.dataDir);
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
    // In memory only: reading the data folder never yields it (URLs live minutes, not across restarts).
    uploadKey: randomBytes(32),
    port: () => port,
  };

  refreshStaleAssessments(db, engine());
  sweepStoredFiles(config.dataDir, referencedFiles(db));

  const server: Server = await new Promise((resolve, reject) => {
    const s = createHttpServer(createApp(ctx), config).listen(config.port, '127.0.0.1');
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

  setSetting(db, SERVICE_ORIGIN, origin(ctx));

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
      return `${origin(ctx)}/#signin=${createSignInCode(db)}`;
    },
    async close() {
      setSetting(db, SERVICE_ORIGIN, null);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await processor.close();
      db.close();
    },
  };
}
