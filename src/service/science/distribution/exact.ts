/**
 * The exact distribution of a score with few distinct sums: convolved marker by marker
 * as a sorted list of (value, probability) atoms, merging sums that are equal up to
 * floating-point noise. Published weights are often rounded (0.03, 0.05, …), so sums of
 * many markers fall on a lattice and stay few; the computation stops as soon as the
 * number of atoms passes a budget, and the caller uses the grid instead.
 */
import { STRIDE } from './markers.js';

export interface Atoms {
  /** Distinct sums, ascending (without any constant). */
  values: Float64Array;
  probs: Float64Array;
}

// Scratch buffers, grown on demand and reused across calls (one thread, one call at a time).
let buf = { v0: new Float64Array(0), p0: new Float64Array(0), v1: new Float64Array(0), p1: new Float64Array(0) };

function ensure(size: number): void {
  if (buf.v0.length >= size) return;
  const n = Math.max(size, 2 * buf.v0.length);
  buf = { v0: new Float64Array(n), p0: new Float64Array(n), v1: new Float64Array(n), p1: new Float64Array(n) };
}

/**
 * Atoms of Σ over markers `order[0..n)` of pts, or null when more than `budget` distinct
 * sums appear. Sums closer than `tolerance` are one atom (at the first value).
 */
export function exactAtoms(
  pts: Float64Array,
  order: ArrayLike<number>,
  n: number,
  budget: number,
  tolerance: number,
): Atoms | null {
  ensure(3 * budget + 3);
  let values = buf.v0;
  let probs = buf.p0;
  let outV = buf.v1;
  let outP = buf.p1;
  values[0] = 0;
  probs[0] = 1;
  let m = 1;
  const sv = [0, 0, 0];
  const sp = [0, 0, 0];
  for (let j = 0; j < n; j++) {
    const k = markerGenotypes(pts, STRIDE * order[j], sv, sp);
    if (k === 1) {
      // One possible genotype: a shift.
      for (let i = 0; i < m; i++) values[i] += sv[0];
      continue;
    }
    const out = mergeShifted(values, probs, m, sv, sp, k, outV, outP, tolerance, budget);
    if (out < 0) return null;
    [values, outV] = [outV, values];
    [probs, outP] = [outP, probs];
    m = out;
  }
  return { values: values.slice(0, m), probs: probs.slice(0, m) };
}

/**
 * The genotypes of the marker at offset `o` with non-zero probability, ascending by value,
 * into sv (values) and sp (probabilities); returns how many.
 */
export function markerGenotypes(pts: Float64Array, o: number, sv: number[], sp: number[]): number {
  let k = 0;
  for (let g = 0; g < 3; g++) {
    const p = pts[o + 3 + g];
    if (!(p > 0)) continue;
    let at = k++;
    while (at > 0 && sv[at - 1] > pts[o + g]) {
      sv[at] = sv[at - 1];
      sp[at] = sp[at - 1];
      at--;
    }
    sv[at] = pts[o + g];
    sp[at] = p;
  }
  return k;
}

/**
 * Atoms values/probs[0..m) convolved with a marker of k ≥ 2 genotypes (sv/sp, ascending):
 * a k-way merge of the shifted copies into outV/outP, sums closer than `tolerance` joined
 * (at the first value). Returns the number of atoms, or -1 once it would pass `limit`.
 */
export function mergeShifted(
  values: Float64Array,
  probs: Float64Array,
  m: number,
  sv: number[],
  sp: number[],
  k: number,
  outV: Float64Array,
  outP: Float64Array,
  tolerance: number,
  limit: number,
): number {
  let i0 = 0;
  let i1 = 0;
  let i2 = k === 3 ? 0 : m;
  let out = 0;
  while (i0 < m || i1 < m || i2 < m) {
    const a = i0 < m ? values[i0] + sv[0] : Infinity;
    const b = i1 < m ? values[i1] + sv[1] : Infinity;
    const c = i2 < m ? values[i2] + sv[2] : Infinity;
    let v: number;
    let p: number;
    if (a <= b && a <= c) {
      v = a;
      p = probs[i0++] * sp[0];
    } else if (b <= c) {
      v = b;
      p = probs[i1++] * sp[1];
    } else {
      v = c;
      p = probs[i2++] * sp[2];
    }
    if (out > 0 && v - outV[out - 1] <= tolerance) outP[out - 1] += p;
    else {
      if (out === limit) return -1;
      outV[out] = v;
      outP[out++] = p;
    }
  }
  return out;
}
