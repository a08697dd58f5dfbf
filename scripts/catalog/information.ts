/**
 * How much a score can tell, computed from the score itself (docs/science.md, sections 6
 * and 7): the variance of the score on the trait's scale, the odds ratio between the 98th
 * percentile and the median for log-odds scores, and what that makes of the share of the
 * trait's variance the score explains. Used for the `variance_explained` evidence field, to
 * choose each phenotype group's headline and for the featured traits' information floor.
 *
 * Scales:
 *  - quantitative (betas, assumed per standard deviation): R² = Σ 2pq·β²;
 *  - log-odds (disease studies): V = Σ 2pq·β² on the log-odds scale; R² on the liability
 *    scale of a logistic model, V / (V + π²/3) (McKelvey & Zavoina 1975);
 *  - linear probability (UK Biobank round-1 yes/no traits, a linear model of 0/1): the betas
 *    are divided by K(1 − K), K the share of cases, to read them on the log-odds scale first.
 * On every scale, a share above the trait's heritability (or above MAX_PLAUSIBLE_R2 when none
 * is known) shows the weights are in other units, and nothing is computed.
 * Frequencies are the 1000 Genomes European ones, where most of the studies were done.
 */
import type { CatalogTrait } from '../../src/service/science/format.js';
import { setMarker, STRIDE } from '../../src/service/science/distribution/markers.js';
import { RUNTIME, scoreDistribution } from '../../src/service/science/distribution/reference.js';
import { normalCdf, normalPdf } from '../../src/service/science/distribution/normal.js';
import { GENOME_WIDE_P } from '../../src/service/science/evidence.js';
import { zOfP } from './markers.js';

export type ScoreScale = 'quantitative' | 'log_odds' | 'linear_probability';

/** A quantitative score "explaining" more than this share without a known heritability is on another scale. */
export const MAX_PLAUSIBLE_R2 = 0.5;
/** Featured traits' information floor: own R² for quantitative traits, odds ratio 98th percentile vs median for diseases. */
export const FLOOR_R2 = 0.01;
export const FLOOR_OR98 = 1.3;
/** A published figure more than this many times the score's own is about other variants than the score's. */
export const PUBLISHED_FACTOR = 2;

export interface ScoreInformation {
  scale: ScoreScale;
  /** Σ 2pq·β² on the scale's own units (log-odds for the two binary scales). */
  variance: number;
  /** Share of the trait's variance the score explains (liability scale for binary traits), or null when not computable. */
  r2: number | null;
  /** exp(q98 − q50) of the score's EUR distribution on the log-odds scale; null for quantitative traits. */
  or98: number | null;
  /** Why r2 is null, when it is. */
  why_not: string | null;
}

const EUR = 'EUR';

/** Weights on the scale the measures use: log-odds for both binary scales. */
function weightsOnScale(t: CatalogTrait, scale: ScoreScale, caseShare: number | null): number[] {
  const k = caseShare ?? 0;
  return scale === 'linear_probability' ? t.markers.weight.map((w) => w / (k * (1 - k))) : t.markers.weight;
}

/** The score's q-quantile in EUR (exact or runtime-resolution distribution, bisection on its CDF). */
function quantiles(t: CatalogTrait, weights: number[], qs: number[]): number[] {
  const n = weights.length;
  const pts = new Float64Array(STRIDE * n);
  for (let i = 0; i < n; i++) setMarker(pts, i, 0, weights[i], 2 * weights[i], t.markers.freq[EUR][i], false);
  const d = scoreDistribution(pts, n, 0, RUNTIME);
  return qs.map((q) => {
    let lo = d.min;
    let hi = d.max;
    for (let k = 0; k < 80 && hi - lo > 1e-9 * (1 + Math.abs(hi)); k++) {
      const mid = (lo + hi) / 2;
      if (d.cdf(mid) < q) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  });
}

export function scoreInformation(
  t: CatalogTrait,
  scale: ScoreScale,
  heritability: number | null,
  caseShare: number | null,
): ScoreInformation {
  if (scale === 'linear_probability' && !(caseShare !== null && caseShare > 0 && caseShare < 1))
    return { scale, variance: 0, r2: null, or98: null, why_not: 'the share of cases is unknown' };
  const w = weightsOnScale(t, scale, caseShare);
  const f = t.markers.freq[EUR];
  let variance = 0;
  for (let i = 0; i < w.length; i++) variance += 2 * f[i] * (1 - f[i]) * w[i] * w[i];
  if (scale === 'quantitative') {
    const limit = heritability ?? MAX_PLAUSIBLE_R2;
    if (variance > limit)
      return {
        scale,
        variance,
        r2: null,
        or98: null,
        why_not: `the weights' variance (${variance.toPrecision(2)}) exceeds ${heritability !== null ? "the trait's heritability" : 'any plausible share'}, so they are not per standard deviation`,
      };
    return { scale, variance, r2: variance, or98: null, why_not: null };
  }
  const r2 = variance / (variance + (Math.PI * Math.PI) / 3);
  const limit = heritability ?? MAX_PLAUSIBLE_R2;
  if (r2 > limit)
    return {
      scale,
      variance,
      r2: null,
      or98: null,
      why_not: `the liability-scale share (${r2.toPrecision(2)}) exceeds ${heritability !== null ? "the trait's heritability" : 'any plausible share'}, so the weights are not log odds ratios`,
    };
  const [q50, q98] = quantiles(t, w, [0.5, 0.98]);
  return { scale, variance, r2, or98: Math.exp(q98 - q50), why_not: null };
}

/** Whether a score reaches the featured traits' information floor. */
export function reachesFloor(i: ScoreInformation): boolean {
  return i.scale === 'quantitative' ? (i.r2 ?? 0) >= FLOOR_R2 : (i.or98 ?? 0) >= FLOOR_OR98;
}

/** A share of variance explained as a study or review published it, with its PMID. */
export interface PublishedFigure {
  value: number;
  pmid: string;
}

/** What the build knows of a trait besides its markers, to judge what its score explains. */
export interface InformationInput {
  scale: ScoreScale;
  /** The trait's total (twin or SNP) heritability from the source overview, or null. */
  heritability: number | null;
  /** Share of cases of a UK Biobank yes/no trait. */
  caseShare: number | null;
  published: PublishedFigure | null;
  /** Share of the study's distinct markers that survived curation. */
  usableShare: number;
}

export interface TraitInformation extends ScoreInformation {
  usable_share: number;
  heritability: number | null;
  /** Which figure `variance_explained` shows. */
  shown: 'published' | 'computed' | 'none';
}

/** A heritability cell of the overview: a share in (0, 1], else null. */
export function heritabilityOf(cell: string | undefined): number | null {
  const x = Number((cell ?? '').trim());
  return (cell ?? '').trim() !== '' && Number.isFinite(x) && x > 0 && x <= 1 ? x : null;
}

const COMPUTED_TEXT: Record<ScoreScale, string> = {
  quantitative:
    "share of the trait's variance this score explains, computed from its weights (per standard deviation) and European 1000 Genomes frequencies as Σ 2pq·β²",
  log_odds:
    'share of the variance in liability (logistic scale) this score explains, computed from its log odds ratios and European 1000 Genomes frequencies as V / (V + π²/3), V = Σ 2pq·β²',
  linear_probability:
    "share of the variance in liability (logistic scale) this score explains, computed from its weights (a linear model of yes/no, divided by K(1 − K) for the log-odds scale, K the study's share of cases) and European 1000 Genomes frequencies as V / (V + π²/3)",
};
const PUBLISHED_TEXT =
  "share of the trait's variance (liability scale for diseases) explained by the known variants, as published";

/**
 * Sets every trait's `evidence.variance_explained`: the published figure where it cites a
 * PMID, stays within the trait's heritability and within PUBLISHED_FACTOR of what the score
 * itself explains; else the figure computed from the score (never above the heritability);
 * else null.
 */
export function applyInformation(
  traits: CatalogTrait[],
  inputs: Map<string, InformationInput>,
): Map<string, TraitInformation> {
  const out = new Map<string, TraitInformation>();
  for (const t of traits) {
    const input = inputs.get(t.code);
    if (!input) throw new Error(`${t.code}: no information input`);
    const own = scoreInformation(t, input.scale, input.heritability, input.caseShare);
    const h2 = input.heritability;
    const computed = own.r2 !== null && (h2 === null || own.r2 <= h2) ? own.r2 : null;
    const pub = input.published;
    const pubOk =
      pub !== null &&
      (h2 === null || pub.value <= h2) &&
      (computed === null || (pub.value <= PUBLISHED_FACTOR * computed && pub.value >= computed / PUBLISHED_FACTOR));
    let shown: TraitInformation['shown'] = 'none';
    if (pubOk) {
      t.evidence.variance_explained = { value: pub.value, description: PUBLISHED_TEXT, source: `PMID ${pub.pmid}` };
      shown = 'published';
    } else if (computed !== null && t.quality.pmid) {
      t.evidence.variance_explained = {
        value: Number(computed.toPrecision(3)),
        description: COMPUTED_TEXT[input.scale],
        source: `PMID ${t.quality.pmid}`,
      };
      shown = 'computed';
    } else t.evidence.variance_explained = null;
    out.set(t.code, {
      ...own,
      r2: computed,
      why_not: computed === null && own.r2 !== null ? "above the trait's heritability" : own.why_not,
      usable_share: input.usableShare,
      heritability: h2,
      shown,
    });
  }
  return out;
}

/**
 * The winner's curse (docs/science.md, section 7): a study reports a marker because its test
 * passed a significance threshold, so the reported effect overstates the true one, the more so
 * the closer its z is to the threshold, which is where a small study's markers sit. The
 * conditional maximum-likelihood estimate of Zhong & Prentice (2008, PMID 18310059) undoes this:
 * the z-statistic μ whose expectation, given |Z| > c, equals the observed z. A marker's weight
 * shrinks by μ/z, its share of the variance by (μ/z)².
 */
export const WINNERS_CURSE_PMID = '18310059';

/** E[Z | |Z| > c] for Z ~ N(μ, 1). */
function selectedMean(mu: number, c: number): number {
  const upper = normalCdf(mu - c);
  const lower = normalCdf(-c - mu);
  return mu + (normalPdf(c - mu) - normalPdf(c + mu)) / (upper + lower);
}

/** μ with E[Z | |Z| > c] = z (z ≥ c > 0); E rises from 0 at μ = 0 and stays above μ, so the root lies in (0, z]. */
export function selectionCorrectedZ(z: number, c: number): number {
  if (!(z > 0) || !(c > 0)) return 0;
  // Far above the threshold selection changes nothing (and the tail terms would underflow).
  if (z - c > 12) return z;
  let lo = 0;
  let hi = z;
  for (let k = 0; k < 80 && hi - lo > 1e-9; k++) {
    const mid = (lo + hi) / 2;
    if (selectedMean(mid, c) < z) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Each marker's factor on its weight, μ/z: the selection threshold c is genome-wide significance,
 * or the study's least significant marker when it listed weaker ones (it selected at that level).
 * A marker without a p-value keeps its weight (factor 1): nothing says how it was selected.
 */
export function winnersCurseFactors(p: ReadonlyArray<number | null>): Float64Array {
  const z = p.map((x) => (x === null ? null : x <= 0 ? Infinity : zOfP(Math.min(x, 1))));
  let c = zOfP(GENOME_WIDE_P);
  for (const x of z) if (x !== null) c = Math.min(c, x);
  return Float64Array.from(z, (x) =>
    x === null || !Number.isFinite(x) ? 1 : x > 0 ? selectionCorrectedZ(x, c) / x : 0,
  );
}

/** What the score explains once every weight is corrected for the winner's curse, on the same scale as `r2`. */
export function selectionCorrectedR2(t: CatalogTrait, scale: ScoreScale, caseShare: number | null): number {
  const w = weightsOnScale(t, scale, caseShare);
  const f = t.markers.freq[EUR];
  const k = winnersCurseFactors(t.markers.p ?? w.map(() => null));
  let variance = 0;
  for (let i = 0; i < w.length; i++) variance += 2 * f[i] * (1 - f[i]) * (w[i] * k[i]) ** 2;
  return scale === 'quantitative' ? variance : variance / (variance + (Math.PI * Math.PI) / 3);
}

/** The headline measure in words, for the build report. */
export const HEADLINE_MEASURE = `share of the trait's variance (liability scale for diseases) the score explains with every weight corrected for the winner's curse (conditional maximum likelihood given selection at genome-wide significance, or at the study's weakest marker; PMID ${WINNERS_CURSE_PMID}), × the share of the study's markers kept by curation`;

/**
 * How well a study informs on its phenotype, the measure that picks a group's headline: what its
 * score explains once corrected for the winner's curse, × the share of the study's markers kept.
 * Null when what the score explains cannot be computed (its weights are on another scale).
 */
export function headlinePower(t: CatalogTrait, i: TraitInformation, caseShare: number | null): number | null {
  if (i.r2 === null) return null;
  return selectionCorrectedR2(t, i.scale, caseShare) * i.usable_share;
}

/**
 * Featured traits whose group headline stays below the information floor stop being
 * featured (they remain in the catalog as ordinary traits). Returns what was changed.
 */
export function applyInformationFloor(
  traits: CatalogTrait[],
  info: Map<string, TraitInformation>,
): Array<{ code: string; headline: string; scale: ScoreScale; r2: number | null; or98: number | null }> {
  const byCode = new Map(traits.map((t) => [t.code, t]));
  const out: ReturnType<typeof applyInformationFloor> = [];
  for (const t of traits) {
    if (!t.featured) continue;
    const head = byCode.get(t.group.code)!;
    const i = info.get(head.code)!;
    if (reachesFloor(i)) continue;
    t.featured = false;
    t.evidence.flags.push('below_information_floor');
    out.push({
      code: t.code,
      headline: head.code,
      scale: i.scale,
      r2: i.r2 === null ? null : Number(i.r2.toPrecision(3)),
      or98: i.or98 === null ? null : Number(i.or98.toPrecision(4)),
    });
  }
  return out;
}
