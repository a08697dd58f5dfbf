/**
 * Keeps stored assessments true to what they depend on. After an app update changes the
 * catalog, assessments computed with an older trait revision are recomputed; after a
 * profile's ethnicity changes, its assessments are recomputed against the new reference
 * population. A trait that is gone or no longer computable loses its assessment.
 */
import type { Db } from '../db/database.js';
import { genotypeFacts, loadGenotype } from '../genotype/genotype-store.js';
import { profileOwner } from '../profiles/profiles.js';
import { assessContext } from '../science/assess-context.js';
import type { ScienceEngine } from '../science/types.js';
import { allAssessmentRevisions, computedCodes, removeAssessment, saveAssessment } from './assessment-store.js';

export function recomputeAssessments(db: Db, engine: ScienceEngine, profileId: string, codes: readonly string[]): void {
  const stored = loadGenotype(db, profileId);
  const owner = profileOwner(db, profileId);
  db.transaction(() => {
    for (const code of codes) {
      const assessment =
        stored && owner && engine.trait(code)
          ? engine.assess(code, stored.genotype, assessContext(owner, genotypeFacts(stored)))
          : null;
      if (assessment) saveAssessment(db, profileId, code, assessment);
      else removeAssessment(db, profileId, code);
    }
  })();
}

export function recomputeProfile(db: Db, engine: ScienceEngine, profileId: string): void {
  recomputeAssessments(db, engine, profileId, computedCodes(db, profileId));
}

/** Recomputes every assessment whose trait revision is not the catalog's; returns how many. */
export function refreshStaleAssessments(db: Db, engine: ScienceEngine): number {
  const stale = new Map<string, string[]>();
  for (const { profileId, code, revision } of allAssessmentRevisions(db)) {
    if (engine.trait(code)?.revision === revision) continue;
    stale.set(profileId, [...(stale.get(profileId) ?? []), code]);
  }
  for (const [profileId, codes] of stale) recomputeAssessments(db, engine, profileId, codes);
  return [...stale.values()].reduce((n, codes) => n + codes.length, 0);
}
