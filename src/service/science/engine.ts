/**
 * The science engine: scores a genotype on the compiled catalog, places each score in its
 * reference population and turns it into an assessment (docs/science.md).
 *
 * One pass per genotype: the genotype's calls at the catalog's distinct rsIDs are found once
 * (a merge join of two sorted lists), then every trait is a loop over its slice of the flat
 * marker arrays. The percentile comes from the shipped table when the person is compared
 * with one super-population and every marker was genotyped; otherwise (partial coverage, a
 * mixed reference) the reference distribution is built for the person (distribution/).
 */
import { fileLimitsText, type FileLimits } from '../../shared/file-limits.js';
import type { Genotype } from '../genotype/types.js';
import { callsAtSlots, compileCatalog, N_POPS, type CompiledCatalog, type CompiledTrait } from './catalog.js';
import { setMarker, STRIDE } from './distribution/markers.js';
import { builtDistributions, type BuiltDistribution, type BuiltDistributions } from './built-distributions.js';
import { RUNTIME, scoreDistribution } from './distribution/reference.js';
import { tableCdf, type CdfTable } from './distribution/table.js';
import type { TraitTables } from './distribution/table-file.js';
import { POPULATION_ORDER, type CatalogTrait } from './format.js';
import { resultMeaning } from './meaning/index.js';
import { computedAssessment, percentileText, rawScoreAssessment, reachableLevels } from './assessment.js';
import { chooseReference } from './reference-population.js';
import { countMatches, markerScratch, matchTraitMarkers, type MarkerMatch } from './trait-markers.js';
import type {
  AncestryInference,
  Assessment,
  AssessContext,
  Population,
  ReferencePopulation,
  ScienceEngine,
  SexInfo,
  TraitInfo,
  TraitOutcome,
  UnavailableReason,
  AssessOptions,
} from './types.js';

/**
 * A trait is computed when at least this share of its markers is genotyped with matching
 * alleles (and at least one is), as the PGS Catalog Calculator (pgsc_calc) requires by
 * default. Missing markers enter the score at their expected contribution, so they do not
 * move the percentile, but a score missing a quarter of its markers is another score.
 */
export const COVERAGE_THRESHOLD = 0.75;
export interface ScienceEngineExt extends ScienceEngine {
  /** An engine that also knows the given custom traits (same definition format as the catalog). */
  withCustomTraits: (defs: readonly CatalogTrait[]) => ScienceEngineExt;
  /** Assess one custom trait definition without adding it to an engine. */
  assessCustom: (def: CatalogTrait, genotype: Genotype, context: AssessContext) => Assessment | null;
  /** Match statistics without computing the assessment. */
  coverage: (
    code: string,
    genotype: Genotype,
  ) => { markers: number; observed: number; excluded: number; coverage: number } | null;
  /**
   * The mid-rank CDF (0..1) the engine uses for a fully genotyped person compared with one
   * super-population (XY: X-chromosome markers hemizygous): the shipped table when there is
   * one for this revision, else the distribution built at scoring time. For tests and benchmarks.
   */
  /** A population, or a mixture of them (shares by population, adding up to 1). */
  fullCoverageCdf: (
    code: string,
    population: Population | Record<Population, number>,
    xy?: boolean,
  ) => { cdf: (score: number) => number; source: 'table' | 'computed' } | null;
}

/** The sex scoring uses: the person's own answer, else what the DNA says; a disagreement is pointed out. */
export function sexOf(ctx: Pick<AssessContext, 'gender' | 'inferredSex'>): SexInfo {
  const declared = ctx.gender === 1 ? 'male' : ctx.gender === 2 ? 'female' : null;
  const dna = ctx.inferredSex;
  return {
    value: declared ?? dna,
    source: declared ? 'profile' : dna ? 'dna' : null,
    dna,
    mismatch: declared !== null && dna !== null && declared !== dna,
  };
}

export interface EngineOptions {
  /** Ancestry estimate of a genotype (docs/ancestry.md). */
  inferAncestry: (g: Genotype) => AncestryInference;
  /** Precomputed distribution tables by trait code (distribution/table-file.ts). */
  tables: TraitTables;
}

export { percentileText };

export function makeEngine(catalogs: CompiledCatalog[], options: EngineOptions): ScienceEngineExt {
  const byCode = new Map<string, { cat: CompiledCatalog; trait: CompiledTrait }>();
  const infos: TraitInfo[] = [];
  for (const cat of catalogs) {
    for (const trait of cat.traits) {
      if (byCode.has(trait.info.code)) throw new Error(`Trait code ${trait.info.code} is defined twice`);
      byCode.set(trait.info.code, { cat, trait });
      infos.push(trait.info);
    }
  }
  // Per-genotype caches: calls at each catalog's distinct rsIDs, and the ancestry estimate.
  const slotCache = new WeakMap<Genotype, Map<CompiledCatalog, Uint8Array>>();
  const ancestryCache = new WeakMap<Genotype, AncestryInference>();
  const scratch = markerScratch();
  // Per compiled catalog: a previewed custom trait (assessCustom) may reuse a code.
  const builtByCatalog = new WeakMap<CompiledCatalog, BuiltDistributions>();
  function builtFor(cat: CompiledCatalog): BuiltDistributions {
    let b = builtByCatalog.get(cat);
    if (!b) builtByCatalog.set(cat, (b = builtDistributions()));
    return b;
  }

  function slotsFor(cat: CompiledCatalog, g: Genotype): Uint8Array {
    let m = slotCache.get(g);
    if (!m) slotCache.set(g, (m = new Map<CompiledCatalog, Uint8Array>()));
    let s = m.get(cat);
    if (!s) m.set(cat, (s = callsAtSlots(cat.uniqueRsids, g.rsids, g.calls)));
    return s;
  }

  function inferAncestry(g: Genotype): AncestryInference {
    let a = ancestryCache.get(g);
    if (!a) ancestryCache.set(g, (a = options.inferAncestry(g)));
    return a;
  }

  function reference(g: Genotype, ctx: AssessContext): ReferencePopulation {
    const needsEstimate = !(ctx.ethnicity >= 1 && ctx.ethnicity <= 5) && !ctx.mixture;
    return chooseReference(ctx, ctx.ancestry ?? (needsEstimate ? inferAncestry(g) : null));
  }

  function coverageOf(cat: CompiledCatalog, t: CompiledTrait, g: Genotype) {
    return countMatches(cat, t, slotsFor(cat, g));
  }

  const computable = (c: { observed: number; coverage: number }) => c.observed >= 1 && c.coverage >= COVERAGE_THRESHOLD;

  /** The table for a fully genotyped person compared with one super-population, if shipped for this revision. */
  function tableFor(t: CompiledTrait, ref: ReferencePopulation, hemizygousX: boolean): CdfTable | null {
    if (ref.population === 'MIXED') return null;
    const entry = options.tables.get(t.info.code);
    if (!entry || entry.revision !== t.info.revision) return null;
    return entry.tables.get(hemizygousX && t.x.length ? `${ref.population}:XY` : ref.population) ?? null;
  }

  function notApplicable(t: CompiledTrait, sex: SexInfo): UnavailableReason | null {
    if (!t.info.sex || !sex.value || t.info.sex === sex.value) return null;
    return {
      code: 'not_applicable',
      detail: `${t.info.sex_reason ?? `Applies to ${t.info.sex}s only.`} This profile is ${sex.value} (${sex.source === 'profile' ? 'as given in the profile' : 'as the DNA file shows'}).`,
    };
  }

  function lowCoverage(t: CompiledTrait, observed: number, limits: FileLimits | null | undefined): UnavailableReason {
    return {
      code: 'low_coverage',
      detail:
        `Only ${observed} of this score's ${t.count} markers (${Math.round((100 * observed) / t.count)} %) could be read from your file; at least ${Math.round(100 * COVERAGE_THRESHOLD)} % are needed for a result.` +
        (limits ? ' ' + fileLimitsText(limits) : ''),
    };
  }

  /** The reference's weights in population order, and as a memo key: the same for every trait of a call. */
  const weightsOf = new WeakMap<ReferencePopulation, { w: number[]; key: string }>();
  function referenceWeights(ref: ReferencePopulation): { w: number[]; key: string } {
    let known = weightsOf.get(ref);
    if (!known) {
      const w = POPULATION_ORDER.map((p) => ref.weights[p]);
      known = { w, key: w.join(',') };
      weightsOf.set(ref, known);
    }
    return known;
  }

  /**
   * The score's reference distribution: the shipped table for a fully genotyped person
   * compared with one super-population, else the distribution built for the markers read
   * (memoized per trait, reference and left-out set).
   */
  function scoreReference(
    cat: CompiledCatalog,
    t: CompiledTrait,
    ref: ReferencePopulation,
    hemizygousX: boolean,
    weightsKey: string,
    match: MarkerMatch,
  ): { table: CdfTable | null; built: BuiltDistribution | null } {
    const n = match.observed;
    const table = n === t.count ? tableFor(t, ref, hemizygousX) : null;
    if (table) return { table, built: null };
    const key = `${t.info.code}\n${t.info.revision}\n${weightsKey}\n${hemizygousX ? 'XY' : ''}`;
    // One population (not MIXED, as reference-population.ts decides it) and nothing left out.
    const shared = n === t.count && ref.population !== 'MIXED';
    const built = builtFor(cat).get(
      key,
      scratch.leftOut,
      t.count - n,
      () => {
        const dist = scoreDistribution(scratch.pts, n, match.constant, RUNTIME);
        return { dist, levels: reachableLevels(dist) };
      },
      shared,
    );
    return { table: null, built };
  }

  function assessTrait(
    cat: CompiledCatalog,
    t: CompiledTrait,
    g: Genotype,
    ctx: AssessContext,
    ref: ReferencePopulation,
    sex: SexInfo,
    details = true,
  ): TraitOutcome {
    const na = notApplicable(t, sex);
    if (na) return { status: 'unavailable', reason: na };
    const slots = slotsFor(cat, g);
    // Counted first: most traits of a chip file miss most of their markers, and their outcome
    // (the count alone) needs none of the match's per-marker reference terms.
    const counted = countMatches(cat, t, slots);
    if (!computable(counted))
      return { status: 'unavailable', reason: lowCoverage(t, counted.observed, ctx.fileLimits) };
    const { w, key: weightsKey } = referenceWeights(ref);
    const hemizygousX = sex.dna === 'male';
    const match = matchTraitMarkers(cat, t, slots, w, hemizygousX, details, scratch);
    const { observedScore, observed: n, imputed, excluded, flipped, markers, snps } = match;
    const coverage = t.count ? n / t.count : 0;
    if (t.rawScoreOnly)
      return {
        status: 'computed',
        assessment: rawScoreAssessment(
          t,
          observedScore,
          markers,
          snps,
          coverage,
          ref,
          { markers: t.count, observed: n, imputed, excluded, strand_flipped: flipped },
          resultMeaning({ trait: t, score: observedScore, reference: null, ref, sex }),
        ),
      };
    const { table, built } = scoreReference(cat, t, ref, hemizygousX, weightsKey, match);
    const assessment = computedAssessment({
      cat,
      t,
      slots,
      w,
      match,
      rareAt: scratch.rareAt,
      coverage,
      table,
      built,
      ref,
      sex,
      details,
    });
    return { status: 'computed', assessment };
  }

  function assessMany(
    g: Genotype,
    ctx: AssessContext,
    codes?: Iterable<string>,
    options: AssessOptions = {},
  ): Map<string, TraitOutcome> {
    const ref = reference(g, ctx);
    const sex = sexOf(ctx);
    const details = options.details !== false;
    const out = new Map<string, TraitOutcome>();
    for (const code of codes ?? byCode.keys()) {
      const hit = byCode.get(code);
      if (hit) out.set(code, assessTrait(hit.cat, hit.trait, g, ctx, ref, sex, details));
    }
    return out;
  }

  const engine: ScienceEngineExt = {
    traits: infos,
    trait: (code) => byCode.get(code)?.trait.info,
    isComputable(code, genotype) {
      const hit = byCode.get(code);
      return hit ? computable(coverageOf(hit.cat, hit.trait, genotype)) : false;
    },
    unavailableReason(code, genotype, context) {
      const hit = byCode.get(code);
      if (!hit) return null;
      const na = notApplicable(hit.trait, sexOf(context));
      if (na) return na;
      const c = coverageOf(hit.cat, hit.trait, genotype);
      return computable(c) ? null : lowCoverage(hit.trait, c.observed, context.fileLimits);
    },
    coverage(code, genotype) {
      const hit = byCode.get(code);
      return hit ? coverageOf(hit.cat, hit.trait, genotype) : null;
    },
    assess(code, genotype, context) {
      const outcome = assessMany(genotype, context, [code]).get(code);
      return outcome?.status === 'computed' ? outcome.assessment : null;
    },
    inferAncestry,
    reference,
    sex: sexOf,
    assessMany,
    fullCoverageCdf(code, population, xy = false) {
      const hit = byCode.get(code);
      if (!hit) return null;
      const { cat, trait: t } = hit;
      const weights =
        typeof population === 'string'
          ? (Object.fromEntries(POPULATION_ORDER.map((p) => [p, p === population ? 1 : 0])) as Record<
              Population,
              number
            >)
          : population;
      const single = typeof population === 'string' ? population : null;
      const table = single ? tableFor(t, { population: single, weights } as ReferencePopulation, xy) : null;
      if (table) return { cdf: (s) => tableCdf(table, s), source: 'table' };
      const local = new Float64Array(STRIDE * t.count);
      let xAt = 0;
      for (let k = 0; k < t.count; k++) {
        const i = t.start + k;
        const hemi = xy && xAt < t.x.length && t.x[xAt] === k;
        if (hemi) xAt++;
        let f = 0;
        POPULATION_ORDER.forEach((p, j) => (f += weights[p] * cat.freq[i * N_POPS + j]));
        setMarker(local, k, cat.contrib[3 * i], cat.contrib[3 * i + 1], cat.contrib[3 * i + 2], f, hemi);
      }
      const d = scoreDistribution(local, t.count, 0, RUNTIME);
      return { cdf: (s) => d.cdf(s), source: 'computed' };
    },
    withCustomTraits(defs) {
      return makeEngine([...catalogs, compileCatalog(defs)], options);
    },
    assessCustom(def, genotype, context) {
      const cat = compileCatalog([def]);
      const outcome = assessTrait(cat, cat.traits[0], genotype, context, reference(genotype, context), sexOf(context));
      return outcome.status === 'computed' ? outcome.assessment : null;
    },
  };
  return engine;
}
