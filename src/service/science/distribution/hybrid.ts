/**
 * The distribution of the large markers of a score: exact atoms for the sums that carry
 * real probability, a grid for the rest. Markers are convolved one by one into a sorted
 * list of (value, probability) atoms, as exact.ts does; whenever the list grows past its
 * budget, the least probable atoms leave it for a uniform grid (their probability split
 * between the two nearest grid points, which keeps the mean), and the grid is convolved
 * with the remaining markers the same way. So a large atom — everyone without any of a
 * score's rare variants, say — keeps its exact value and mass, and the percentile of a
 * person sitting on it is an exact mid-rank; only mass spread thinly over many small
 * atoms is approximated, and its error is bounded by the size of those atoms.
 */
import { STRIDE } from './markers.js';

// Scratch buffers, grown on demand and reused across calls (one thread, one call at a
// time): a trait's distribution is built many times per profile, and fresh arrays of a
// few hundred kilobytes each time kept the garbage collector busy.
let buf = {
  v0: new Float64Array(0),
  p0: new Float64Array(0),
  v1: new Float64Array(0),
  p1: new Float64Array(0),
  grid0: new Float64Array(0),
  grid1: new Float64Array(0),
};

function ensure(atoms: number, points: number): void {
  if (buf.v0.length < atoms) {
    const n = Math.max(atoms, 2 * buf.v0.length);
    buf = {
      ...buf,
      v0: new Float64Array(n),
      p0: new Float64Array(n),
      v1: new Float64Array(n),
      p1: new Float64Array(n),
    };
  }
  if (buf.grid0.length < points) buf = { ...buf, grid0: new Float64Array(points), grid1: new Float64Array(points) };
}

export interface Hybrid {
  /** Atoms, ascending by value. */
  values: Float64Array;
  probs: Float64Array;
  /** Grid: point k at lo + k·h holds mass[k] (all zero when nothing left the atom list). */
  lo: number;
  h: number;
  mass: Float64Array;
  /**
   * Variance the grid added by splitting values between neighbouring points (at most
   * h²/4 per split), weighted by the mass that was split: the caller can take it back from
   * a smooth part.
   */
  addedVariance: number;
}

/**
 * Convolves markers order[0..n) of pts; atoms stay within `budget`, the grid has `points`
 * points over [lo, hi] (mass beyond stays in the end points); once no atom is as probable
 * as `atomFloor`, all of them join the grid.
 */
export function hybridDistribution(
  pts: Float64Array,
  order: ArrayLike<number>,
  n: number,
  budget: number,
  lo: number,
  hi: number,
  points: number,
  tolerance: number,
  atomFloor = 0,
): Hybrid {
  let h = (hi - lo) / (points - 1);
  if (!(h > 0)) h = 1;
  const last = points - 1;
  ensure(3 * budget + 3, points);
  let grid = buf.grid0;
  let gridNext = buf.grid1;
  grid.fill(0, 0, points);
  let gridUsed = false;
  let addedVariance = 0;
  let ga = points; // occupied grid range [ga, gb]
  let gb = -1;

  let values = buf.v0;
  let probs = buf.p0;
  let outV = buf.v1;
  let outP = buf.p1;
  values[0] = 0;
  probs[0] = 1;
  let m = 1;
  const sv = [0, 0, 0];
  const sp = [0, 0, 0];

  const toGrid = (v: number, p: number) => {
    let u = (v - lo) / h;
    if (u < 0) u = 0;
    else if (u > last) u = last;
    const k = Math.floor(u);
    const f = u - k;
    grid[k] += p * (1 - f);
    if (f > 0) grid[k + 1] += p * f;
    addedVariance += p * f * (1 - f) * h * h;
    if (k < ga) ga = k;
    if (k + (f > 0 ? 1 : 0) > gb) gb = k + (f > 0 ? 1 : 0);
    gridUsed = true;
  };

  for (let j = 0; j < n; j++) {
    const o = STRIDE * order[j];
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
    // The grid part first.
    if (gridUsed) {
      gridNext.fill(0, 0, points);
      let na = points;
      let nb = -1;
      let gridMass = 0;
      for (let i = ga; i <= gb; i++) gridMass += grid[i];
      for (let g = 0; g < k; g++) {
        const s = sv[g] / h;
        const d = Math.floor(s);
        const f = s - d;
        addedVariance += gridMass * sp[g] * f * (1 - f) * h * h;
        shiftAdd(grid, gridNext, ga, gb, d, sp[g] * (1 - f), last);
        if (f > 0) shiftAdd(grid, gridNext, ga, gb, d + 1, sp[g] * f, last);
        na = Math.min(na, clamp(ga + d, last));
        nb = Math.max(nb, clamp(gb + d + (f > 0 ? 1 : 0), last));
      }
      [grid, gridNext] = [gridNext, grid];
      ga = na;
      gb = nb;
    }
    // Then the atoms: k-way merge of the shifted copies.
    if (k === 1) {
      for (let i = 0; i < m; i++) values[i] += sv[0];
      continue;
    }
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
        outV[out] = v;
        outP[out++] = p;
      }
    }
    [values, outV] = [outV, values];
    [probs, outP] = [outP, probs];
    m = out;
    if (m > budget) {
      // Keep the `budget` most probable atoms; the rest go to the grid.
      const threshold = kthLargest(probs, m, budget, outP);
      let kept = 0;
      for (let i = 0; i < m; i++) {
        const p = probs[i];
        if (p >= threshold) {
          values[kept] = values[i];
          probs[kept++] = p;
        } else toGrid(values[i], p);
      }
      // More atoms than the budget at exactly the threshold: the last of them (by value) go too.
      if (kept > budget) {
        // The last `excess` atoms at the threshold start at `from`.
        let from = kept;
        for (let dropped = 0; dropped < kept - budget;) if (probs[--from] === threshold) dropped++;
        let w = from;
        for (let i = from; i < kept; i++) {
          if (probs[i] === threshold) toGrid(values[i], probs[i]);
          else {
            values[w] = values[i];
            probs[w++] = probs[i];
          }
        }
        kept = w;
      }
      m = kept;
    }
    if (atomFloor > 0 && m > 0) {
      // Once every atom is this improbable none needs to stay exact (smoothing an atom into
      // the grid moves a mid-rank by at most half its probability): grid only from here.
      let largest = 0;
      for (let i = 0; i < m; i++) if (probs[i] > largest) largest = probs[i];
      if (largest < atomFloor) {
        for (let i = 0; i < m; i++) toGrid(values[i], probs[i]);
        m = 0;
      }
    }
  }
  return {
    values: values.slice(0, m),
    probs: probs.slice(0, m),
    lo,
    h,
    mass: gridUsed ? grid.slice(0, points) : new Float64Array(0),
    addedVariance,
  };
}

function clamp(k: number, last: number): number {
  return k < 0 ? 0 : k > last ? last : k;
}

function shiftAdd(
  cur: Float64Array,
  next: Float64Array,
  a: number,
  b: number,
  d: number,
  w: number,
  last: number,
): void {
  if (w === 0 || b < a) return;
  let k = a;
  let under = 0;
  for (; k <= b && k + d < 0; k++) under += cur[k];
  if (under) next[0] += w * under;
  const end = Math.min(b, last - d);
  for (; k <= end; k++) next[k + d] += w * cur[k];
  let over = 0;
  for (; k <= b; k++) over += cur[k];
  if (over) next[last] += w * over;
}

/** The k-th largest of a[0..m) (1-based k), using `scratch` (length ≥ m) for quickselect. */
function kthLargest(a: Float64Array, m: number, k: number, scratch: Float64Array): number {
  scratch.set(a.subarray(0, m));
  let lo = 0;
  let hi = m - 1;
  const target = k - 1; // index in descending order
  while (lo < hi) {
    const pivot = scratch[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (scratch[i] > pivot) i++;
      while (scratch[j] < pivot) j--;
      if (i <= j) {
        const t = scratch[i];
        scratch[i++] = scratch[j];
        scratch[j--] = t;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return scratch[target];
}
