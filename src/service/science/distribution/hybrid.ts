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
import { markerGenotypes, mergeShifted } from './exact.js';
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
 * points over [lo, hi] (mass beyond stays in the end points); an atom less probable than
 * `atomFloor` joins the grid as soon as it appears (Infinity: grid only).
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
  const spill: Spill = { grid, lo, h, last, from: points, to: -1, mass: 0, addedVariance: 0 };

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
    // The grid part first (convolution keeps its mass, so spill.mass stays right).
    if (spill.mass > 0) {
      const ga = spill.from;
      const gb = spill.to;
      gridNext.fill(0, 0, points);
      let taps = 0;
      for (let g = 0; g < k; g++) {
        const s = sv[g] / h;
        const d = Math.floor(s);
        const f = s - d;
        spill.addedVariance += spill.mass * sp[g] * f * (1 - f) * h * h;
        tapShift[taps] = d;
        tapWeight[taps++] = sp[g] * (1 - f);
        if (f > 0) {
          tapShift[taps] = d + 1;
          tapWeight[taps++] = sp[g] * f;
        }
      }
      convolve(grid, gridNext, ga, gb, taps, last);
      spill.from = clamp(ga + tapShift[0], last);
      spill.to = clamp(gb + tapShift[taps - 1], last);
      [grid, gridNext] = [gridNext, grid];
      spill.grid = grid;
    }
    // Then the atoms: k-way merge of the shifted copies.
    if (k === 1) {
      for (let i = 0; i < m; i++) values[i] += sv[0];
      continue;
    }
    const out = mergeShifted(values, probs, m, sv, sp, k, outV, outP, tolerance, Infinity);
    [values, outV] = [outV, values];
    [probs, outP] = [outP, probs];
    m = out;
    // An atom this improbable need not stay exact (smoothing it into the grid moves a
    // mid-rank by at most its probability): it joins the grid now, before it multiplies.
    if (atomFloor > 0) m = keepAtLeast(values, probs, m, atomFloor, spill);
    if (m > budget) {
      // Keep the `budget` most probable atoms; the rest go to the grid.
      const threshold = kthLargest(probs, m, budget, outP);
      m = keepAtLeast(values, probs, m, threshold, spill);
      // More atoms than the budget at exactly the threshold: the last of them (by value) go too.
      if (m > budget) {
        // The last `excess` atoms at the threshold start at `from`.
        let from = m;
        for (let dropped = 0; dropped < m - budget;) if (probs[--from] === threshold) dropped++;
        let w = from;
        for (let i = from; i < m; i++) {
          if (probs[i] === threshold) toGrid(spill, values[i], probs[i]);
          else {
            values[w] = values[i];
            probs[w++] = probs[i];
          }
        }
        m = w;
      }
    }
  }
  return {
    values: values.slice(0, m),
    probs: probs.slice(0, m),
    lo,
    h,
    mass: spill.mass > 0 ? grid.slice(0, points) : new Float64Array(0),
    addedVariance: spill.addedVariance,
  };
}

/** The grid that atoms spill into, with its occupied range [from, to] and total mass. */
interface Spill {
  grid: Float64Array;
  lo: number;
  h: number;
  last: number;
  from: number;
  to: number;
  mass: number;
  addedVariance: number;
}

/** Splits an atom between its two nearest grid points (which keeps the mean). */
function toGrid(s: Spill, v: number, p: number): void {
  let u = (v - s.lo) / s.h;
  if (u < 0) u = 0;
  else if (u > s.last) u = s.last;
  const k = Math.floor(u);
  const f = u - k;
  s.grid[k] += p * (1 - f);
  if (f > 0) s.grid[k + 1] += p * f;
  s.addedVariance += p * f * (1 - f) * s.h * s.h;
  s.mass += p;
  if (k < s.from) s.from = k;
  const top = f > 0 ? k + 1 : k;
  if (top > s.to) s.to = top;
}

/** Keeps the atoms with probability ≥ threshold (in order), spills the others; returns the count kept. */
function keepAtLeast(values: Float64Array, probs: Float64Array, m: number, threshold: number, s: Spill): number {
  let kept = 0;
  for (let i = 0; i < m; i++) {
    const p = probs[i];
    if (p >= threshold) {
      values[kept] = values[i];
      probs[kept++] = p;
    } else toGrid(s, values[i], p);
  }
  return kept;
}

function clamp(k: number, last: number): number {
  return k < 0 ? 0 : k > last ? last : k;
}

// One marker's kernel on the grid: each genotype's shift split between two grid points,
// so at most six taps; the first has the smallest shift and the last the largest.
const TAPS = 6;
const tapShift = new Int32Array(TAPS);
const tapWeight = new Float64Array(TAPS);

/**
 * next = cur convolved with the taps, over cur's occupied range [a, b]; mass shifted beyond
 * the grid stays in its end points. Where every tap lands inside the grid, one pass reads
 * each value once for all taps (unused taps weigh 0); the edges go tap by tap.
 */
function convolve(cur: Float64Array, next: Float64Array, a: number, b: number, taps: number, last: number): void {
  if (b < a) return;
  for (let t = taps; t < TAPS; t++) {
    tapShift[t] = tapShift[0];
    tapWeight[t] = 0;
  }
  // The shared interior [from, to] (empty: from = b + 1, so the taps' own loops do all).
  let from = Math.max(a, -tapShift[0]);
  let to = Math.min(b, last - tapShift[taps - 1]);
  if (from > to) {
    from = b + 1;
    to = b;
  }
  for (let t = 0; t < taps; t++) {
    const d = tapShift[t];
    const w = tapWeight[t];
    const first = Math.max(a, -d); // cells below land under the grid
    const end = Math.min(b, last - d); // cells above land over it
    let under = 0;
    for (let k = a; k < first && k <= b; k++) under += cur[k];
    if (under) next[0] += w * under;
    let over = 0;
    for (let k = Math.max(end + 1, a); k <= b; k++) over += cur[k];
    if (over) next[last] += w * over;
    // In the grid but outside the shared interior.
    for (let k = first; k <= end && k < from; k++) next[k + d] += w * cur[k];
    for (let k = Math.max(first, to + 1); k <= end; k++) next[k + d] += w * cur[k];
  }
  if (from > to) return;
  const d0 = tapShift[0];
  const d1 = tapShift[1];
  const d2 = tapShift[2];
  const d3 = tapShift[3];
  const d4 = tapShift[4];
  const d5 = tapShift[5];
  const w0 = tapWeight[0];
  const w1 = tapWeight[1];
  const w2 = tapWeight[2];
  const w3 = tapWeight[3];
  const w4 = tapWeight[4];
  const w5 = tapWeight[5];
  for (let k = from; k <= to; k++) {
    const c = cur[k];
    next[k + d0] += w0 * c;
    next[k + d1] += w1 * c;
    next[k + d2] += w2 * c;
    next[k + d3] += w3 * c;
    next[k + d4] += w4 * c;
    next[k + d5] += w5 * c;
  }
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
