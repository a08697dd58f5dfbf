/**
 * The jobs that run inside a worker thread, off the service's event loop:
 * - processing: parse the profile's current file, infer ancestry, score the traits that
 *   need it, and store everything in one transaction. The previous genotype and its
 *   assessments are only replaced once the new file has parsed.
 * - scoring: compute many traits of a profile at once (e.g. "compute all available").
 */
import { getClient } from '../auth/clients.js';
import { openDatabase, type Db } from '../db/database.js';
import { parseGenotypeFile, releaseParserMemory } from '../genotype/parse/index.js';
import {
  awaitReplaceConfirmation,
  genotypeFacts,
  genotypeSummary,
  getGenotypeFile,
  loadGenotype,
  setFileStatus,
  storeGenotype,
} from '../genotype/genotype-store.js';
import { replacementConcern } from '../genotype/plausibility.js';
import type { Genotype } from '../genotype/types.js';
import { profileOwner } from '../profiles/profiles.js';
import { createScienceEngine } from '../science/index.js';
import type { ScienceEngineExt } from '../science/index.js';
import { assessContext } from '../science/assess-context.js';
import type { Assessment, AssessContext, ScienceEngine } from '../science/types.js';
import { removeStoredFileNow, storedFilePath } from '../storage/file-store.js';
import { computedCodes, removeAssessment, saveAssessment } from '../traits/assessment-store.js';
import { freeTraitCodes } from '../traits/client-traits.js';
import { listCustomTraits } from '../traits/custom-traits.js';

export interface JobBase {
  profileId: string;
  dataDir: string;
  dbPath: string;
  resourcesDir: string;
}

export type ProcessingJob = JobBase & { kind: 'process' };
export type ScoringJob = JobBase & { kind: 'score'; codes: string[] };
export type WorkerJob = ProcessingJob | ScoringJob;

export type ScoringOutcome = { kind: 'scored'; computed: number } | { kind: 'failed'; reason: string } | { kind: 'superseded' };

export type ProcessingOutcome =
  | { kind: 'processed'; snpCount: number }
  | { kind: 'failed'; reason: string }
  /** A newer upload arrived (or the profile was deleted) while this one was being read. */
  | { kind: 'superseded' };

export async function runWorkerJob(job: WorkerJob): Promise<ProcessingOutcome | ScoringOutcome> {
  const db = openDatabase(job.dbPath);
  try {
    return job.kind === 'process' ? await processWith(db, job) : scoreWith(db, job);
  } finally {
    db.close();
  }
}

function engineFor(db: Db, resourcesDir: string): ScienceEngineExt {
  return createScienceEngine({ resourcesDir }).withCustomTraits(listCustomTraits(db).map((r) => r.trait));
}

/** Computes the given traits on the stored genotype; traits that are not computable are skipped. */
function scoreWith(db: Db, job: ScoringJob): ScoringOutcome {
  const stored = loadGenotype(db, job.profileId);
  const owner = profileOwner(db, job.profileId);
  if (!stored || !owner) return { kind: 'superseded' };
  const results = scoreAll(engineFor(db, job.resourcesDir), stored.genotype, job.codes, assessContext(owner, genotypeFacts(stored)));
  return db.transaction((): ScoringOutcome => {
    // The genotype may have been replaced while scoring: its own job recomputes everything.
    if (loadGenotype(db, job.profileId)?.parsedAt !== stored.parsedAt) return { kind: 'superseded' };
    let computed = 0;
    for (const [code, assessment] of results) {
      if (assessment) {
        saveAssessment(db, job.profileId, code, assessment);
        computed++;
      }
    }
    return { kind: 'scored', computed };
  }).immediate();
}

async function processWith(db: Db, job: ProcessingJob): Promise<ProcessingOutcome> {
  const file = getGenotypeFile(db, job.profileId);
  if (!file) return { kind: 'superseded' };
  const parsed = await parseGenotypeFile(storedFilePath(job.dataDir, file.file_name));
  releaseParserMemory(); // ~25 MB of parser memory this worker will not use again, before scoring
  if (!parsed.ok) {
    setFileStatus(db, job.profileId, 'failed', parsed.reason, file.file_name);
    return { kind: 'failed', reason: parsed.reason };
  }
  // A much smaller or stranger file than the genotype in use waits for a confirmation.
  const concern = file.replace_confirmed ? null : replacementConcern(genotypeSummary(db, job.profileId)?.summary ?? null, parsed.summary, job.profileId);
  if (concern) {
    awaitReplaceConfirmation(db, job.profileId, file.file_name, concern);
    return { kind: 'failed', reason: concern };
  }
  const engine = engineFor(db, job.resourcesDir);
  const ancestry = engine.inferAncestry(parsed.genotype);
  const owner = profileOwner(db, job.profileId);
  if (!owner) return { kind: 'superseded' };

  // Score outside the write transaction so the service's own writes are not held up.
  const client = getClient(db, owner.clientId);
  const wanted = new Set([...computedCodes(db, job.profileId), ...(client ? freeTraitCodes(client, engine) : [])]);
  const context = assessContext(owner, { ancestry, inferredSex: parsed.summary.inferred_sex });
  const results = scoreAll(engine, parsed.genotype, wanted, context);

  let replacedSource: string | null = null;
  const outcome = db.transaction((): ProcessingOutcome => {
    const current = getGenotypeFile(db, job.profileId);
    if (!current || current.file_name !== file.file_name || !profileOwner(db, job.profileId)) return { kind: 'superseded' };
    ({ replacedSource } = storeGenotype(db, job.profileId, {
      genotype: parsed.genotype,
      summary: parsed.summary,
      ancestry,
      sourceMd5: file.md5_hash,
      sourceFile: file.file_name,
    }));
    for (const [code, assessment] of results) {
      if (assessment) saveAssessment(db, job.profileId, code, assessment);
      else removeAssessment(db, job.profileId, code); // no longer computable on the new genotype
    }
    setFileStatus(db, job.profileId, 'processed', null, file.file_name);
    return { kind: 'processed', snpCount: parsed.summary.snp_count };
  }).immediate();
  // The previous genotype's source file was kept until this one had parsed and was stored.
  if (replacedSource) removeStoredFileNow(job.dataDir, replacedSource);
  return outcome;
}

function scoreAll(
  engine: ScienceEngine,
  genotype: Genotype,
  codes: readonly string[] | Set<string>,
  context: AssessContext,
): Map<string, Assessment | null> {
  const results = new Map<string, Assessment | null>();
  const outcomes = engine.assessMany(genotype, context, codes);
  for (const code of codes) {
    const outcome = outcomes.get(code);
    results.set(code, outcome?.status === 'computed' ? outcome.assessment : null);
  }
  return results;
}
