/**
 * Scoring traits of a profile's stored genotype, in an engine worker, through the engine's
 * one batch entry point (assessMany): every trait after processing (in the background),
 * every trait again after the profile's ethnicity or sex changed, what an updated catalog or
 * an import left without a current result, or the traits a client asked for that are not
 * stored yet.
 */
import type { Db } from '../db/db.js';
import { writeRecoverable } from '../db/write-recoverable.js';
import { genotypeFacts, genotypeVersion } from '../genotype/genotype-store.js';
import { profileOwner, resultsOutdated, setResultsReference } from '../profiles/profiles.js';
import { assessContext } from '../science/assess-context.js';
import type { Genotype } from '../genotype/types.js';
import type { AssessContext, ScienceEngine } from '../science/types.js';
import { outcomeRevisions, prepareOutcome, writeOutcomes, type PreparedOutcome } from '../traits/assessment-store.js';
import type { WorkerContext } from './worker-context.js';

/** Outcomes per write transaction when filling in (a few milliseconds of writing each). */
const FILL_IN_SLICE = 200;

function sliced<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out.length ? out : [[]];
}

export type ScoringOutcome =
  | { kind: 'scored'; computed: number; unavailable: number; removed?: number }
  /** The genotype was replaced (or the profile deleted) meanwhile: its own jobs score it. */
  | { kind: 'superseded' };

export interface ScoringRequest {
  profileId: string;
  /** The traits to score; null: every trait of the catalog and the imported ones. */
  codes: string[] | null;
  /** Skip traits that already have an outcome at their current revision. */
  onlyMissing: boolean;
}

/**
 * Scores `codes` on a genotype as they are stored (summaries, no per-marker details) and
 * serializes the outcomes for writeOutcomes, outside any transaction: the one way a job
 * scores and saves traits.
 */
export function scoreForStorage(
  engine: ScienceEngine,
  genotype: Genotype,
  context: AssessContext,
  codes: Iterable<string>,
): PreparedOutcome[] {
  const prepared: PreparedOutcome[] = [];
  for (const [code, outcome] of engine.assessMany(genotype, context, codes, { details: false })) {
    const revision = outcome.status === 'computed' ? outcome.assessment.revision : engine.trait(code)?.revision;
    if (revision !== undefined) prepared.push(prepareOutcome(code, revision, outcome));
  }
  return prepared;
}

/** The codes of `wanted` without a stored outcome at the trait's current revision. */
function missingOutcomes(db: Db, engine: ScienceEngine, profileId: string, wanted: readonly string[]): string[] {
  const stored = outcomeRevisions(db, profileId);
  return wanted.filter((code) => {
    const trait = engine.trait(code);
    return trait !== undefined && stored.get(code) !== trait.revision;
  });
}

export function scoreTraits(ctx: WorkerContext, request: ScoringRequest): ScoringOutcome {
  const { db } = ctx;
  const { profileId } = request;
  const stored = ctx.genotypes.current(db, profileId);
  const owner = profileOwner(db, profileId);
  if (!stored || !owner) return { kind: 'superseded' };
  const engine = ctx.engine();
  const all = request.codes === null;
  let codes = request.codes ?? engine.traits.map((t) => t.code);
  if (request.onlyMissing) codes = missingOutcomes(db, engine, profileId, codes);
  // Scoring every trait also drops outcomes of traits that left the catalog.
  const gone = all ? [...outcomeRevisions(db, profileId).keys()].filter((code) => !engine.trait(code)) : [];
  if (codes.length === 0 && gone.length === 0) return { kind: 'scored', computed: 0, unavailable: 0 };

  ctx.progress({ stage: 'scoring', done: 0, total: codes.length });
  const outcomes = scoreForStorage(engine, stored.genotype, assessContext(owner, genotypeFacts(stored)), codes);
  ctx.progress({ stage: 'storing', done: codes.length, total: codes.length });
  const replaceAll = all && !request.onlyMissing;
  // A rescore replaces every result in one transaction, so no reader ever sees old and new
  // results mixed. Filling in what is missing writes in short slices instead: the service's
  // own writes wait for a worker's transaction (SQLite has one writer), and that wait holds
  // its event loop.
  const slices = replaceAll ? [outcomes] : sliced(outcomes, FILL_IN_SLICE);
  // Filling in is recoverable (results a power cut drops are missing, and the next start
  // fills them in); a rescore is not: it would leave the old reference's results behind.
  const write = replaceAll
    ? (w: () => boolean) => db.transaction(w).immediate()
    : (w: () => boolean) => writeRecoverable(db, w);
  for (let i = 0; i < slices.length; i++) {
    const written = write(() => {
      if (genotypeVersion(db, profileId) !== stored.parsedAt) return false;
      const now = profileOwner(db, profileId);
      if (!now) return false;
      // Every result of a profile rests on one reference: a rescore records the one it
      // scored with beside its results (a newer change queued its own rescore); results
      // added to others are written only if all of them rest on the profile's reference now.
      if (!replaceAll && (now.referenceKey !== owner.referenceKey || resultsOutdated(db, profileId))) return false;
      setResultsReference(db, profileId, owner.referenceKey);
      writeOutcomes(db, profileId, slices[i], { replaceAll, remove: i === 0 ? gone : [] });
      return true;
    });
    if (!written) return { kind: 'superseded' };
  }
  const computed = outcomes.filter((o) => o.status === 'computed').length;
  return { kind: 'scored', computed, unavailable: outcomes.length - computed, removed: gone.length };
}
