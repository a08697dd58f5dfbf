/**
 * The last stage of assessing a trait: the assessment object. From the matched markers
 * (trait-markers.ts) and the score's reference distribution (a shipped table or one built
 * for the person), it gives the percentile and level, the evidence label and its reasons,
 * the rare-call check, the distribution summary and the meaning in absolute terms; and the
 * raw-score path for an imported score without reference frequencies.
 */
import { ALLELE_LETTERS } from '../genotype/encoding.js';
import type { BuiltDistribution } from './built-distributions.js';
import { N_POPS, type CompiledCatalog, type CompiledTrait } from './catalog.js';
import type { ScoreDistribution } from './distribution/reference.js';
import { tableCdf, type CdfTable } from './distribution/table.js';
import { COVERAGE_FOR_FULL_EVIDENCE, resultEvidence } from './evidence.js';
import { LEVEL_LABELS, LEVEL_UPPER_BOUNDS, levelForPercentile } from './levels.js';
import { matchDosage } from './match.js';
import { resultMeaning, type ScoreReference } from './meaning/index.js';
import { CALL_TEXT, RARE_CALL_FREQUENCY, type MarkerMatch } from './trait-markers.js';
import type { AssessedMarker, Assessment, RareCall, RareCallMarker, ReferencePopulation, SexInfo } from './types.js';

/** Percentiles beyond these are reported as beyond the scale's ends. */
const PERCENTILE_FLOOR = 0.1;
const PERCENTILE_CEILING = 99.9;

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
  return PERCENTILE_TEXTS[Math.min(99, Math.max(1, Math.round(percentile)))];
}

/** The 99 sentences of whole percentiles, made once (every result needs one). */
const PERCENTILE_TEXTS = Array.from({ length: 100 }, (_, p) => {
  const ord = p % 100 >= 11 && p % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][p % 10] ?? 'th');
  return { text: `${p}${ord} percentile: higher than about ${p} of 100 people in the reference`, bound: null };
});

/** What the assessment of a computed (not raw-score) trait is made from. */
export interface AssessmentInput {
  cat: CompiledCatalog;
  t: CompiledTrait;
  /** The person's calls at the catalog's distinct rsIDs. */
  slots: Uint8Array;
  /** The reference's weights in population order. */
  w: readonly number[];
  match: MarkerMatch;
  /** Indices of the rare calls, the first match.rareCount entries. */
  rareAt: Int32Array;
  coverage: number;
  /** The score's reference distribution: the shipped table, else the one built. */
  table: CdfTable | null;
  built: BuiltDistribution | null;
  ref: ReferencePopulation;
  sex: SexInfo;
  details: boolean;
}

/** The assessment of a computed trait: percentile, level, evidence, rare call, distribution and meaning. */
export function computedAssessment(input: AssessmentInput): Assessment {
  const { cat, t, slots, w, match, rareAt, coverage, table, built, ref, sex, details } = input;
  const { score, referenceMean, observed: n, imputed, excluded, flipped, rareCount, markers, snps } = match;
  const cdf = table ? tableCdf(table, score) : built!.dist.cdf(score);
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
      reference: table ? tableReference(table, referenceMean) : referenceOf(built!.dist, referenceMean),
      ref,
      sex,
    }),
  };
  return assessment;
}

/**
 * An imported score without enough reference frequencies: the raw score over the genotyped
 * variants (missing ones add nothing, their expected value being unknown) and the match
 * rate; no percentile, level or reference distribution, and the text says why.
 */
export function rawScoreAssessment(
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
  w: readonly number[],
  rare: Int32Array,
  score: number,
  level: number,
  ref: ReferencePopulation,
  cdf: (score: number) => number,
): RareCall | null {
  // First without a single object: most rare calls leave the level as it is.
  let allCommon = score;
  let crosses = false;
  for (const k of rare) {
    const shift = commonShift(cat, t, slots, w, k);
    allCommon += shift;
    if (!crosses && levelForPercentile(100 * cdf(score + shift)) !== level) crosses = true;
  }
  // One rare call: without it is without all of them (the same sum), placed once.
  if (!crosses && (rare.length === 1 || levelForPercentile(100 * cdf(allCommon)) === level)) return null;
  const markers: RareCallMarker[] = [];
  allCommon = score;
  for (const k of rare) {
    const i = t.start + k;
    let p = 0;
    for (let q = 0; q < N_POPS; q++) p += w[q] * cat.freq[i * N_POPS + q];
    const call = slots[cat.markerSlot[i]];
    const dosage = matchDosage(call, cat.effect[i], cat.other[i]) & 3;
    const effectRare = p < RARE_CALL_FREQUENCY && dosage > 0;
    const shift = commonShift(cat, t, slots, w, k);
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

/** How much the score moves when rare call k (within the trait) is read as the common homozygote. */
function commonShift(
  cat: CompiledCatalog,
  t: CompiledTrait,
  slots: Uint8Array,
  w: readonly number[],
  k: number,
): number {
  const i = t.start + k;
  let p = 0;
  for (let q = 0; q < N_POPS; q++) p += w[q] * cat.freq[i * N_POPS + q];
  const dosage = matchDosage(slots[cat.markerSlot[i]], cat.effect[i], cat.other[i]) & 3;
  // The common homozygote: no copy of a rare effect allele, two copies of a common one.
  const common = p < RARE_CALL_FREQUENCY && dosage > 0 ? 0 : 2;
  return cat.contrib[3 * i + common] - cat.contrib[3 * i + dosage];
}

/** Levels some genotype can reach: all five for a smooth distribution, those of its atoms' mid-ranks otherwise. */
export function reachableLevels(d: ScoreDistribution): number[] {
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
interface TableSummary {
  levels: number[];
  distribution: Assessment['distribution'];
  reference: Omit<ScoreReference, 'mean'>;
}
const tableSummaries = new WeakMap<CdfTable, TableSummary>();
function tableSummary(t: CdfTable): TableSummary {
  let s = tableSummaries.get(t);
  if (!s) {
    const distribution = tableDistribution(t, false);
    const { sd, min, max } = distribution!;
    s = { levels: tableLevels(t), distribution, reference: { sd, min, max, cdf: (x) => tableCdf(t, x) } };
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

/**
 * A built distribution as the meaning's model reads it, with the score's exact reference
 * mean (`mean`): the intercept is kept per distribution object (meaning/index.ts).
 */
function referenceOf(d: ScoreDistribution, mean: number): ScoreReference & { key: object } {
  return { mean, sd: d.sd, min: d.min, max: d.max, cdf: (x) => d.cdf(x), key: d };
}

/** A table as the meaning's model reads it: its spread and CDF, made once per table; the exact mean per call. */
function tableReference(t: CdfTable, mean: number): ScoreReference & { key: object } {
  const { sd, min, max, cdf } = tableSummary(t).reference;
  return { mean, sd, min, max, cdf, key: t };
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
