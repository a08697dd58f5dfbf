/**
 * Stored assessments: one per profile and trait, with the trait revision it was computed
 * with. The summary (level, percentile, text, rsIDs) and the details (per-marker table and
 * reference distribution) are stored apart: lists read summaries only.
 */
import type { Db } from '../db/database.js';
import { namedStatements } from '../db/statements.js';
import type { Assessment } from '../science/types.js';

export type AssessmentDetails = Pick<Assessment, 'markers' | 'distribution'>;
export type AssessmentSummary = Omit<Assessment, keyof AssessmentDetails>;

export interface StoredAssessment {
  code: string;
  revision: string;
  summary: AssessmentSummary;
  computedAt: string;
}

interface Row {
  trait_code: string;
  revision: string;
  result: string;
  computed_at: string;
}

const statements = namedStatements((db: Db) => ({
  forProfile: db.prepare<[string], Row>('SELECT trait_code, revision, result, computed_at FROM assessments WHERE profile_id = ?'),
  one: db.prepare<[string, string], Row>('SELECT trait_code, revision, result, computed_at FROM assessments WHERE profile_id = ? AND trait_code = ?'),
  details: db.prepare<[string, string], { details: string }>('SELECT details FROM assessments WHERE profile_id = ? AND trait_code = ?'),
  codes: db.prepare<[string], { trait_code: string }>('SELECT trait_code FROM assessments WHERE profile_id = ?'),
  upsert: db.prepare<[string, string, string, string, string, string]>(
    'INSERT OR REPLACE INTO assessments (profile_id, trait_code, revision, result, details, computed_at) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  remove: db.prepare<[string, string]>('DELETE FROM assessments WHERE profile_id = ? AND trait_code = ?'),
  stale: db.prepare<[], { profile_id: string; trait_code: string; revision: string }>('SELECT profile_id, trait_code, revision FROM assessments'),
}));

function toStored(row: Row): StoredAssessment {
  return { code: row.trait_code, revision: row.revision, summary: JSON.parse(row.result) as AssessmentSummary, computedAt: row.computed_at };
}

export function profileAssessments(db: Db, profileId: string): Map<string, StoredAssessment> {
  return new Map(statements(db).forProfile.all(profileId).map((r) => [r.trait_code, toStored(r)]));
}

export function getAssessment(db: Db, profileId: string, code: string): StoredAssessment | undefined {
  const row = statements(db).one.get(profileId, code);
  return row ? toStored(row) : undefined;
}

export function getAssessmentDetails(db: Db, profileId: string, code: string): AssessmentDetails | undefined {
  const row = statements(db).details.get(profileId, code);
  return row ? (JSON.parse(row.details) as AssessmentDetails) : undefined;
}

export function computedCodes(db: Db, profileId: string): string[] {
  return statements(db).codes.all(profileId).map((r) => r.trait_code);
}

export function saveAssessment(db: Db, profileId: string, code: string, assessment: Assessment): StoredAssessment {
  const computedAt = new Date().toISOString();
  const { markers, distribution, ...summary } = assessment;
  statements(db).upsert.run(profileId, code, assessment.revision, JSON.stringify(summary), JSON.stringify({ markers, distribution }), computedAt);
  return { code, revision: assessment.revision, summary, computedAt };
}

export function removeAssessment(db: Db, profileId: string, code: string): void {
  statements(db).remove.run(profileId, code);
}

/** Every stored (profile, trait, revision), to find assessments made with an older catalog. */
export function allAssessmentRevisions(db: Db): Array<{ profileId: string; code: string; revision: string }> {
  return statements(db).stale.all().map((r) => ({ profileId: r.profile_id, code: r.trait_code, revision: r.revision }));
}
