/**
 * Compact CDF tables: the reference distribution of a trait in a population, computed at
 * catalog build time at fine resolution (reference.ts, BUILD) and shipped, so scoring a
 * fully genotyped person against one super-population is a table lookup.
 *
 * A table is a list of knots (score, mid-rank CDF) joined by straight lines. Atoms that
 * carry probability (a score that many people share) are three knots — just below, at
 * and just above the score — so a person exactly on the atom gets its exact mid-rank; the
 * rest of the curve keeps as few knots as hold linear interpolation within KNOT_TOLERANCE
 * of the fine distribution everywhere. Below the first knot the CDF is 0, above the last 1.
 */
import type { ScoreDistribution } from './reference.js';

export interface CdfTable {
  /** Knot scores, ascending. */
  xs: Float64Array;
  /** Mid-rank cumulative probability at each knot. */
  fs: Float32Array;
}

/** Largest error of the linear interpolation between knots, in cumulative probability (0.01 percentile points). */
export const KNOT_TOLERANCE = 3e-4;
/** Atoms with at least this probability get their own knots. */
const ATOM_MIN_MASS = 2e-3;
/** Samples of the fine CDF between atoms. */
const SAMPLES = 8192;

export function tableFromDistribution(d: ScoreDistribution): CdfTable {
  if (!(d.sd > 0)) return { xs: Float64Array.of(d.mean - 1e-12, d.mean, d.mean + 1e-12), fs: Float32Array.of(0, 0.5, 1) };
  const eps = Math.max(d.tolerance, 1e-12 * (1 + Math.abs(d.mean)));
  const atoms = d.atoms();
  const points: Array<[number, number, boolean]> = []; // x, F, must keep
  for (let i = 0; i < atoms.values.length; i++) {
    if (atoms.probs[i] < ATOM_MIN_MASS) continue;
    const v = atoms.values[i];
    const mid = d.cdf(v);
    points.push([v - eps, mid - atoms.probs[i] / 2, true], [v, mid, true], [v + eps, mid + atoms.probs[i] / 2, true]);
  }
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
  for (let k = 0; k <= SAMPLES; k++) {
    const x = a + ((b - a) * k) / SAMPLES;
    points.push([x, d.cdf(x), k === 0 || k === SAMPLES]);
  }
  points.sort((p, q) => p[0] - q[0] || Number(q[2]) - Number(p[2]));
  // Drop samples that fall inside an atom's three knots.
  const merged: Array<[number, number, boolean]> = [];
  for (const p of points) {
    const last = merged[merged.length - 1];
    if (last && p[0] - last[0] <= eps && !p[2]) continue;
    merged.push(p);
  }
  const kept = simplify(merged, KNOT_TOLERANCE);
  return { xs: Float64Array.from(kept, (p) => p[0]), fs: Float32Array.from(kept, (p) => clamp01(p[1])) };
}

/**
 * Few knots whose straight lines stay within `tol` of every point: a greedy cone. From the
 * last knot, the range of slopes that pass within `tol` of every point so far narrows
 * point by point; when it would become empty, a knot is placed at the previous point's
 * score on the middle slope. Points flagged `keep` (atoms, ends) become knots exactly.
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

/** Mid-rank cumulative probability of a score from a table. */
export function tableCdf(t: CdfTable, score: number): number {
  const { xs, fs } = t;
  const n = xs.length;
  if (score < xs[0]) return 0;
  if (score > xs[n - 1]) return 1;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] <= score) lo = mid;
    else hi = mid;
  }
  const dx = xs[hi] - xs[lo];
  const f = dx > 0 ? fs[lo] + ((score - xs[lo]) / dx) * (fs[hi] - fs[lo]) : fs[lo];
  return clamp01(f);
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
