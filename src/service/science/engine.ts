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
import type { Genotype } from '../genotype/types.js';
import { ALLELE_LETTERS } from '../genotype/encoding.js';
import { callsAtSlots, compileCatalog, N_POPS, type CompiledCatalog, type CompiledTrait } from './catalog.js';
import { setMarker, STRIDE } from './distribution/markers.js';
import { builtDistributions, type BuiltDistribution, type BuiltDistributions } from './built-distributions.js';
import { RUNTIME, scoreDistribution, type ScoreDistribution } from './distribution/reference.js';
import { tableCdf, type CdfTable } from './distribution/table.js';
import type { TraitTables } from './distribution/table-file.js';
import { COVERAGE_FOR_FULL_EVIDENCE, resultEvidence } from './evidence.js';
import { POPULATION_ORDER, type CatalogTrait } from './format.js';
import { LEVEL_LABELS, LEVEL_UPPER_BOUNDS, levelForPercentile } from './levels.js';
import { matchDosage } from './match.js';
import { resultMeaning, type ScoreReference } from './meaning/index.js';
import { chooseReference } from './reference-population.js';
import { CALL_TEXT, countMatches, markerScratch, matchTraitMarkers, RARE_CALL_FREQUENCY } from './trait-markers.js';
import type {
  AncestryInference,
  Assessment,
  AssessContext,
  AssessedMarker,
  Population,
  ReferencePopulation,
  ScienceEngine,
  SexInfo,
  TraitInfo,
  TraitOutcome,
  UnavailableReason,
  AssessOptions,
  RareCall,
  RareCallMarker,
} from './types.js';

/**
 * A trait is computed when at least this share of its markers is genotyped with matching
 * alleles (and at least one is), as the PGS Catalog Calculator (pgsc_calc) requires by
 * default. Missing markers enter the score at their expected contribution, so they do not
 * move the percentile, but a score missing a quarter of its markers is another score.
 */
export const COVERAGE_THRESHOLD = 0.75;
/** Percentiles beyond these are reported as beyond the scale's ends. */
const PERCENTILE_FLOOR = 0.1;
const PERCENTILE_CEILING = 99.9;

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

export function percentileText(percentile: number): { text: string; bound: Assessment['percentile_bound'] } {
  if (percentile > PERCENTILE_CEILING)
    return {
      text: 'beyond the 99.9th percentile: higher than at least 999 of 1,000 people in the reference',
      bound: 'above_99.9',
    };
  if (percentile < PERCENTILE_FLOOR)
    return {
      text: 'below the 0.1st percentile: lower than at least 999 of 1,000 people in the reference',
      bound: 'below_0.1',
    };
  // Between the 99.5th and 99.9th (or 0.1st and 0.5th) rounding would say "100 of 100" ("0 of 100"):
  // the words stay within 1–99 like the UI's figure.
  const p = Math.min(99, Math.max(1, Math.round(percentile)));
  const ord = (n: number) => (n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'));
  return { text: `${p}${ord(p)} percentile: higher than about ${p} of 100 people in the reference`, bound: null };
}

export interface EngineOptions {
  /** Ancestry estimate of a genotype (docs/ancestry.md). */
  inferAncestry: (g: Genotype) => AncestryInference;
  /** Precomputed distribution tables by trait code (distribution/table-file.ts). */
  tables: TraitTables;
}

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

  function lowCoverage(t: CompiledTrait, observed: number): UnavailableReason {
    return {
      code: 'low_coverage',
      detail: `Only ${observed} of this score's ${t.count} markers (${Math.round((100 * observed) / t.count)} %) could be read from your file; at least ${Math.round(100 * COVERAGE_THRESHOLD)} % are needed for a result.`,
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
    const { w, key: weightsKey } = referenceWeights(ref);
    const hemizygousX = sex.dna === 'male';
    const {
      score,
      observedScore,
      constant,
      referenceMean,
      observed: n,
      imputed,
      excluded,
      flipped,
      rareCount,
      markers,
      snps,
    } = matchTraitMarkers(cat, t, slots, w, hemizygousX, details, scratch);
    const { pts, leftOut, rareAt } = scratch;
    const coverage = t.count ? n / t.count : 0;
    if (!computable({ observed: n, coverage })) return { status: 'unavailable', reason: lowCoverage(t, n) };
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
    const table = n === t.count ? tableFor(t, ref, hemizygousX) : null;
    let cdf: number;
    let built: BuiltDistribution | null = null;
    if (table) cdf = tableCdf(table, score);
    else {
      const key = `${t.info.code}\n${t.info.revision}\n${weightsKey}\n${hemizygousX ? 'XY' : ''}`;
      // One population (not MIXED, as reference-population.ts decides it) and nothing left out.
      const shared = n === t.count && ref.population !== 'MIXED';
      built = builtFor(cat).get(
        key,
        leftOut,
        t.count - n,
        () => {
          const dist = scoreDistribution(pts, n, constant, RUNTIME);
          return { dist, levels: reachableLevels(dist) };
        },
        shared,
      );
      cdf = built.dist.cdf(score);
    }
    const percentile = 100 * cdf;
    const level = levelForPercentile(percentile);
    const { text, bound } = percentileText(percentile);
    const traitEvidence = t.info.evidence;
    const label = resultEvidence(traitEvidence.label, coverage);
    const reasons = [...traitEvidence.reasons];
    if (label !== traitEvidence.label)
      reasons.unshift(
        `${Math.round(100 * coverage)} % of the markers were genotyped (${Math.round(100 * COVERAGE_FOR_FULL_EVIDENCE)} % are needed to keep the trait's label)`,
      );
    const rareCall =
      rareCount > 0
        ? rareCallOf(cat, t, slots, w, rareAt.subarray(0, rareCount), score, level, ref, (s) =>
            table ? tableCdf(table, s) : built!.dist.cdf(s),
          )
        : null;
    if (rareCall) reasons.unshift(rareCall.text);
    const assessment: Assessment = {
      assessment_level: level,
      level_label: LEVEL_LABELS[level - 1],
      percentile,
      percentile_text: text,
      percentile_bound: bound,
      reachable_levels: table ? tableSummary(table).levels : built!.levels,
      recommendations: t.recommendations[level - 1],
      snps,
      coverage,
      population: ref.population,
      population_source: ref.source,
      reference: ref,
      evidence: {
        label,
        trait_label: traitEvidence.label,
        coverage,
        markers_used: n,
        markers_total: t.count,
        genome_wide_markers: traitEvidence.genome_wide_markers,
        top_marker_share: traitEvidence.top_marker_share,
        variance_explained: traitEvidence.variance_explained,
        reasons,
      },
      score,
      distribution: table
        ? details
          ? tableDistribution(table, true)
          : tableSummary(table).distribution
        : computedDistribution(built!.dist, details),
      markers,
      quality: t.info.quality,
      revision: t.info.revision,
      match: { markers: t.count, observed: n, imputed, excluded, strand_flipped: flipped },
      rare_call: rareCall,
      meaning: resultMeaning({
        trait: t,
        score,
        reference: {
          ...(table
            ? { ...tableSummary(table).distribution!, cdf: (x: number) => tableCdf(table, x), key: table }
            : referenceOf(built!.dist)),
          mean: referenceMean,
        },
        ref,
        sex,
      }),
    };
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
      return computable(c) ? null : lowCoverage(hit.trait, c.observed);
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

/**
 * An imported score without enough reference frequencies: the raw score over the genotyped
 * variants (missing ones add nothing, their expected value being unknown) and the match
 * rate; no percentile, level or reference distribution, and the text says why.
 */
function rawScoreAssessment(
  t: CompiledTrait,
  score: number,
  markers: AssessedMarker[],
  snps: string[],
  coverage: number,
  ref: ReferencePopulation,
  match: Assessment['match'],
  meaning: Assessment['meaning'],
): Assessment {
  for (const m of markers) if (m.use !== 'observed') m.dosage = 0;
  return {
    assessment_level: null,
    level_label: 'No percentile',
    percentile: null,
    percentile_text: `No percentile: ${t.rawScoreOnly}`,
    percentile_bound: null,
    reachable_levels: [],
    recommendations: `This imported score can only be shown as a raw number (${snps.length} of its ${t.count} variants found in your file). ${t.rawScoreOnly}`,
    snps,
    coverage,
    population: ref.population,
    population_source: ref.source,
    reference: ref,
    evidence: {
      label: 'limited',
      trait_label: t.info.evidence.label,
      coverage,
      markers_used: match.observed,
      markers_total: t.count,
      genome_wide_markers: null,
      top_marker_share: t.info.evidence.top_marker_share,
      variance_explained: null,
      reasons: ['imported score without reference frequencies: no percentile', ...t.info.evidence.reasons],
    },
    score,
    distribution: null,
    markers,
    quality: t.info.quality,
    revision: t.info.revision,
    match,
    rare_call: null,
    meaning,
  };
}

/** "0.3 %", "0.04 %": a small frequency in words. */
function frequencyText(f: number): string {
  return `${f >= 0.001 ? (100 * f).toFixed(1) : (100 * f).toPrecision(1)} %`;
}

/**
 * Whether the person's rare calls decide the level (docs/science.md, "Rare calls"): the
 * score with each rare call read as the common homozygous genotype, alone and all together,
 * placed in the same reference distribution. Null when the level stays the same.
 */
function rareCallOf(
  cat: CompiledCatalog,
  t: CompiledTrait,
  slots: Uint8Array,
  w: number[],
  rare: Int32Array,
  score: number,
  level: number,
  ref: ReferencePopulation,
  cdf: (score: number) => number,
): RareCall | null {
  const markers: RareCallMarker[] = [];
  let allCommon = score;
  for (const k of rare) {
    const i = t.start + k;
    let p = 0;
    for (let q = 0; q < N_POPS; q++) p += w[q] * cat.freq[i * N_POPS + q];
    const call = slots[cat.markerSlot[i]];
    const dosage = matchDosage(call, cat.effect[i], cat.other[i]) & 3;
    const effectRare = p < RARE_CALL_FREQUENCY && dosage > 0;
    // The common homozygote: no copy of a rare effect allele, two copies of a common one.
    const common = effectRare ? 0 : 2;
    const shift = cat.contrib[3 * i + common] - cat.contrib[3 * i + dosage];
    allCommon += shift;
    markers.push({
      rsid: `rs${cat.rsid[i]}`,
      genotype: CALL_TEXT[call],
      allele: ALLELE_LETTERS[effectRare ? cat.effect[i] : cat.other[i]],
      frequency: effectRare ? p : 1 - p,
      level_without: levelForPercentile(100 * cdf(score + shift)),
    });
  }
  const percentileWithout = 100 * cdf(allCommon);
  const levelWithout = levelForPercentile(percentileWithout);
  if (levelWithout === level && markers.every((m) => m.level_without === level)) return null;
  markers.sort((a, b) => a.frequency - b.frequency);
  const deciding = markers.filter((m) => m.level_without !== level);
  const first = deciding[0] ?? markers[0];
  const calls = (deciding.length ? deciding : markers)
    .map((m) => `${m.rsid} ${m.genotype} (allele ${m.allele}, ${frequencyText(m.frequency)} of chromosomes)`)
    .join(', ');
  const one = deciding.length === 1;
  const text = `This result rests on ${one ? 'one rare call' : 'rare calls'}: ${calls} in the ${ref.label} reference. Without ${one ? 'it' : 'them'} the result would be level ${one ? first.level_without : levelWithout} (${LEVEL_LABELS[(one ? first.level_without : levelWithout) - 1].toLowerCase()}) instead of level ${level}. Chip calls of variants this rare are often wrong (positive predictive value 16 % below a frequency of 0.001 % in UK Biobank, Weedon et al. 2021, PMID 33589468): have ${one ? 'this variant' : 'these variants'} confirmed by a clinical laboratory before drawing any conclusion.`;
  return {
    rsid: first.rsid,
    frequency: first.frequency,
    markers,
    level_without: levelWithout,
    percentile_without: percentileWithout,
    text,
  };
}

/** Levels some genotype can reach: all five for a smooth distribution, those of its atoms' mid-ranks otherwise. */
function reachableLevels(d: ScoreDistribution): number[] {
  const atoms = d.atoms();
  if (d.method !== 'exact') return [1, 2, 3, 4, 5];
  const levels = new Set<number>();
  let below = 0;
  for (let i = 0; i < atoms.values.length; i++) {
    levels.add(levelForPercentile(100 * (below + atoms.probs[i] / 2)));
    below += atoms.probs[i];
  }
  return [...levels].sort();
}

/**
 * What every person scored against a table shares: its reachable levels and its summary
 * without the plot, worked out once per table (results are stored, never mutated).
 */
const tableSummaries = new WeakMap<CdfTable, { levels: number[]; distribution: Assessment['distribution'] }>();
function tableSummary(t: CdfTable): { levels: number[]; distribution: Assessment['distribution'] } {
  let s = tableSummaries.get(t);
  if (!s) {
    s = { levels: tableLevels(t), distribution: tableDistribution(t, false) };
    tableSummaries.set(t, s);
  }
  return s;
}

/** Levels a table can reach: those of its atoms, and those its knots' segments pass through. */
function tableLevels(t: CdfTable): number[] {
  const levels = new Set<number>();
  for (const x of t.atomXs) levels.add(levelForPercentile(100 * tableCdf(t, x)));
  const bounds = [0, ...LEVEL_UPPER_BOUNDS, 100];
  for (let k = 0; k < t.xs.length; k++) {
    const here = 100 * tableCdf(t, t.xs[k]);
    const before = k > 0 ? 100 * tableCdf(t, t.xs[k - 1]) : here;
    for (let level = 1; level <= 5; level++)
      if (bounds[level] > Math.min(before, here) && bounds[level - 1] <= Math.max(before, here)) levels.add(level);
  }
  return [...levels].sort();
}

/** A built distribution as the meaning's model reads it. */
function referenceOf(d: ScoreDistribution): ScoreReference & { key: object } {
  return { mean: d.mean, sd: d.sd, min: d.min, max: d.max, cdf: (x) => d.cdf(x), key: d };
}

function computedDistribution(d: ScoreDistribution, details: boolean): Assessment['distribution'] {
  return {
    mean: d.mean,
    sd: d.sd,
    min: d.min,
    max: d.max,
    method: d.method,
    source: 'computed',
    density: details ? d.density() : [],
  };
}

/** Summary and plot density of a table: the CDF's slope between knots, gathered into 101 points. */
function tableDistribution(t: CdfTable, details: boolean): Assessment['distribution'] {
  // Moments from the CDF: mass between knots at their midpoint, atoms at their score.
  const n = t.xs.length;
  let mean = 0;
  let m2 = 0;
  for (let k = 1; k < n; k++) {
    const p = t.fs[k] - t.fs[k - 1];
    const x = (t.xs[k] + t.xs[k - 1]) / 2;
    mean += p * x;
    m2 += p * x * x;
  }
  t.atomXs.forEach((x, k) => {
    mean += t.atomPs[k] * x;
    m2 += t.atomPs[k] * x * x;
  });
  const sd = Math.sqrt(Math.max(0, m2 - mean * mean));
  const lowest = Math.min(n ? t.xs[0] : Infinity, t.atomXs.length ? t.atomXs[0] : Infinity);
  const highest = Math.max(n ? t.xs[n - 1] : -Infinity, t.atomXs.length ? t.atomXs[t.atomXs.length - 1] : -Infinity);
  const a = Math.max(lowest, mean - 4 * sd);
  const b = Math.min(highest, mean + 4 * sd);
  const points = 101;
  const dx = (b - a) / (points - 1) || 1;
  const density: Array<[number, number]> = [];
  for (let i = 0; details && i < points; i++) {
    const x = a + i * dx;
    const lo = tableCdf(t, x - dx / 2);
    const hi = tableCdf(t, x + dx / 2);
    density.push([x, (hi - lo) / dx]);
  }
  return { mean, sd, min: lowest, max: highest, method: 'grid', source: 'table', density };
}
