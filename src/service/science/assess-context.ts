/**
 * The one place that turns what is known about a person (profile fields, and what their
 * genotype says) into the context traits are scored in: reference population, sex.
 * Every caller that scores builds its context here, so a new input (a chosen mixture,
 * inferred sex) reaches every path at once.
 */
import type { AssessContext, GenotypeFacts, ProfileFacts } from './types.js';

export function assessContext(profile: ProfileFacts, genotype: GenotypeFacts): AssessContext {
  return {
    ethnicity: profile.ethnicity,
    gender: profile.gender,
    mixture: profile.reference_mixture ?? null,
    ancestry: genotype.ancestry,
    inferredSex: genotype.inferredSex,
    fileLimits: genotype.fileLimits ?? null,
  };
}
