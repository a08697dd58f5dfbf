/**
 * Stored trait outcomes of a profile: for every trait scored on its genotype, either an
 * assessment summary (level, percentile, text, rsIDs) or the reason it cannot be computed,
 * each with the trait revision it was decided with. Per-marker details and the plot's
 * distribution are not stored: they are recomputed when one assessment is read.
 *
 * Also here: which non-free traits the profile's client asked for (pricing), and a version
 * per profile that changes with every change of its results (the trait list's ETag).
 */
import type { Db } from '../db/db.js';
import { namedStatements } from '../db/statements.js';
import type { Assessment, TraitOutcome, UnavailableReason } from '../science/types.js';

/**
 * What is stored of an assessment, and what lists show of it as it is: everything but the
 * details (recomputed on single reads), the trait's own quality facts (in the trait object)
 * and the revision (a column of its own).
 */
export type AssessmentSummary = Omit<Assessment, 'markers' | 'distribution' | 'quality' | 'revision'>;

export interface StoredAssessment {
  code: string;
  revision: string;
  /** The summary as stored: a JSON object (lists splice it into their items unparsed). */
  json: string;
  /** Its percentile (null: a score without reference frequencies). */
  percentile: number | null;
  computedAt: string;
}

export interface StoredUnavailable {
  revision: string;
  reason: UnavailableReason;
}

/** An outcome serialized before a write transaction opens, so the transaction stays short. */
export type PreparedOutcome =
  | { code: string; revision: string; status: 'computed'; json: string }
  | { code: string; revision: string; status: 'unavailable'; json: string };

interface Row {
  trait_code: string;
  revision: string;
  result: string;
  percentile: number | null;
  computed_at: string;
}

// Write transactions here are IMMEDIATE: a transaction that reads first and writes later
// cannot wait for a worker's write in WAL mode (SQLITE_BUSY at once); one that takes the
// write lock first simply waits.

const statements = namedStatements((db: Db) => ({
  forProfile: db.prepare<[string], Row>(
    "SELECT trait_code, revision, result, json_extract(result, '$.percentile') AS percentile, computed_at FROM assessments WHERE profile_id = ?",
  ),
  one: db.prepare<[string, string], Row>(
    "SELECT trait_code, revision, result, json_extract(result, '$.percentile') AS percentile, computed_at FROM assessments WHERE profile_id = ? AND trait_code = ?",
  ),
  upsert: db.prepare<[string, string, string, string, string]>(
    'INSERT OR REPLACE INTO assessments (profile_id, trait_code, revision, result, computed_at) VALUES (?, ?, ?, ?, ?)',
  ),
  removeAssessment: db.prepare<[string, string]>('DELETE FROM assessments WHERE profile_id = ? AND trait_code = ?'),
  removeAllAssessments: db.prepare<[string]>('DELETE FROM assessments WHERE profile_id = ?'),
  oneUnavailable: db.prepare<[string, string], { revision: string; reason: string }>(
    'SELECT revision, reason FROM unavailable_traits WHERE profile_id = ? AND trait_code = ?',
  ),
  upsertUnavailable: db.prepare<[string, string, string, string]>(
    'INSERT OR REPLACE INTO unavailable_traits (profile_id, trait_code, revision, reason) VALUES (?, ?, ?, ?)',
  ),
  removeUnavailable: db.prepare<[string, string]>(
    'DELETE FROM unavailable_traits WHERE profile_id = ? AND trait_code = ?',
  ),
  removeAllUnavailable: db.prepare<[string]>('DELETE FROM unavailable_traits WHERE profile_id = ?'),
  revisions: db.prepare<[string, string], { trait_code: string; revision: string }>(
    'SELECT trait_code, revision FROM assessments WHERE profile_id = ? UNION ALL SELECT trait_code, revision FROM unavailable_traits WHERE profile_id = ?',
  ),
  statuses: db
    .prepare<[string, string], [string, string, 'computed' | 'unavailable', string | null]>(
      "SELECT trait_code, revision, 'computed', NULL FROM assessments WHERE profile_id = ? UNION ALL SELECT trait_code, revision, 'unavailable', reason FROM unavailable_traits WHERE profile_id = ?",
    )
    .raw(),
  requested: db.prepare<[string], { trait_code: string }>(
    'SELECT trait_code FROM requested_traits WHERE profile_id = ?',
  ),
  request: db.prepare<[string, string, string]>(
    'INSERT OR IGNORE INTO requested_traits (profile_id, trait_code, requested_at) VALUES (?, ?, ?)',
  ),
  version: db.prepare<[string], { version: number }>('SELECT version FROM results_versions WHERE profile_id = ?'),
  bump: db.prepare<[string]>(
    'INSERT INTO results_versions (profile_id, version) VALUES (?, 1) ON CONFLICT (profile_id) DO UPDATE SET version = version + 1',
  ),
  bumpAll: db.prepare('UPDATE results_versions SET version = version + 1'),
  removeTraitAssessments: db.prepare<[string]>('DELETE FROM assessments WHERE trait_code = ?'),
  removeTraitUnavailable: db.prepare<[string]>('DELETE FROM unavailable_traits WHERE trait_code = ?'),
  removeTraitRequests: db.prepare<[string]>('DELETE FROM requested_traits WHERE trait_code = ?'),
}));

function toStored(row: Row): StoredAssessment {
  return {
    code: row.trait_code,
    revision: row.revision,
    json: row.result,
    percentile: row.percentile,
    computedAt: row.computed_at,
  };
}

function summaryOf(assessment: Assessment): AssessmentSummary {
  const { markers: _m, distribution: _d, quality: _q, revision: _r, ...summary } = assessment;
  return summary;
}

export function profileAssessments(db: Db, profileId: string): Map<string, StoredAssessment> {
  return new Map(
    statements(db)
      .forProfile.all(profileId)
      .map((r) => [r.trait_code, toStored(r)]),
  );
}

export function getAssessment(db: Db, profileId: string, code: string): StoredAssessment | undefined {
  const row = statements(db).one.get(profileId, code);
  return row ? toStored(row) : undefined;
}

export function getUnavailable(db: Db, profileId: string, code: string): StoredUnavailable | undefined {
  const row = statements(db).oneUnavailable.get(profileId, code);
  return row ? { revision: row.revision, reason: JSON.parse(row.reason) as UnavailableReason } : undefined;
}

/** The trait revision of every stored outcome (computed or unavailable) of the profile. */
export function outcomeRevisions(db: Db, profileId: string): Map<string, string> {
  return new Map(
    statements(db)
      .revisions.all(profileId, profileId)
      .map((r) => [r.trait_code, r.revision]),
  );
}

/** A stored outcome's status; for an unavailable one, its reason as the stored JSON text. */
export interface StoredStatus {
  status: 'computed' | 'unavailable';
  revision: string;
  reason: string | null;
}

/**
 * Which traits of the profile have a stored assessment and which are stored as unavailable
 * (with the reason's JSON as stored, spliced into list items as it is), at which revision.
 */
export function storedStatuses(db: Db, profileId: string): Map<string, StoredStatus> {
  const out = new Map<string, StoredStatus>();
  for (const [code, revision, status, reason] of statements(db).statuses.all(profileId, profileId))
    out.set(code, { status, revision, reason });
  return out;
}

/** Serializes an outcome outside any transaction (JSON of 2,000 results takes tens of ms). */
export function prepareOutcome(code: string, revision: string, outcome: TraitOutcome): PreparedOutcome {
  return outcome.status === 'computed'
    ? { code, revision, status: 'computed', json: JSON.stringify(summaryOf(outcome.assessment)) }
    : { code, revision, status: 'unavailable', json: JSON.stringify(outcome.reason) };
}

/**
 * Writes prepared outcomes of one profile. With `replaceAll`, every other stored outcome of
 * the profile goes (they belong to a previous genotype); `remove` drops the outcomes of
 * the given traits (gone from the catalog). Call inside a transaction.
 */
export function writeOutcomes(
  db: Db,
  profileId: string,
  outcomes: readonly PreparedOutcome[],
  options: { replaceAll: boolean; remove?: readonly string[] },
): void {
  const st = statements(db);
  if (options.replaceAll) {
    st.removeAllAssessments.run(profileId);
    st.removeAllUnavailable.run(profileId);
  }
  for (const code of options.remove ?? []) {
    st.removeAssessment.run(profileId, code);
    st.removeUnavailable.run(profileId, code);
  }
  const now = new Date().toISOString();
  for (const o of outcomes) {
    if (o.status === 'computed') {
      st.upsert.run(profileId, o.code, o.revision, o.json, now);
      if (!options.replaceAll) st.removeUnavailable.run(profileId, o.code);
    } else {
      st.upsertUnavailable.run(profileId, o.code, o.revision, o.json);
      if (!options.replaceAll) st.removeAssessment.run(profileId, o.code);
    }
  }
  st.bump.run(profileId);
}

/** Non-free traits the profile's client asked for. */
export function requestedCodes(db: Db, profileId: string): Set<string> {
  return new Set(
    statements(db)
      .requested.all(profileId)
      .map((r) => r.trait_code),
  );
}

/** Records that the client asked for these traits; they are `computed` for it from now on. */
export function markRequested(db: Db, profileId: string, codes: readonly string[]): void {
  const st = statements(db);
  const known = requestedCodes(db, profileId);
  const fresh = codes.filter((c) => !known.has(c));
  if (fresh.length === 0) return;
  const now = new Date().toISOString();
  db.transaction(() => {
    for (const code of fresh) st.request.run(profileId, code, now);
    st.bump.run(profileId);
  }).immediate();
}

/** Changes whenever the profile's stored results (or requests) change. */
export function resultsVersion(db: Db, profileId: string): number {
  return statements(db).version.get(profileId)?.version ?? 0;
}

/** Removes every outcome and request of a trait (an imported trait that was removed). */
export function removeTraitEverywhere(db: Db, code: string): void {
  const st = statements(db);
  db.transaction(() => {
    st.removeTraitAssessments.run(code);
    st.removeTraitUnavailable.run(code);
    st.removeTraitRequests.run(code);
    st.bumpAll.run();
  }).immediate();
}
