/** What every route needs: storage, the science engine, the processor and the service's own address. */
import type { ServiceConfig } from '../config.js';
import type { Db } from '../db/db.js';
import type { Diagnostics } from '../diagnostics.js';
import type { Eraser } from '../db/eraser.js';
import type { Processor } from '../processing/processor.js';
import type { ScienceEngineExt } from '../science/index.js';
import type { UploadDigester } from '../storage/upload-digests.js';

export interface ServiceContext {
  config: ServiceConfig;
  db: Db;
  /** The built-in catalog plus imported custom traits (a getter: it follows imports). */
  readonly engine: ScienceEngineExt;
  processor: Processor;
  /** Event-loop delays, memory and worker pool state (GET /api/app/diagnostics). */
  diagnostics: Diagnostics;
  /** Erases what deletions leave in the database files, off the event loop. */
  eraser: Eraser;
  /** MD5 and CRC32C of uploads, computed off the event loop. */
  digester: UploadDigester;
  /** HMAC key of upload URLs (kept in the database, so URLs survive a restart). */
  uploadKey: Buffer;
  /** The port actually listened on (known after listen when configured as 0). */
  port: () => number;
}

export function origin(ctx: ServiceContext): string {
  return `http://127.0.0.1:${ctx.port()}`;
}
