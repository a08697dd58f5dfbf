/**
 * Compact CDF tables: the reference distribution of a trait in a population, computed at
 * catalog build time at fine resolution (reference.ts, BUILD) and shipped, so scoring a
 * fully genotyped person against one super-population is a table lookup.
 *
 * A table is two parts. Atoms — scores that carry probability, which many people share —
 * are kept exactly (score and probability), so a person on one gets its exact mid-rank
 * and the CDF keeps its step there. The rest of the CDF, without those steps, is a list of
 * knots joined by straight lines that stay within KNOT_TOLERANCE of the fine distribution;
 * atoms too small to keep are smoothed into it (error at most half their probability).
 * The mid-rank CDF at s = knots(s) + atoms below s + half an atom at s.
 */
import type { ScoreDistribution } from './reference.js';

export interface CdfTable {
  /** Knot scores, ascending. */
  xs: Float64Array;
  /** Cumulative probability at each knot, atoms' steps excluded. Below the first knot 0, above the last the remaining mass. */
  fs: Float32Array;
  /** Atoms kept exactly: scores ascending, and their probabilities. */
  atomXs: Float64Array;
  atomPs: Float32Array;
}

/** Largest error of the linear interpolation between knots, in cumulative probability (0.1 percentile points). */
export const KNOT_TOLERANCE = 1e-3;
/** Atoms with at least this probability are kept exactly (smaller ones are smoothed: error ≤ half their mass). */
const ATOM_MIN_MASS = 2e-3;
/** Samples of the fine CDF. */
const SAMPLES = 8192;

export function tableFromDistribution(d: ScoreDistribution): CdfTable {
  if (!(d.sd > 0))
    return {
      xs: new Float64Array(0),
      fs: new Float32Array(0),
      atomXs: Float64Array.of(d.mean),
      atomPs: Float32Array.of(1),
    };
  const atoms = d.atoms();
  const big: number[] = [];
  for (let i = 0; i < atoms.values.length; i++) if (atoms.probs[i] >= ATOM_MIN_MASS) big.push(i);
  const atomXs = Float64Array.from(big, (i) => atoms.values[i]);
  const atomPs = Float32Array.from(big, (i) => atoms.probs[i]);
  const eps = Math.max(d.tolerance, 1e-12 * (1 + Math.abs(d.mean)));
  // Mass of the kept atoms strictly below x.
  const atomsBelow = (x: number) => {
    let m = 0;
    for (let k = 0; k < atomXs.length && atomXs[k] < x - eps; k++) m += atoms.probs[big[k]];
    return m;
  };
  // Where the fine CDF moves: from the first to the last score with probability mass.
  const lo = Math.max(d.min, d.mean - 40 * d.sd);
  const hi = Math.min(d.max, d.mean + 40 * d.sd);
  let a = lo;
  let b = hi;
  for (let k = 0; k <= 64; k++) {
    const x = lo + ((hi - lo) * k) / 64;
    if (d.cdf(x) < 1e-7) a = x;
  }
  for (let k = 64; k >= 0; k--) {
    const x = lo + ((hi - lo) * k) / 64;
    if (d.cdf(x) > 1 - 1e-7) b = x;
  }
  const points: Array<[number, number, boolean]> = [];
  for (let k = 0; k <= SAMPLES; k++) {
    let x = a + ((b - a) * k) / SAMPLES;
    // Not on a kept atom: there the CDF is the atom's mid-rank, which the atoms part gives.
    for (const v of atomXs) if (Math.abs(x - v) <= 2 * eps) x = v + 4 * eps;
    points.push([x, d.cdf(x) - atomsBelow(x), k === 0 || k === SAMPLES]);
  }
  points.sort((p, q) => p[0] - q[0]);
  const kept = simplify(points, KNOT_TOLERANCE);
  return {
    xs: Float64Array.from(kept, (p) => p[0]),
    fs: Float32Array.from(kept, (p) => clamp01(p[1])),
    atomXs,
    atomPs,
  };
}

/**
 * Few knots whose straight lines stay within `tol` of every point: a greedy cone. From the
 * last knot, the range of slopes that pass within `tol` of every point so far narrows
 * point by point; when it would become empty, a knot is placed at the previous point's
 * score on the middle slope. Points flagged `keep` (the ends) become knots exactly.
 */
function simplify(points: Array<[number, number, boolean]>, tol: number): Array<[number, number]> {
  const out: Array<[number, number]> = [[points[0][0], points[0][1]]];
  let [x0, f0] = out[0];
  let lo = -Infinity;
  let hi = Infinity;
  const knotAt = (x: number) => {
    const s = Number.isFinite(lo) && Number.isFinite(hi) ? (lo + hi) / 2 : 0;
    out.push([x, f0 + s * (x - x0)]);
    [x0, f0] = out[out.length - 1];
    lo = -Infinity;
    hi = Infinity;
  };
  for (let i = 1; i < points.length; i++) {
    const [x, f, keep] = points[i];
    const dx = x - x0;
    if (keep) {
      const exact = dx > 0 ? (f - f0) / dx : 0;
      if (dx > 0 && !(exact >= lo && exact <= hi) && i > 1 && points[i - 1][0] > x0) knotAt(points[i - 1][0]);
      out.push([x, f]);
      [x0, f0] = [x, f];
      lo = -Infinity;
      hi = Infinity;
      continue;
    }
    if (!(dx > 0)) continue;
    const nextLo = Math.max(lo, (f - tol - f0) / dx);
    const nextHi = Math.min(hi, (f + tol - f0) / dx);
    if (nextLo <= nextHi) {
      lo = nextLo;
      hi = nextHi;
      continue;
    }
    knotAt(points[i - 1][0]);
    const d = x - x0;
    lo = (f - tol - f0) / d;
    hi = (f + tol - f0) / d;
  }
  return out;
}

/** Atoms' scores are matched within this (relative) distance: floating-point noise of other summation orders. */
const ATOM_MATCH = 1e-9;

/** Mid-rank cumulative probability of a score from a table. */
export function tableCdf(t: CdfTable, score: number): number {
  let f = 0;
  const { atomXs, atomPs } = t;
  const tol = ATOM_MATCH * (1 + Math.abs(score));
  for (let k = 0; k < atomXs.length; k++) {
    if (atomXs[k] < score - tol) f += atomPs[k];
    else {
      if (Math.abs(atomXs[k] - score) <= tol) f += atomPs[k] / 2;
      break;
    }
  }
  const { xs, fs } = t;
  const n = xs.length;
  if (n === 0 || score < xs[0]) return clamp01(f);
  if (score >= xs[n - 1]) return clamp01(f + fs[n - 1]);
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] <= score) lo = mid;
    else hi = mid;
  }
  const dx = xs[hi] - xs[lo];
  return clamp01(f + (dx > 0 ? fs[lo] + ((score - xs[lo]) / dx) * (fs[hi] - fs[lo]) : fs[lo]));
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
