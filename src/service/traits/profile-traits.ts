/**
 * Trait statuses and assessments of one profile, as the spec's state machine defines them:
 * `computed` when an assessment is stored, `available` when enough of the trait's markers
 * are genotyped, `unavailable` otherwise.
 */
import type { Client } from '../auth/clients.js';
import type { Db } from '../db/database.js';
import { genotypeFacts, genotypeVersion, getGenotypeFile, loadGenotype, type StoredGenotype } from '../genotype/genotype-store.js';
import type { ProfileTrait, Trait, TraitStatus } from '../../shared/api.js';
import { assessContext } from '../science/assess-context.js';
import { groupAgreement } from '../science/group-agreement.js';
import type { AssessContext, ProfileFacts, ScienceEngine, TraitInfo } from '../science/types.js';
import { computedCodes, getAssessment, getAssessmentDetails, profileAssessments, saveAssessment, type AssessmentDetails, type StoredAssessment } from './assessment-store.js';
import { clientHasTrait, clientTraits } from './client-traits.js';

export interface TraitsContext {
  db: Db;
  engine: ScienceEngine;
  /** True while the profile's file is queued or being processed. */
  isProcessing: (profileId: string) => boolean;
  /** Computes many traits in a worker thread, off the event loop. */
  scoreInWorker: (profileId: string, codes: string[]) => Promise<void>;
}

/** Up to this many traits are computed on the event loop; more go to a worker thread. */
const INLINE_COMPUTE_LIMIT = 40;

export class TraitConflictError extends Error {}
export class UnknownTraitError extends Error {}

export function traitJson(t: TraitInfo): Trait {
  return {
    code: t.code,
    name: t.name,
    overview: t.overview,
    connotation: t.connotation,
    category: t.category,
    featured: t.featured,
    quality: t.quality,
    study_label: t.study_label,
    group: t.group,
    sex: t.sex,
    sex_reason: t.sex_reason,
    evidence: t.evidence,
  };
}

/** Assessment fields of list and compute responses (summary) or single reads (full, with details). */
function withAssessment(trait: TraitInfo, stored: StoredAssessment, details?: AssessmentDetails): ProfileTrait {
  const a = stored.summary;
  const summary: ProfileTrait = {
    trait: traitJson(trait),
    status: 'computed',
    assessment_level: a.assessment_level,
    level_label: a.level_label,
    percentile: a.percentile,
    recommendations: a.recommendations,
    snps: a.snps,
    coverage: a.coverage,
    population: a.population,
    population_source: a.population_source,
    reference: a.reference,
    evidence: a.evidence,
    percentile_text: a.percentile_text,
    percentile_bound: a.percentile_bound,
    reachable_levels: a.reachable_levels,
    score: a.score,
    computed_at: stored.computedAt,
  };
  return details ? { ...summary, match: a.match, distribution: details.distribution, markers: details.markers } : summary;
}

function withFullAssessment(ctx: TraitsContext, profileId: string, trait: TraitInfo, stored: StoredAssessment): ProfileTrait {
  return withAssessment(trait, stored, getAssessmentDetails(ctx.db, profileId, trait.code));
}

// The last few genotypes read, keyed by profile; a new genotype changes its version stamp.
const genotypeCache = new Map<string, StoredGenotype>();
const CACHE_SIZE = 4;

/** The profile's genotype when it is ready for traits, or undefined (none, or still processing). */
function readyGenotype(ctx: TraitsContext, profileId: string): StoredGenotype | undefined {
  if (ctx.isProcessing(profileId)) return undefined;
  const file = getGenotypeFile(ctx.db, profileId);
  if (file && (file.status === 'uploaded' || file.status === 'processing')) return undefined;
  const version = genotypeVersion(ctx.db, profileId);
  if (!version) return undefined;
  const cached = genotypeCache.get(profileId);
  if (cached && cached.parsedAt === version) {
    genotypeCache.delete(profileId);
    genotypeCache.set(profileId, cached);
    return cached;
  }
  const loaded = loadGenotype(ctx.db, profileId);
  if (!loaded) return undefined;
  genotypeCache.set(profileId, loaded);
  while (genotypeCache.size > CACHE_SIZE) genotypeCache.delete(genotypeCache.keys().next().value!);
  return loaded;
}

export function forgetGenotype(profileId: string): void {
  genotypeCache.delete(profileId);
}

function contextOf(stored: StoredGenotype, profile: ProfileFacts): AssessContext {
  return assessContext(profile, genotypeFacts(stored));
}

function statusOf(ctx: TraitsContext, trait: TraitInfo, genotype: StoredGenotype, computed: Map<string, StoredAssessment>, profile: ProfileFacts): Pick<ProfileTrait, 'status' | 'status_reason'> {
  if (computed.has(trait.code)) return { status: 'computed' };
  const why = ctx.engine.unavailableReason(trait.code, genotype.genotype, contextOf(genotype, profile));
  return why ? { status: 'unavailable', status_reason: why } : { status: 'available' };
}

/** GET /profiles/{id}/traits/: every client trait with its status, or only computed ones with scores. */
export function listProfileTraits(ctx: TraitsContext, client: Client, profileId: string, profile: ProfileFacts, scored: boolean): ProfileTrait[] {
  const genotype = readyGenotype(ctx, profileId);
  if (!genotype) return [];
  const computed = profileAssessments(ctx.db, profileId);
  const out: ProfileTrait[] = [];
  const entries = clientTraits(client, ctx.engine);
  // Percentiles of each phenotype group's results, for the headline's agreement summary.
  const groupPercentiles = new Map<string, number[]>();
  for (const { trait } of entries) {
    const stored = computed.get(trait.code);
    if (stored && stored.summary.percentile !== null && !trait.group.headline) groupPercentiles.set(trait.group.code, [...(groupPercentiles.get(trait.group.code) ?? []), stored.summary.percentile]);
  }
  for (const { trait } of entries) {
    if (scored) {
      const stored = computed.get(trait.code);
      if (stored) {
        const item = withAssessment(trait, stored);
        if (trait.group.headline && trait.group.size > 1 && stored.summary.percentile !== null) item.group_agreement = groupAgreement(stored.summary.percentile, groupPercentiles.get(trait.code) ?? []);
        out.push(item);
      }
    } else {
      out.push({ trait: traitJson(trait), ...statusOf(ctx, trait, genotype, computed, profile) });
    }
  }
  return out;
}

/**
 * POST /profiles/{id}/traits/: computes the requested traits that are `available` and
 * returns every requested trait that is computed afterwards. Unknown and unavailable
 * codes are left out.
 */
export async function computeProfileTraits(
  ctx: TraitsContext,
  client: Client,
  profileId: string,
  profile: ProfileFacts,
  codes: string[],
): Promise<ProfileTrait[]> {
  const genotype = readyGenotype(ctx, profileId);
  if (!genotype) return [];
  const engine = ctx.engine;
  const requested = [...new Set(codes)].filter((code) => clientHasTrait(client, engine, code));
  const done = new Set(computedCodes(ctx.db, profileId));
  const missing = requested.filter((code) => !done.has(code));
  if (missing.length > INLINE_COMPUTE_LIMIT) {
    await ctx.scoreInWorker(profileId, missing);
  } else {
    ctx.db.transaction(() => {
      for (const code of missing) {
        const assessment = engine.assess(code, genotype.genotype, contextOf(genotype, profile));
        if (assessment) saveAssessment(ctx.db, profileId, code, assessment);
      }
    })();
  }
  // Traits that could not be computed (unavailable) have no assessment and are left out.
  const computed = profileAssessments(ctx.db, profileId);
  return requested.flatMap((code) => {
    const stored = computed.get(code);
    return stored ? [withAssessment(engine.trait(code)!, stored)] : [];
  });
}

/** GET /profiles/{id}/traits/{code}/: the full assessment when computed, else trait and status. */
export function getProfileTrait(ctx: TraitsContext, client: Client, profileId: string, profile: ProfileFacts, code: string): ProfileTrait {
  const trait = requireClientTrait(ctx, client, code);
  const genotype = readyGenotype(ctx, profileId);
  if (!genotype) return { trait: traitJson(trait), status: 'unavailable' };
  const stored = getAssessment(ctx.db, profileId, code);
  if (stored) return withFullAssessment(ctx, profileId, trait, stored);
  return { trait: traitJson(trait), ...statusOf(ctx, trait, genotype, new Map(), profile) };
}

/** PUT /profiles/{id}/traits/{code}/: computes (or returns the computed) full assessment. */
export function computeProfileTrait(ctx: TraitsContext, client: Client, profileId: string, profile: ProfileFacts, code: string): ProfileTrait {
  const trait = requireClientTrait(ctx, client, code);
  const genotype = readyGenotype(ctx, profileId);
  if (!genotype) {
    throw new TraitConflictError(
      ctx.isProcessing(profileId) || getGenotypeFile(ctx.db, profileId)?.status === 'processing'
        ? 'The genotype file of this profile is still being processed. Try again when processing has finished (POST .../genotype/upload/ waits for it).'
        : 'This profile has no genotype yet. Upload a raw-data file first (GET .../genotype/upload/ gives the upload URL).',
    );
  }
  const existing = getAssessment(ctx.db, profileId, code);
  if (existing && existing.revision === trait.revision) return withFullAssessment(ctx, profileId, trait, existing);
  const outcome = ctx.engine.assessMany(genotype.genotype, contextOf(genotype, profile), [code]).get(code)!;
  if (outcome.status !== 'computed') throw new TraitConflictError(`"${trait.name}" cannot be computed for this profile. ${outcome.reason.detail}`);
  const assessment = outcome.assessment;
  return withAssessment(trait, saveAssessment(ctx.db, profileId, code, assessment), assessment);
}

function requireClientTrait(ctx: TraitsContext, client: Client, code: string): TraitInfo {
  if (!clientHasTrait(client, ctx.engine, code)) {
    throw new UnknownTraitError(`There is no trait "${code}" for this client. GET /api/traits/ lists the trait codes you can use.`);
  }
  return ctx.engine.trait(code)!;
}
