/**
 * After an app update changes the catalog, assessments computed with an older trait
 * revision are recomputed on the stored genotype (or removed when the trait is gone or no
 * longer computable), so no result from an outdated definition is ever shown.
 */
import type { Db } from '../db/database.js';
import { loadGenotype } from '../genotype/genotype-store.js';
import { profileOwner } from '../profiles/profiles.js';
import type { ScienceEngine } from '../science/types.js';
import { allAssessmentRevisions, removeAssessment, saveAssessment } from './assessment-store.js';

export function refreshStaleAssessments(db: Db, engine: ScienceEngine): number {
  const stale = new Map<string, string[]>();
  for (const { profileId, code, revision } of allAssessmentRevisions(db)) {
    if (engine.trait(code)?.revision === revision) continue;
    stale.set(profileId, [...(stale.get(profileId) ?? []), code]);
  }
  let refreshed = 0;
  for (const [profileId, codes] of stale) {
    const stored = loadGenotype(db, profileId);
    const owner = profileOwner(db, profileId);
    db.transaction(() => {
      for (const code of codes) {
        const assessment =
          stored && owner && engine.trait(code)
            ? engine.assess(code, stored.genotype, { ethnicity: owner.ethnicity, inferred: stored.ancestry?.population ?? null })
            : null;
        if (assessment) saveAssessment(db, profileId, code, assessment);
        else removeAssessment(db, profileId, code);
        refreshed++;
      }
    })();
  }
  return refreshed;
}
