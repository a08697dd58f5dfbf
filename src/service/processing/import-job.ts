/**
 * Importing a PGS Catalog scoring file as a custom trait, in an engine worker: reading,
 * matching and building reference frequencies for tens of thousands of variants is CPU work
 * that must not hold up the service's event loop.
 */
import { CustomTraitError, importCustomTrait, type CustomTraitRecord } from '../traits/custom-traits.js';
import type { WorkerContext } from './worker-context.js';

export interface ImportRequest {
  bytes: Uint8Array;
  fileName: string;
  name?: string;
  code?: string;
  /** A profile whose genotype file positions are matched against (see importCustomTrait). */
  profileId?: string;
}

export type ImportOutcome =
  | { kind: 'imported'; record: CustomTraitRecord }
  /** The file cannot be used (`invalid`) or its code is taken (`conflict`), with the reason. */
  | { kind: 'refused'; reason: string; problem: 'invalid' | 'conflict' };

export async function importScore(ctx: WorkerContext, request: ImportRequest): Promise<ImportOutcome> {
  try {
    const record = await importCustomTrait(ctx.db, ctx.engine, ctx.resourcesDir, request.bytes, {
      fileName: request.fileName,
      name: request.name,
      code: request.code,
      profileId: request.profileId,
      dataDir: ctx.dataDir,
    });
    return { kind: 'imported', record };
  } catch (err) {
    if (err instanceof CustomTraitError && err.kind !== 'missing')
      return { kind: 'refused', reason: err.message, problem: err.kind };
    throw err;
  }
}
