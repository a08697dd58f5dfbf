/**
 * The absolute-risk models of docs/science.md, "What a result means".
 *
 * - Log odds ratio weights (GWAS of yes/no traits): risk = expit(a + s), the intercept a
 *   solved so that the mean risk over the score's reference distribution equals the trait's
 *   frequency K. The weights are the studies' per-allele log odds ratios, markers taken as
 *   independent (as the score's distribution does).
 * - Probability weights (UK Biobank round 1, linear models of 0/1 answers): risk = K + (s − μ),
 *   μ the reference mean, so the mean is K by construction; kept within [0, 1].
 * The reference distribution is read through its CDF (the engine's exact or tabulated
 * distribution), cut into fine cells: the mean of a smooth function over it is then exact
 * to far below the 0.1 point the tests ask for.
 */

/** What the model needs of a score's reference distribution. */
export interface ScoreReference {
  mean: number;
  sd: number;
  min: number;
  max: number;
  /** Mid-rank CDF: P(S < s) + ½ P(S = s). */
  cdf: (s: number) => number;
}

/** The distribution as masses at points, adding up to 1. */
export interface Discretized {
  xs: Float64Array;
  ps: Float64Array;
}

const CELLS = 512;
/** Cells span the reference mean ± this many sd (clipped to the support): beyond it lies < 10⁻¹⁴ of a near-normal score. */
const SPAN_SD = 8;

export function discretize(ref: ScoreReference, cells = CELLS): Discretized {
  const lo = Math.max(ref.min, ref.mean - SPAN_SD * ref.sd);
  const hi = Math.min(ref.max, ref.mean + SPAN_SD * ref.sd);
  if (!(ref.sd > 0) || !(hi > lo)) return { xs: Float64Array.of(ref.mean), ps: Float64Array.of(1) };
  const xs = new Float64Array(cells + 2);
  const ps = new Float64Array(cells + 2);
  const step = (hi - lo) / cells;
  let before = ref.cdf(lo);
  xs[0] = lo;
  ps[0] = before;
  for (let i = 1; i <= cells; i++) {
    const x = i === cells ? hi : lo + i * step;
    const here = ref.cdf(x);
    xs[i] = x - step / 2;
    ps[i] = Math.max(0, here - before);
    before = here;
  }
  xs[cells + 1] = hi;
  ps[cells + 1] = Math.max(0, 1 - before);
  let total = 0;
  for (let i = 0; i < ps.length; i++) total += ps[i];
  for (let i = 0; i < ps.length; i++) ps[i] /= total;
  return { xs, ps };
}

export function expit(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** Mean of expit(a + S) over the distribution. */
export function meanLogisticRisk(d: Discretized, a: number): number {
  let m = 0;
  for (let i = 0; i < d.xs.length; i++) m += d.ps[i] * expit(a + d.xs[i]);
  return m;
}

/** The intercept a with mean expit(a + S) = frequency (0 < frequency < 1), by bisection: the mean rises with a. */
export function logisticIntercept(d: Discretized, frequency: number): number {
  const logit = Math.log(frequency / (1 - frequency));
  let lo = logit - 60;
  let hi = logit + 60;
  for (let k = 0; k < 200 && hi - lo > 1e-12; k++) {
    const mid = (lo + hi) / 2;
    if (meanLogisticRisk(d, mid) < frequency) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Risk on the probability scale: K + (s − μ), kept within [0, 1]. */
export function probabilityRisk(frequency: number, score: number, mean: number): number {
  return Math.min(1, Math.max(0, frequency + (score - mean)));
}

/** Share of a logistic model's latent variance the score explains: var(S) / (var(S) + π²/3) (McKelvey & Zavoina 1975). */
export function liabilityShareLogistic(scoreSd: number): number {
  const v = scoreSd * scoreSd;
  return v / (v + (Math.PI * Math.PI) / 3);
}

/** Share of a yes/no answer's variance a probability-scale score explains: var(S) / (K(1 − K)), at most 1. */
export function observedShareProbability(scoreSd: number, frequency: number): number {
  return Math.min(1, (scoreSd * scoreSd) / (frequency * (1 - frequency)));
}
