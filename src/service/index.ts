/**
 * Starts the whole Traitscope service on 127.0.0.1: database, science engine, the worker
 * pool and the HTTP server. Used by the desktop app, `npm run serve` and tests. The pool's
 * workers load their engines while the service loads its own and starts listening; work
 * left from the last run (files not processed, results an updated catalog made stale) is
 * queued for them, never done on the event loop.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureAppClient } from './auth/clients.js';
import { issueToken } from './auth/tokens.js';
import { appVersion, databasePath, resolveConfig, type ServiceConfig } from './config.js';
import { startDiagnostics } from './diagnostics.js';
import { removeServiceFile, writeServiceFile } from './discovery.js';
import type { Db } from './db/db.js';
import { openDatabase } from './db/database.js';
import { eraseIsOwed } from './db/erase.js';
import { createEraser } from './db/eraser.js';
import { openLogFile, type LogFile } from './log-file.js';
import { interruptedProfiles, profilesWithGenotype, referencedFiles } from './genotype/genotype-store.js';
import { createApp } from './http/app.js';
import { replyToClientErrors } from './http/client-errors.js';
import { corsPolicyOf } from './http/cors.js';
import { createHttpServer } from './http/slow-clients.js';
import { origin, type ServiceContext } from './http/context.js';
import { createProcessor, type Processor } from './processing/processor.js';
import { profilesWithOutdatedResults } from './profiles/profiles.js';
import type { ScienceEngineExt } from './science/index.js';
import { SERVICE_ORIGIN, setSetting } from './settings.js';
import { createSignInCode } from './auth/sign-in.js';
import { sweepStoredFiles } from './storage/file-store.js';
import { ingestLocalFile, type StoredLocalFile } from './storage/local-ingest.js';
import { makePrivateDir } from './storage/private-files.js';
import { createUploadDigester } from './storage/upload-digests.js';
import { engineWithCustomTraits } from './traits/custom-traits.js';

export interface RunningService {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  config: ServiceConfig;
  db: Db;
  engine: () => ScienceEngineExt;
  processor: Processor;
  /** A new access token of the app's own client (for the UI of this machine's user). */
  appToken: () => string;
  /** A one-time link that signs a browser tab in to the web UI. */
  signInUrl: () => string;
  /** The data folder's log (logs/traitscope.log): start, stop and failures, nothing private. */
  log: LogFile;
  /** Stores a file on this machine's disk as the profile's file, as an upload would (storage/local-ingest.ts). */
  ingestFile: (filePath: string, profileId: string) => Promise<StoredLocalFile>;
  close: () => Promise<void>;
}

export async function startService(overrides: Partial<ServiceConfig> = {}): Promise<RunningService> {
  const config = resolveConfig(overrides);
  makePrivateDir(config.dataDir);
  const log = openLogFile(config.dataDir);
  const dbPath = databasePath(config.dataDir);
  const db = openDatabase(dbPath);
  // Copying the write-ahead log into the database file is the workers' (after each task,
  // engine-worker.ts), never the event loop's.
  db.pragma('wal_autocheckpoint = 0');
  // Workers first: they load their engines on other cores while this thread loads its own.
  const processor = createProcessor({
    db,
    worker: { dataDir: config.dataDir, dbPath, resourcesDir: config.resourcesDir, nice: config.workerNice },
    workers: config.workers,
    maxQueued: config.maxQueuedJobs,
    parseWhileReceiving: config.parseWhileReceiving,
    memoryBudgetBytes: config.memoryBudgetMib === undefined ? undefined : config.memoryBudgetMib * 1024 * 1024,
    ownProcesses: config.ownProcesses,
    spareProcess: config.spareProcess,
    startProcess: config.startProcess,
  });
  // The service's own engine (trait lists, statuses, one assessment's details) loads on
  // first use, so the service answers before the catalog is compiled; the workers load theirs
  // meanwhile. It reads the ancestry estimates the workers stored, so its ancestry panel
  // loads only if an inference ever needs it. A new engine means imported traits changed
  // (through the API or the CLI): every genotype gets the new traits scored in the background.
  const engines = engineWithCustomTraits(db, config.resourcesDir, 'on-first-use');
  let lastEngine: ScienceEngineExt | undefined;
  const engine = () => {
    const current = engines();
    if (lastEngine && current !== lastEngine) {
      for (const profileId of profilesWithGenotype(db)) void processor.fillIn(profileId);
    }
    lastEngine = current;
    return current;
  };
  let port = config.port;
  const ctx: ServiceContext = {
    config,
    db,
    get engine() {
      return engine();
    },
    processor,
    diagnostics: startDiagnostics(processor),
    eraser: createEraser({ dbPath }),
    digester: createUploadDigester({ nice: config.workerNice }),
    // In memory only: reading the data folder never yields it (URLs live minutes, not across restarts).
    uploadKey: randomBytes(32),
    port: () => port,
  };

  sweepStoredFiles(config.dataDir, referencedFiles(db));
  // A deletion a crash (or another program holding the database) kept from being erased:
  // finished on the erase thread while the service starts.
  if (eraseIsOwed(db)) void ctx.eraser.erase();

  const server: Server = await new Promise((resolve, reject) => {
    const app = createApp(ctx);
    const s = createHttpServer(app, config).listen(config.port, '127.0.0.1');
    const cors = corsPolicyOf(app);
    replyToClientErrors(s, { allows: cors.allows, listsAny: () => cors.fixed.length + cors.saved().length > 0 });
    s.once('listening', () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) => {
      void processor.close().finally(() => db.close());
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `Port ${config.port} on 127.0.0.1 is already in use (another Traitscope?). Choose another with --port, or --port 0 for any free one.`,
            )
          : err,
      );
    });
  });
  port = (server.address() as AddressInfo).port;

  setSetting(db, SERVICE_ORIGIN, origin(ctx));
  writeServiceFile(config.dataDir, origin(ctx));
  log.write('info', `service ${appVersion()} started on ${origin(ctx)}, node ${process.versions.node}`);

  // Files uploaded but not processed when the service last stopped are processed now; every
  // other genotype gets the traits it has no current result for (an updated catalog, an
  // import, scoring interrupted by the last stop). A profile with nothing missing costs one
  // query in a worker.
  // Results computed for another reference than the profile's (a change whose rescore a
  // crash interrupted) are scored again first; reads of them wait for it.
  for (const profileId of profilesWithOutdatedResults(db)) void processor.rescore(profileId);
  const interrupted = new Set(interruptedProfiles(db));
  for (const profileId of interrupted) void processor.process(profileId);
  for (const profileId of profilesWithGenotype(db)) if (!interrupted.has(profileId)) void processor.fillIn(profileId);

  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    config,
    db,
    engine,
    processor,
    appToken() {
      const app = ensureAppClient(db);
      return issueToken(db, { clientId: app.id, scopes: app.scopes }, config.tokenTtlSeconds).token;
    },
    signInUrl() {
      return `${origin(ctx)}/#signin=${createSignInCode(db)}`;
    },
    log,
    ingestFile: (filePath, profileId) => ingestLocalFile(ctx, filePath, profileId),
    async close() {
      log.write('info', 'service stopping');
      setSetting(db, SERVICE_ORIGIN, null);
      removeServiceFile(config.dataDir);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await processor.close();
      await ctx.digester.close();
      await ctx.eraser.close();
      ctx.diagnostics.stop();
      db.close();
      log.write('info', 'service stopped, database closed');
    },
  };
}
