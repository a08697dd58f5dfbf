/** What every route needs: storage, the science engine, the processor and the service's own address. */
import type { ServiceConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { Processor } from '../processing/processor.js';
import type { ScienceEngine } from '../science/types.js';

export interface ServiceContext {
  config: ServiceConfig;
  db: Db;
  engine: ScienceEngine;
  processor: Processor;
  /** HMAC key of upload URLs (kept in the database, so URLs survive a restart). */
  uploadKey: Buffer;
  /** The port actually listened on (known after listen when configured as 0). */
  port(): number;
}

export function origin(ctx: ServiceContext): string {
  return `http://127.0.0.1:${ctx.port()}`;
}
