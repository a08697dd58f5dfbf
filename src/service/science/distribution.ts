/**
 * The reference distribution of a score in a population under Hardy–Weinberg equilibrium
 * and independent markers (docs/science.md, "Percentile").
 *
 * Each observed marker contributes c_G for G ∈ {0, 1, 2} copies of the effect allele, with
 * probabilities (1−p)², 2p(1−p), p² (p = effect-allele frequency in the population). For
 * an additive marker c = (0, w, 2w); dominant (0, w, w) and recessive (0, 0, w) markers and
 * per-dosage weights of imported PGS files use the same form. Markers that were not
 * observed contribute their expected value (2pw when additive), a constant, to the
 * person's score and to every reference score alike.
 *
 * - Exact: the distribution of the sum is convolved marker by marker, merging equal values,
 *   when the support is sure to stay within EXACT_MAX_SUPPORT points: k additive markers
 *   sharing one weight give 2k + 1 sums, so the support is at most Π (2k + 1) over distinct
 *   weights (3⁷ = 2,187: up to 7 markers with distinct weights, more when weights repeat).
 * - Normal: beyond that, N(Σ E[c_G], Σ Var[c_G]) (additive: N(Σ2pw, Σ2p(1−p)w²)); when a few
 *   markers carry much of the variance (the sum is visibly skewed or heavy-tailed), those
 *   are kept exact and the reference is a mixture of normals (see MIXTURE_MIN_VARIANCE_SHARE).
 * Percentile = 100 × (P(S < s) + ½ P(S = s)) (mid-rank; continuous for the normal case).
 */
import type { Assessment } from './types.js';

export const EXACT_MAX_SUPPORT = 2_187;
/**
 * Beyond exact: the markers that make the score least normal (largest contributions to its
 * skewness, excess kurtosis and variance, each contribution at least this much; at most
 * MIXTURE_MAX_MARKERS of them) are kept exact, and the rest is normal: the reference is
 * then a mixture of normals. A few large-effect variants (APOE in LDL cholesterol, a rare
 * protective PCSK9 variant) make the plain normal too peaked and its tails wrong.
 */
export const MIXTURE_MIN_VARIANCE_SHARE = 0.03;
export const MIXTURE_MAX_MARKERS = 5;
/**
 * The mixture is used only when the plain normal would be off: |skewness| or |excess
 * kurtosis| of the score above these (Edgeworth: band errors then stay under about one
 * percentage point).
 */
export const NORMAL_MAX_SKEWNESS = 0.1;
export const NORMAL_MAX_EXCESS_KURTOSIS = 0.2;
/** More observed markers than this always use the normal approximation. */
export const EXACT_MAX_MARKERS = 64;
const DENSITY_POINTS = 101;

export type ScoreDistribution = Assessment['distribution'];

export interface Reference {
  distribution: ScoreDistribution;
  /** Percentile 0–100 of a score. */
  percentile(score: number): number;
}

/** Standard normal CDF via erfc (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7). */
export function normalCdf(z: number): number {
  const x = -z / Math.SQRT2;
  const ax = Math.abs(x);
  const t = 1 / (1 + 0.5 * ax);
  const y =
    t *
    Math.exp(
      -ax * ax -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  const erfcx = x >= 0 ? y : 2 - y;
  return 0.5 * erfcx;
}

/**
 * Exact distribution of Σ c_{G_i} (contributions c[3i..3i+2], frequencies p[i]) as sorted
 * support values and probabilities, or null when the support would exceed EXACT_MAX_SUPPORT.
 */
export function exactDistribution(c: ArrayLike<number>, freqs: ArrayLike<number>, n: number, tolerance: number): { values: Float64Array; probs: Float64Array } | null {
  // Ping-pong between two scratch buffers; only the final support is copied out.
  let values = scratch.v0;
  let probs = scratch.p0;
  let outV = scratch.v1;
  let outP = scratch.p1;
  values[0] = 0;
  probs[0] = 1;
  let m = 1;
  const shift = [0, 0, 0];
  const prob = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const p = freqs[i];
    const q = 1 - p;
    sortedPoints(c[3 * i], c[3 * i + 1], c[3 * i + 2], q * q, 2 * p * q, p * p, shift, prob);
    if (3 * m > outV.length) return null;
    // Three-way merge of the sorted shifted copies, merging values closer than the tolerance.
    let i0 = 0;
    let i1 = 0;
    let i2 = 0;
    let k = 0;
    while (i0 < m || i1 < m || i2 < m) {
      const v0 = i0 < m ? values[i0] + shift[0] : Infinity;
      const v1 = i1 < m ? values[i1] + shift[1] : Infinity;
      const v2 = i2 < m ? values[i2] + shift[2] : Infinity;
      let v: number;
      let pv: number;
      if (v0 <= v1 && v0 <= v2) {
        v = v0;
        pv = probs[i0++] * prob[0];
      } else if (v1 <= v2) {
        v = v1;
        pv = probs[i1++] * prob[1];
      } else {
        v = v2;
        pv = probs[i2++] * prob[2];
      }
      if (pv === 0) continue;
      if (k > 0 && v - outV[k - 1] <= tolerance) outP[k - 1] += pv;
      else {
        outV[k] = v;
        outP[k++] = pv;
      }
    }
    if (k > EXACT_MAX_SUPPORT) return null;
    [values, outV] = [outV, values];
    [probs, outP] = [outP, probs];
    m = k;
  }
  return { values: values.slice(0, m), probs: probs.slice(0, m) };
}

/** The three (value, probability) points of one marker, ascending by value. */
function sortedPoints(c0: number, c1: number, c2: number, p0: number, p1: number, p2: number, v: number[], pr: number[]): void {
  v[0] = c0; v[1] = c1; v[2] = c2;
  pr[0] = p0; pr[1] = p1; pr[2] = p2;
  for (let a = 1; a < 3; a++) {
    for (let b = a; b > 0 && v[b] < v[b - 1]; b--) {
      [v[b], v[b - 1]] = [v[b - 1], v[b]];
      [pr[b], pr[b - 1]] = [pr[b - 1], pr[b]];
    }
  }
}

let markerVar = new Float64Array(1024);
let markerShape = new Float64Array(1024);

const scratch = {
  v0: new Float64Array(3 * EXACT_MAX_SUPPORT),
  p0: new Float64Array(3 * EXACT_MAX_SUPPORT),
  v1: new Float64Array(3 * EXACT_MAX_SUPPORT),
  p1: new Float64Array(3 * EXACT_MAX_SUPPORT),
};

/** The reference for n observed markers (contributions c, frequencies p) plus a constant. */
export function referenceFor(c: ArrayLike<number>, freqs: ArrayLike<number>, n: number, constant: number): Reference {
  let mean = constant;
  let variance = 0;
  let min = constant;
  let max = constant;
  let absSum = 0;
  for (let i = 0; i < n; i++) {
    const p = freqs[i];
    const q = 1 - p;
    const c0 = c[3 * i];
    const c1 = c[3 * i + 1];
    const c2 = c[3 * i + 2];
    const e = q * q * c0 + 2 * p * q * c1 + p * p * c2;
    mean += e;
    variance += q * q * (c0 - e) ** 2 + 2 * p * q * (c1 - e) ** 2 + p * p * (c2 - e) ** 2;
    min += Math.min(c0, c1, c2);
    max += Math.max(c0, c1, c2);
    absSum += Math.max(Math.abs(c0), Math.abs(c1), Math.abs(c2));
  }
  const sd = Math.sqrt(variance);
  const tolerance = 1e-9 * (1 + absSum);
  const exact = n <= EXACT_MAX_MARKERS && supportBound(c, n) <= EXACT_MAX_SUPPORT ? exactDistribution(c, freqs, n, tolerance) : null;
  if (exact) {
    const { values, probs } = exact;
    const m = values.length;
    // Cumulative probabilities for fast lookups.
    const below = new Float64Array(m + 1);
    for (let i = 0; i < m; i++) below[i + 1] = below[i] + probs[i];
    const total = below[m];
    return {
      distribution: { mean, sd, min, max, method: 'exact', density: exactDensity(values, probs, constant) },
      percentile(score: number): number {
        const s = score - constant;
        // First support point ≥ s − tolerance.
        let lo = 0;
        let hi = m;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (values[mid] < s - tolerance) lo = mid + 1;
          else hi = mid;
        }
        const less = below[lo];
        const equal = lo < m && Math.abs(values[lo] - s) <= tolerance ? probs[lo] : 0;
        return clampPct((100 * (less + 0.5 * equal)) / total);
      },
    };
  }
  return normalReference(c, freqs, n, constant, mean, sd, min, max, tolerance);
}

/** Plain normal approximation, or a mixture of normals when a few markers dominate the variance. */
function normalReference(c: ArrayLike<number>, freqs: ArrayLike<number>, n: number, constant: number, mean: number, sd: number, min: number, max: number, tolerance: number): Reference {
  const variance = sd * sd;
  // Third and fourth cumulants of the sum, to judge whether a plain normal is close enough.
  if (markerVar.length < n) {
    markerVar = new Float64Array(n);
    markerShape = new Float64Array(n);
  }
  let k3 = 0;
  let k4 = 0;
  for (let i = 0; i < n; i++) {
    const p = freqs[i];
    const q = 1 - p;
    const p0 = q * q;
    const p1 = 2 * p * q;
    const p2 = p * p;
    const e = p0 * c[3 * i] + p1 * c[3 * i + 1] + p2 * c[3 * i + 2];
    const d0 = c[3 * i] - e;
    const d1 = c[3 * i + 1] - e;
    const d2 = c[3 * i + 2] - e;
    const m2 = p0 * d0 * d0 + p1 * d1 * d1 + p2 * d2 * d2;
    const m3 = p0 * d0 * d0 * d0 + p1 * d1 * d1 * d1 + p2 * d2 * d2 * d2;
    const c4 = p0 * (d0 * d0) ** 2 + p1 * (d1 * d1) ** 2 + p2 * (d2 * d2) ** 2 - 3 * m2 * m2;
    markerVar[i] = m2;
    markerShape[i] = Math.abs(m3) / variance ** 1.5 + Math.abs(c4) / (variance * variance) + m2 / variance;
    k3 += m3;
    k4 += c4;
  }
  const nearNormal = !(variance > 0) || (Math.abs(k3 / variance ** 1.5) <= NORMAL_MAX_SKEWNESS && Math.abs(k4 / (variance * variance)) <= NORMAL_MAX_EXCESS_KURTOSIS);
  // The markers that make the sum least normal: largest contributions to skewness, excess
  // kurtosis and variance (at most MIXTURE_MAX_MARKERS, each above MIXTURE_MIN_VARIANCE_SHARE
  // in that combined measure). A rare variant of large effect has little variance but
  // dominates the tails.
  const picked: Array<{ i: number; v: number }> = [];
  if (!nearNormal) {
    const floor = MIXTURE_MIN_VARIANCE_SHARE;
    for (let i = 0; i < n; i++) {
      const v = markerShape[i];
      if (!(v >= floor && markerVar[i] > 0)) continue;
      if (picked.length === MIXTURE_MAX_MARKERS && v <= picked[picked.length - 1].v) continue;
      let at = picked.length;
      while (at > 0 && picked[at - 1].v < v) at--;
      picked.splice(at, 0, { i, v });
      if (picked.length > MIXTURE_MAX_MARKERS) picked.pop();
    }
  }
  const restVariance = variance - picked.reduce((a, b) => a + markerVar[b.i], 0);
  if (picked.length === 0 || !(restVariance > 1e-12 * variance)) {
    return {
      distribution: { mean, sd, min, max, method: 'normal', density: normalDensity(mean, sd, min, max), exact_markers: 0 },
      percentile(score: number): number {
        if (!(sd > 0)) return 50;
        return clampPct(100 * normalCdf((score - mean) / sd));
      },
    };
  }
  const pc = new Float64Array(3 * picked.length);
  const pf = new Float64Array(picked.length);
  let pickedMean = 0;
  picked.forEach(({ i }, k) => {
    pc.set([c[3 * i], c[3 * i + 1], c[3 * i + 2]], 3 * k);
    const p = freqs[i];
    const q = 1 - p;
    pf[k] = p;
    pickedMean += q * q * c[3 * i] + 2 * p * q * c[3 * i + 1] + p * p * c[3 * i + 2];
  });
  const part = exactDistribution(pc, pf, picked.length, tolerance)!;
  const restMean = mean - constant - pickedMean;
  const restSd = Math.sqrt(restVariance);
  const { values, probs } = part;
  const cdf = (x: number) => {
    let acc = 0;
    for (let j = 0; j < values.length; j++) acc += probs[j] * normalCdf((x - values[j] - restMean) / restSd);
    return acc;
  };
  // Density for the plot: the exact part's masses spread onto the grid, smoothed with the
  // normal kernel of the rest (grid convolution: 101 × 101 products, 201 exponentials).
  const a = Math.max(min, mean - 4 * sd);
  const b = Math.min(max, mean + 4 * sd);
  const dx = (b - a) / (DENSITY_POINTS - 1);
  const mass = new Float64Array(DENSITY_POINTS);
  for (let j = 0; j < values.length; j++) {
    const u = (constant + values[j] + restMean - a) / dx;
    const lo = Math.floor(u);
    const frac = u - lo;
    if (lo >= 0 && lo < DENSITY_POINTS) mass[lo] += probs[j] * (1 - frac);
    if (lo + 1 >= 0 && lo + 1 < DENSITY_POINTS) mass[lo + 1] += probs[j] * frac;
  }
  const kernel = new Float64Array(2 * DENSITY_POINTS - 1);
  for (let d = -(DENSITY_POINTS - 1); d < DENSITY_POINTS; d++) {
    const z = (d * dx) / restSd;
    kernel[d + DENSITY_POINTS - 1] = Math.exp(-0.5 * z * z) / (restSd * Math.sqrt(2 * Math.PI));
  }
  const density: Array<[number, number]> = [];
  for (let k = 0; k < DENSITY_POINTS; k++) {
    let d = 0;
    for (let m = 0; m < DENSITY_POINTS; m++) if (mass[m] !== 0) d += mass[m] * kernel[k - m + DENSITY_POINTS - 1];
    density.push([a + k * dx, d]);
  }
  return {
    distribution: { mean, sd, min, max, method: 'normal', density, exact_markers: picked.length },
    percentile: (score: number) => clampPct(100 * cdf(score - constant)),
  };
}

/**
 * Upper bound of the support size. Markers with the same contributions form a group: k
 * additive-shaped markers (c2 − c0 = 2(c1 − c0)) reach 2k + 1 sums, other shapes at most
 * (k + 1)(k + 2) / 2; the bound is the product over groups.
 */
export function supportBound(c: ArrayLike<number>, n: number): number {
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => c[3 * a] - c[3 * b] || c[3 * a + 1] - c[3 * b + 1] || c[3 * a + 2] - c[3 * b + 2]);
  const same = (x: number, y: number) => c[3 * x] === c[3 * y] && c[3 * x + 1] === c[3 * y + 1] && c[3 * x + 2] === c[3 * y + 2];
  let bound = 1;
  let run = 0;
  for (let j = 0; j < n; j++) {
    const i = order[j];
    run = j > 0 && same(i, order[j - 1]) ? run + 1 : 1;
    if (j + 1 < n && same(i, order[j + 1])) continue;
    const additive = c[3 * i + 2] - c[3 * i] === 2 * (c[3 * i + 1] - c[3 * i]);
    bound *= additive ? 2 * run + 1 : ((run + 1) * (run + 2)) / 2;
    if (bound > EXACT_MAX_SUPPORT) return bound;
  }
  return bound;
}

function clampPct(x: number): number {
  return x < 0 ? 0 : x > 100 ? 100 : x;
}

/** Probability mass at each support point, binned to at most DENSITY_POINTS bins. */
function exactDensity(values: Float64Array, probs: Float64Array, constant: number): Array<[number, number]> {
  const m = values.length;
  if (m <= DENSITY_POINTS) return Array.from(values, (v, i) => [v + constant, probs[i]] as [number, number]);
  const lo = values[0];
  const width = (values[m - 1] - lo) / DENSITY_POINTS;
  const bins = new Float64Array(DENSITY_POINTS);
  for (let i = 0; i < m; i++) bins[Math.min(DENSITY_POINTS - 1, Math.floor((values[i] - lo) / width))] += probs[i];
  return Array.from(bins, (pr, b) => [lo + constant + (b + 0.5) * width, pr] as [number, number]);
}

/** Normal density over mean ± 4 sd (within the possible range). */
function normalDensity(mean: number, sd: number, min: number, max: number): Array<[number, number]> {
  if (!(sd > 0)) return [[mean, 1]];
  const a = Math.max(min, mean - 4 * sd);
  const b = Math.min(max, mean + 4 * sd);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < DENSITY_POINTS; i++) {
    const x = a + ((b - a) * i) / (DENSITY_POINTS - 1);
    const z = (x - mean) / sd;
    out.push([x, Math.exp(-0.5 * z * z) / (sd * Math.sqrt(2 * Math.PI))]);
  }
  return out;
}
