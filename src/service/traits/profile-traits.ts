/**
 * Trait statuses and assessments of one profile, as the spec's state machine defines them,
 * read from what the background scoring stored (docs/api.md, "Traits"):
 * - `computed`: an assessment is stored and the client gets it: the trait is free for the
 *   client, the client asked for it (POST/PUT), or the client is the desktop UI's own;
 * - `available`: an assessment is stored (or the trait is computable) but the client has
 *   not asked for this non-free trait; asking answers at once from the stored result;
 * - `unavailable`: the trait cannot be computed on this genotype.
 * Traits the background has not reached yet (right after processing, a new import) get
 * their status from the engine's coverage check.
 */
import { createHash } from 'node:crypto';
import type { Client } from '../auth/clients.js';
import type { Db } from '../db/db.js';
import {
  genotypeFacts,
  genotypeVersion,
  getGenotypeFile,
  loadGenotype,
  type StoredGenotype,
} from '../genotype/genotype-store.js';
import type { ProfileTrait, Trait, TraitStatus } from '../../shared/api.js';
import { assessContext } from '../science/assess-context.js';
import { groupAgreement } from '../science/group-agreement.js';
import type { Assessment, ProfileFacts, ScienceEngine, TraitInfo, UnavailableReason } from '../science/types.js';
import {
  getAssessment,
  getUnavailable,
  markRequested,
  outcomeRevisions,
  profileAssessments,
  requestedCodes,
  resultsVersion,
  storedStatuses,
  type StoredAssessment,
} from './assessment-store.js';
import { clientHasTrait, clientTraits, pricingFor, type ClientTraitEntry } from './client-traits.js';

export interface TraitsContext {
  db: Db;
  engine: ScienceEngine;
  /** Scores, in the worker pool, traits that have no stored outcome yet. */
  scoreMissing: (profileId: string, codes: string[]) => Promise<void>;
}

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

// Lists of 2,000 traits are built as text, from each trait's JSON (made once per engine) and
// the stored summaries as they are, so building one costs milliseconds, not a parse and a
// serialization of several megabytes on the event loop.
function textPerEngine(make: (trait: TraitInfo) => string): (engine: ScienceEngine, trait: TraitInfo) => string {
  const texts = new WeakMap<ScienceEngine, Map<string, string>>();
  return (engine, trait) => {
    let byCode = texts.get(engine);
    if (!byCode) texts.set(engine, (byCode = new Map<string, string>()));
    let text = byCode.get(trait.code);
    if (text === undefined) byCode.set(trait.code, (text = make(trait)));
    return text;
  };
}

const traitText = textPerEngine((trait) => JSON.stringify(traitJson(trait)));

/** The trait as GET /api/traits/?view=compact names it: code, name, connotation, category, featured. */
const briefTraitText = textPerEngine(({ code, name, connotation, category, featured }) =>
  JSON.stringify({ code, name, connotation, category, featured }),
);

/**
 * How a list item names its trait: the whole trait object (the spec's form), or only its
 * code (view=compact: the client holds the trait list already).
 */
export type ListView = 'full' | 'compact';

/** GET /api/traits/'s body: each entry's trait (whole, or brief for view=compact) and pricing. */
export function clientTraitListText(
  engine: ScienceEngine,
  entries: readonly ClientTraitEntry[],
  view: ListView,
): string {
  const items = entries.map(
    ({ trait, type }) =>
      `{"trait":${view === 'compact' ? briefTraitText(engine, trait) : traitText(engine, trait)},"type":${JSON.stringify(type)}}`,
  );
  return `[${items.join(',')}]`;
}

function traitField(engine: ScienceEngine, trait: TraitInfo, view: ListView): string {
  return view === 'compact' ? `"trait_code":${JSON.stringify(trait.code)}` : `"trait":${traitText(engine, trait)}`;
}

/** A list item with its status only (and why, when unavailable). */
function statusItem(
  engine: ScienceEngine,
  trait: TraitInfo,
  status: TraitStatus,
  view: ListView,
  reason?: UnavailableReason | string,
): string {
  const why =
    reason === undefined ? '' : `,"status_reason":${typeof reason === 'string' ? reason : JSON.stringify(reason)}`;
  return `{${traitField(engine, trait, view)},"status":"${status}"${why}}`;
}

/**
 * A list item of a computed trait: its status and the stored summary (a JSON object, spliced
 * in), and for the headline of a phenotype group how the group's other results agree.
 */
function computedItem(
  engine: ScienceEngine,
  trait: TraitInfo,
  stored: StoredAssessment,
  view: ListView,
  others?: readonly number[],
): string {
  const fields = stored.json.length > 2 ? `,${stored.json.slice(1, -1)}` : '';
  const agreement =
    others && trait.group.headline && trait.group.size > 1 && stored.percentile !== null
      ? `,"group_agreement":${JSON.stringify(groupAgreement(stored.percentile, others))}`
      : '';
  return `{${traitField(engine, trait, view)},"status":"computed"${fields}${agreement},"computed_at":"${stored.computedAt}"}`;
}

/** A single read: the stored summary with the per-marker details and the distribution recomputed. */
function fullItem(trait: TraitInfo, stored: StoredAssessment, full: Assessment | undefined): ProfileTrait {
  const summary = JSON.parse(stored.json) as Omit<ProfileTrait, 'trait' | 'status'>;
  const item: ProfileTrait = {
    trait: traitJson(trait),
    status: 'computed',
    ...summary,
    computed_at: stored.computedAt,
  };
  return full ? { ...item, match: full.match, distribution: full.distribution, markers: full.markers } : item;
}

/** Whether a stored assessment is `computed` for this client (see the module comment). */
function gets(client: Client, trait: TraitInfo, requested: Set<string>): boolean {
  return client.isApp || requested.has(trait.code) || pricingFor(client, trait) === 'free';
}

// The last few genotypes read, keyed by profile; a new genotype changes its version stamp.
const genotypeCache = new Map<string, StoredGenotype>();
const CACHE_SIZE = 4;

/**
 * Whether the profile has a genotype ready for traits: not while its latest file waits or
 * is processed (the file's stored status says so; the worker sets it in the same
 * transaction that stores the genotype, so the two never disagree).
 */
function isReady(ctx: TraitsContext, profileId: string): boolean {
  const file = getGenotypeFile(ctx.db, profileId);
  if (file && (file.status === 'uploaded' || file.status === 'processing')) return false;
  return genotypeVersion(ctx.db, profileId) !== undefined;
}

/** The profile's genotype when it is ready for traits, or undefined. */
function readyGenotype(ctx: TraitsContext, profileId: string): StoredGenotype | undefined {
  if (!isReady(ctx, profileId)) return undefined;
  const version = genotypeVersion(ctx.db, profileId);
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

/**
 * Whether a profile change changes what its results are scored against (reference
 * population, sex, a chosen mixture): whatever assessContext takes from the profile.
 */
export function scoringInputsDiffer(before: ProfileFacts, after: ProfileFacts): boolean {
  const noGenotype = { ancestry: null, inferredSex: null };
  return JSON.stringify(assessContext(before, noGenotype)) !== JSON.stringify(assessContext(after, noGenotype));
}

/** Drops what is held in memory of a profile whose rows were deleted: its genotype, its lists. */
export function forgetProfile(profileId: string): void {
  genotypeCache.delete(profileId);
  for (const [key, kept] of keptLists) if (kept.profileId === profileId) dropKeptList(key);
}

/**
 * One stored assessment with what is not stored (its per-marker table and distribution),
 * recomputed on read; the stored summary stays what the scoring job saved.
 */
function fullAssessment(
  ctx: TraitsContext,
  genotype: StoredGenotype,
  profile: ProfileFacts,
  code: string,
): Assessment | undefined {
  const outcome = ctx.engine
    .assessMany(genotype.genotype, assessContext(profile, genotypeFacts(genotype)), [code])
    .get(code);
  return outcome?.status === 'computed' ? outcome.assessment : undefined;
}

// Engines get a number, so an ETag changes when imported traits change the engine.
const engineIds = new WeakMap<object, number>();
let nextEngineId = 1;

/**
 * The entity tag of a profile's trait list for a client: it changes whenever the list would,
 * (stored results, requests, genotype, processing state, the client's configuration, the
 * traits known), and is the same otherwise, so an unchanged list answers 304.
 */
export function profileTraitsTag(
  ctx: TraitsContext,
  client: Client,
  profileId: string,
  profile: ProfileFacts,
  scored: boolean,
  view: ListView = 'full',
): string {
  let engineId = engineIds.get(ctx.engine);
  if (engineId === undefined) engineIds.set(ctx.engine, (engineId = nextEngineId++));
  const state = [
    scored,
    view,
    isReady(ctx, profileId),
    genotypeVersion(ctx.db, profileId) ?? null,
    resultsVersion(ctx.db, profileId),
    engineId,
    client.id,
    client.isApp,
    client.freeTraits,
    client.traitCodes,
    // Statuses of traits not scored yet depend on the person (sex, reference).
    profile.ethnicity,
    profile.gender,
    profile.reference_mixture ?? null,
  ];
  return `"${createHash('sha256').update(JSON.stringify(state)).digest('base64url').slice(0, 22)}"`;
}

/**
 * Profile trait lists as the bytes sent, each under its entity tag, which changes whenever
 * the list would (profileTraitsTag): a list read again unchanged (a tool polling without
 * If-None-Match, a second window) is sent from memory instead of rebuilt (the full status
 * list of ~2,000 traits cost ~46 ms of the event loop). Beyond LISTS_KEPT_BYTES the least
 * recently read go first; an erased profile's go at once (forgetProfile).
 */
const keptLists = new Map<string, { profileId: string; body: Buffer }>();
const LISTS_KEPT_BYTES = 16 * 1024 * 1024;
let keptBytes = 0;

function dropKeptList(key: string): void {
  keptBytes -= keptLists.get(key)?.body.length ?? 0;
  keptLists.delete(key);
}

/** GET /profiles/{id}/traits/'s body for the list tagged `tag` (profileTraitsTag of the same arguments). */
export function profileTraitsBody(
  ctx: TraitsContext,
  client: Client,
  profileId: string,
  profile: ProfileFacts,
  scored: boolean,
  view: ListView,
  tag: string,
): Buffer {
  const key = `${profileId}\n${tag}`;
  const kept = keptLists.get(key);
  if (kept) {
    keptLists.delete(key); // to the end: most recently read
    keptLists.set(key, kept);
    return kept.body;
  }
  const body = Buffer.from(listProfileTraits(ctx, client, profileId, profile, scored, view));
  if (body.length > LISTS_KEPT_BYTES) return body;
  keptLists.set(key, { profileId, body });
  keptBytes += body.length;
  for (const oldest of keptLists.keys()) {
    if (keptBytes <= LISTS_KEPT_BYTES) break;
    dropKeptList(oldest);
  }
  return body;
}

/**
 * GET /profiles/{id}/traits/: every client trait with its status, or only computed ones
 * with scores, as the JSON text of the response.
 */
function listProfileTraits(
  ctx: TraitsContext,
  client: Client,
  profileId: string,
  profile: ProfileFacts,
  scored: boolean,
  view: ListView = 'full',
): string {
  if (!isReady(ctx, profileId)) return '[]';
  const { engine } = ctx;
  const traits = clientTraits(client, engine);
  const requested = requestedCodes(ctx.db, profileId);
  const items: string[] = [];
  if (scored) {
    const computed = profileAssessments(ctx.db, profileId);
    const shown = traits.filter(({ trait }) => {
      const stored = computed.get(trait.code);
      return stored !== undefined && stored.revision === trait.revision && gets(client, trait, requested);
    });
    // Percentiles of each phenotype group's other results, for the headline's agreement summary.
    const others = new Map<string, number[]>();
    for (const { trait } of shown) {
      const percentile = computed.get(trait.code)!.percentile;
      if (!trait.group.headline && percentile !== null)
        others.set(trait.group.code, [...(others.get(trait.group.code) ?? []), percentile]);
    }
    for (const { trait } of shown)
      items.push(computedItem(engine, trait, computed.get(trait.code)!, view, others.get(trait.group.code) ?? []));
    return `[${items.join(',')}]`;
  }
  const stored = storedStatuses(ctx.db, profileId);
  let genotype: StoredGenotype | undefined;
  for (const { trait } of traits) {
    // An outcome of an older revision of the trait (an updated catalog) is as good as none.
    const outcome = stored.get(trait.code);
    if (outcome?.revision === trait.revision && outcome.status === 'computed') {
      items.push(statusItem(engine, trait, gets(client, trait, requested) ? 'computed' : 'available', view));
    } else if (outcome?.revision === trait.revision) {
      items.push(statusItem(engine, trait, 'unavailable', view, outcome.reason ?? undefined));
    } else {
      // Not scored yet (the background is on its way): ask the engine.
      genotype ??= readyGenotype(ctx, profileId);
      const why = genotype
        ? engine.unavailableReason(trait.code, genotype.genotype, assessContext(profile, genotypeFacts(genotype)))
        : null;
      items.push(
        why ? statusItem(engine, trait, 'unavailable', view, why) : statusItem(engine, trait, 'available', view),
      );
    }
  }
  return `[${items.join(',')}]`;
}

/**
 * POST /profiles/{id}/traits/: computes the requested traits that are `available` and
 * returns every requested trait that is computed afterwards. Results the background already
 * stored are taken as they are; only traits it has not reached are scored now, in the pool.
 * Unknown and unavailable codes are left out.
 */
export async function computeProfileTraits(
  ctx: TraitsContext,
  client: Client,
  profileId: string,
  codes: string[],
  view: ListView = 'full',
): Promise<string> {
  if (!isReady(ctx, profileId)) return '[]';
  const engine = ctx.engine;
  const wanted = [...new Set(codes)].filter((code) => clientHasTrait(client, engine, code));
  const stored = outcomeRevisions(ctx.db, profileId);
  const missing = wanted.filter((code) => stored.get(code) !== engine.trait(code)!.revision);
  if (missing.length > 0) await ctx.scoreMissing(profileId, missing);
  const computed = profileAssessments(ctx.db, profileId);
  const answered = wanted.filter((code) => computed.get(code)?.revision === engine.trait(code)!.revision);
  markRequested(
    ctx.db,
    profileId,
    answered.filter((code) => pricingFor(client, engine.trait(code)!) !== 'free'),
  );
  return `[${answered.map((code) => computedItem(engine, engine.trait(code)!, computed.get(code)!, view)).join(',')}]`;
}

/** GET /profiles/{id}/traits/{code}/: the full assessment when computed for this client, else trait and status. */
export function getProfileTrait(
  ctx: TraitsContext,
  client: Client,
  profileId: string,
  profile: ProfileFacts,
  code: string,
): ProfileTrait {
  const trait = requireClientTrait(ctx, client, code);
  const genotype = readyGenotype(ctx, profileId);
  if (!genotype) return { trait: traitJson(trait), status: 'unavailable' };
  const stored = getAssessment(ctx.db, profileId, code);
  if (stored && stored.revision === trait.revision) {
    if (!gets(client, trait, requestedCodes(ctx.db, profileId)))
      return { trait: traitJson(trait), status: 'available' };
    return fullItem(trait, stored, fullAssessment(ctx, genotype, profile, code));
  }
  const unavailable = getUnavailable(ctx.db, profileId, code);
  if (unavailable?.revision === trait.revision)
    return { trait: traitJson(trait), status: 'unavailable', status_reason: unavailable.reason };
  const why = ctx.engine.unavailableReason(code, genotype.genotype, assessContext(profile, genotypeFacts(genotype)));
  return why
    ? { trait: traitJson(trait), status: 'unavailable', status_reason: why }
    : { trait: traitJson(trait), status: 'available' };
}

/**
 * PUT /profiles/{id}/traits/{code}/: the full assessment, computed now if the background has
 * not stored it yet. Scoring and saving go through the pool's scoring job, as for POST, so a
 * trait asked for alone is stored exactly as the background would have stored it.
 */
export async function computeProfileTrait(
  ctx: TraitsContext,
  client: Client,
  profileId: string,
  profile: ProfileFacts,
  code: string,
): Promise<ProfileTrait> {
  const trait = requireClientTrait(ctx, client, code);
  requireReadyGenotype(ctx, profileId);
  if (outcomeRevisions(ctx.db, profileId).get(code) !== trait.revision) await ctx.scoreMissing(profileId, [code]);
  // The genotype may have been replaced while the trait was scored: that one is read then.
  const genotype = requireReadyGenotype(ctx, profileId);
  const stored = getAssessment(ctx.db, profileId, code);
  if (stored?.revision !== trait.revision) {
    const unavailable = getUnavailable(ctx.db, profileId, code);
    const why =
      unavailable?.revision === trait.revision
        ? unavailable.reason.detail
        : 'The genotype changed while it was being scored; ask again.';
    throw new TraitConflictError(`"${trait.name}" cannot be computed for this profile. ${why}`);
  }
  if (pricingFor(client, trait) !== 'free') markRequested(ctx.db, profileId, [code]);
  return fullItem(trait, stored, fullAssessment(ctx, genotype, profile, code));
}

/** The profile's genotype, ready for traits, or a conflict that says why there is none. */
function requireReadyGenotype(ctx: TraitsContext, profileId: string): StoredGenotype {
  const genotype = readyGenotype(ctx, profileId);
  if (genotype) return genotype;
  const status = getGenotypeFile(ctx.db, profileId)?.status;
  throw new TraitConflictError(
    status === 'uploaded' || status === 'processing'
      ? 'The genotype file of this profile is still being processed. Try again when processing has finished (POST .../genotype/upload/ waits for it).'
      : status === 'failed'
        ? 'The genotype file of this profile could not be read (see GET .../genotype/ for why). Upload a raw-data file it can read.'
        : 'This profile has no genotype yet. Upload a raw-data file first (GET .../genotype/upload/ gives the upload URL).',
  );
}

function requireClientTrait(ctx: TraitsContext, client: Client, code: string): TraitInfo {
  if (!clientHasTrait(client, ctx.engine, code)) {
    throw new UnknownTraitError(
      `There is no trait "${code}" for this client. GET /api/traits/ lists the trait codes you can use.`,
    );
  }
  return ctx.engine.trait(code)!;
}
