/**
 * The reference distribution of a genetic score: how the score Σ contributions of the
 * observed markers is distributed in a population whose genotypes follow the markers'
 * frequencies (Hardy–Weinberg, independent markers; docs/science.md, "Percentile").
 *
 * One algorithm serves the catalog build (fine resolution, shipped as tables) and the
 * engine (runtime: partial coverage, admixed references):
 * 1. Exact: when the sums take few distinct values (few markers, or weights on a lattice),
 *    the distribution is enumerated exactly (exact.ts).
 * 2. Otherwise the markers are split. A marker whose largest move is under a tenth of the
 *    standard deviation of the remaining small markers joins the smooth part R, whose sum is
 *    close to normal (each term is small: Lindeberg) and is described by its first four
 *    cumulants (Edgeworth). Every larger marker — common large effects, and rare variants
 *    of large effect, which decide the tails — is convolved exactly on a fine grid (hybrid.ts),
 *    and the grid is smoothed by R at evaluation.
 * Percentiles are mid-ranks: 100 × (P(S < s) + ½ P(S = s)).
 */
import { exactAtoms, type Atoms } from './exact.js';
import { hybridDistribution, type Hybrid } from './hybrid.js';
import { STRIDE } from './markers.js';
import { edgeworthCdf, edgeworthPdf } from './normal.js';

export type DistributionMethod = 'exact' | 'grid' | 'normal';

export interface Resolution {
  /** Most distinct sums the exact method may hold. */
  exactBudget: number;
  /** Atoms kept exactly in the large-marker part (the rest of its mass goes to the grid)… */
  atomBudget: number;
  /** … or more when there are few large markers: up to atomWork / markers. */
  atomWork: number;
  /** Grid points of the large-marker part. */
  gridPoints: number;
  /** A marker joins the smooth part when its largest move is ≤ this × the smooth part's sd. */
  smoothShare: number;
  /** The grid spans the large part's mean ± this many of its standard deviations. */
  gridSds: number;
  /** An atom less probable than this joins the grid at once (0: atoms stay while the budget allows). */
  atomFloor: number;
  /**
   * … or this × sd when the smooth part would hold at least `manySmall` markers: the
   * Edgeworth expansion's error shrinks with the number of terms, and big scores (hundreds
   * of markers) then keep only their truly large markers exact.
   */
  smoothShareMany: number;
  manySmall: number;
  /**
   * No atoms at all when the smooth part's sd spans at least this many grid steps: its
   * smoothing hides where inside a grid step the mass of the large part sits.
   */
  gridOnlySmooth: number;
}

/** In the engine, per person (partial coverage, admixed references). */
export const RUNTIME: Resolution = {
  exactBudget: 4_096,
  atomBudget: 64,
  atomWork: 16_384,
  gridPoints: 1_024,
  smoothShare: 0.1,
  smoothShareMany: 0.5,
  manySmall: 30,
  gridSds: 8,
  atomFloor: 1e-4,
  gridOnlySmooth: 2,
};
/** At catalog build time, for the shipped tables. */
export const BUILD: Resolution = {
  exactBudget: 1 << 16,
  atomBudget: 1 << 10,
  atomWork: 1 << 18,
  gridPoints: 1 << 13,
  smoothShare: 0.05,
  smoothShareMany: 0.05,
  manySmall: Infinity,
  gridSds: 12,
  atomFloor: 0,
  gridOnlySmooth: Infinity,
};

const DENSITY_POINTS = 101;

export interface ScoreDistribution {
  method: DistributionMethod;
  mean: number;
  sd: number;
  /** Lowest and highest possible score. */
  min: number;
  max: number;
  /** Mid-rank cumulative probability of a score, 0..1. */
  cdf: (score: number) => number;
  /**
   * Points for a plot: probability per support point for 'exact' (at most 101, binned
   * beyond), else the probability density at 101 points over mean ± 4 sd within [min, max].
   */
  density: () => Array<[number, number]>;
  /** Atoms (score, probability) held exactly, ascending; empty when the distribution is smooth. */
  atoms: () => { values: Float64Array; probs: Float64Array };
  /** Scores closer than this are the same score (floating-point noise of different summation orders). */
  tolerance: number;
  /** About how much memory the distribution holds, in bytes (for callers that keep it). */
  bytes: number;
}

const NO_ATOMS = { values: new Float64Array(0), probs: new Float64Array(0) };

interface Moments {
  mean: number;
  variance: number;
  k3: number;
  k4: number;
}

/**
 * The distribution of `constant` + Σ over markers [0, n) of pts (markers.ts layout).
 * `pts` is modified (values re-centred on each marker's most likely genotype).
 */
export function scoreDistribution(
  pts: Float64Array,
  n: number,
  constant: number,
  resolution: Resolution = RUNTIME,
): ScoreDistribution {
  let base = constant;
  let minRel = 0; // lowest and highest sums, relative to the modal genotypes
  let maxRel = 0;
  let absSum = 0;
  const jump = new Float64Array(n);
  const varOf = new Float64Array(n);
  const total: Moments = { mean: 0, variance: 0, k3: 0, k4: 0 };
  let active = 0;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const o = STRIDE * i;
    // Re-centre on the most likely genotype.
    let mode = 0;
    for (let g = 1; g < 3; g++) if (pts[o + 3 + g] > pts[o + 3 + mode]) mode = g;
    const shift = pts[o + mode];
    base += shift;
    let lo = Infinity;
    let hi = -Infinity;
    let j = 0;
    for (let g = 0; g < 3; g++) {
      pts[o + g] -= shift;
      if (pts[o + 3 + g] > 0) {
        lo = Math.min(lo, pts[o + g]);
        hi = Math.max(hi, pts[o + g]);
        j = Math.max(j, Math.abs(pts[o + g]));
      }
    }
    minRel += lo;
    maxRel += hi;
    absSum += j;
    jump[i] = j;
    const m = markerMoments(pts, o);
    varOf[i] = m.variance;
    total.mean += m.mean;
    total.variance += m.variance;
    total.k3 += m.k3;
    total.k4 += m.k4;
    if (j > 0) order[active++] = i;
  }
  const mean = base + total.mean;
  const sd = Math.sqrt(total.variance);
  const min = base + minRel;
  const max = base + maxRel;
  if (active === 0 || !(sd > 0)) return pointMass(base, min, max);

  const tolerance = 1e-9 * (1 + absSum);
  if (supportBound(pts, order, active, tolerance) <= resolution.exactBudget) {
    const atoms = exactAtoms(pts, order, active, resolution.exactBudget, tolerance);
    if (atoms) return atomDistribution(atoms, base, mean, sd, min, max, tolerance);
  }

  // Split: markers by largest move, descending; the smooth part R is the longest tail of
  // that order whose every marker moves by at most smoothShare × sd(R).
  const byJump = Array.from(order.subarray(0, active)).sort((x, y) => jump[y] - jump[x]);
  const tailVar = new Float64Array(active + 1);
  for (let k = active - 1; k >= 0; k--) tailVar[k] = tailVar[k + 1] + varOf[byJump[k]];
  let split = active;
  for (let k = 0; k < active; k++) {
    const share = active - k >= resolution.manySmall ? resolution.smoothShareMany : resolution.smoothShare;
    if (jump[byJump[k]] <= share * Math.sqrt(tailVar[k])) {
      split = k;
      break;
    }
  }
  const smooth: Moments = { mean: 0, variance: 0, k3: 0, k4: 0 };
  for (let k = split; k < active; k++) {
    const m = markerMoments(pts, STRIDE * byJump[k]);
    smooth.mean += m.mean;
    smooth.variance += m.variance;
    smooth.k3 += m.k3;
    smooth.k4 += m.k4;
  }
  if (split === 0) return smoothDistribution(base, standardized(smooth), mean, sd, min, max);

  // The large markers: exact atoms where the probability is, a grid over their mean ± gridSds sd for the rest.
  let largeMean = 0;
  let largeVar = 0;
  let largeMin = 0;
  let largeMax = 0;
  for (let k = 0; k < split; k++) {
    const o = STRIDE * byJump[k];
    const m = markerMoments(pts, o);
    largeMean += m.mean;
    largeVar += m.variance;
    let lo = 0;
    let hi = 0;
    for (let g = 0; g < 3; g++) {
      if (pts[o + 3 + g] > 0) {
        lo = Math.min(lo, pts[o + g]);
        hi = Math.max(hi, pts[o + g]);
      }
    }
    largeMin += lo;
    largeMax += hi;
  }
  const largeSd = Math.sqrt(largeVar);
  const lo = Math.min(0, Math.max(largeMin, largeMean - resolution.gridSds * largeSd));
  const hi = Math.max(0, Math.min(largeMax, largeMean + resolution.gridSds * largeSd));
  // Few large markers: room for many atoms at the same cost (the work is markers × atoms).
  const atomBudget = Math.max(
    resolution.atomBudget,
    Math.min(resolution.exactBudget, Math.floor(resolution.atomWork / split)),
  );
  const gridOnly = Math.sqrt(smooth.variance) >= (resolution.gridOnlySmooth * (hi - lo)) / (resolution.gridPoints - 1);
  const large = hybridDistribution(
    pts,
    byJump,
    split,
    atomBudget,
    lo,
    hi,
    resolution.gridPoints,
    tolerance,
    gridOnly ? Infinity : resolution.atomFloor,
  );
  // The grid widened the large part a little; the smooth part gives that variance back
  // (up to half of its own), so the sum keeps its exact variance.
  const smoothPart =
    smooth.variance > 0
      ? standardized({ ...smooth, variance: smooth.variance - Math.min(large.addedVariance, smooth.variance / 2) })
      : null;
  return largeWithSmooth(large, base, smoothPart, mean, sd, min, max, tolerance);
}

/**
 * Upper bound of the number of distinct sums: per group of identical markers, 2k + 1
 * sums for k additive-shaped ones, (k + 1)(k + 2)/2 otherwise, multiplied over groups; and
 * when every value is a multiple of one small unit (rounded published weights), the
 * number of multiples in the range. Stops counting once past 2^31.
 */
export function supportBound(pts: Float64Array, order: ArrayLike<number>, n: number, tolerance: number): number {
  // Groups of identical markers, found by their first value and then compared in full
  // (numeric keys: this runs for every trait of every profile).
  const groups = new Map<number, Array<{ v1: number; v2: number; count: number; additive: boolean }>>();
  for (let j = 0; j < n; j++) {
    const o = STRIDE * order[j];
    const same = groups.get(pts[o]);
    const g = same?.find((x) => x.v1 === pts[o + 1] && x.v2 === pts[o + 2]);
    if (g) g.count++;
    else {
      const group = {
        v1: pts[o + 1],
        v2: pts[o + 2],
        count: 1,
        additive: Math.abs(pts[o + 2] - pts[o] - 2 * (pts[o + 1] - pts[o])) <= tolerance,
      };
      if (same) same.push(group);
      else groups.set(pts[o], [group]);
    }
  }
  let bound = 1;
  outer: for (const same of groups.values())
    for (const g of same) {
      bound *= g.additive ? 2 * g.count + 1 : ((g.count + 1) * (g.count + 2)) / 2;
      if (bound > 2 ** 31) break outer;
    }
  // Lattice: every value an integer multiple of 10^-d for some d ≤ 6.
  let lo = 0;
  let hi = 0;
  for (let j = 0; j < n; j++) {
    const o = STRIDE * order[j];
    lo += Math.min(pts[o], pts[o + 1], pts[o + 2]);
    hi += Math.max(pts[o], pts[o + 1], pts[o + 2]);
  }
  for (let d = 0; d <= 6; d++) {
    const scale = 10 ** d;
    let ok = true;
    for (let j = 0; j < n; j++) {
      for (let g = 0; g < 3 && ok; g++) {
        const v = pts[STRIDE * order[j] + g] * scale;
        if (Math.abs(v - Math.round(v)) > 1e-6 * Math.max(1, Math.abs(v))) ok = false;
      }
      if (!ok) break;
    }
    if (ok) return Math.min(bound, Math.round((hi - lo) * scale) + 1);
  }
  return bound;
}

function markerMoments(pts: Float64Array, o: number): Moments {
  const p0 = pts[o + 3];
  const p1 = pts[o + 4];
  const p2 = pts[o + 5];
  const e = p0 * pts[o] + p1 * pts[o + 1] + p2 * pts[o + 2];
  const d0 = pts[o] - e;
  const d1 = pts[o + 1] - e;
  const d2 = pts[o + 2] - e;
  const m2 = p0 * d0 * d0 + p1 * d1 * d1 + p2 * d2 * d2;
  const m3 = p0 * d0 * d0 * d0 + p1 * d1 * d1 * d1 + p2 * d2 * d2 * d2;
  const m4 = p0 * d0 ** 4 + p1 * d1 ** 4 + p2 * d2 ** 4;
  return { mean: e, variance: m2, k3: m3, k4: m4 - 3 * m2 * m2 };
}

interface Standardized {
  mean: number;
  sd: number;
  g1: number;
  g2: number;
}

function standardized(m: Moments): Standardized {
  const sd = Math.sqrt(m.variance);
  return { mean: m.mean, sd, g1: m.k3 / sd ** 3, g2: m.k4 / m.variance ** 2 };
}

function pointMass(value: number, min: number, max: number): ScoreDistribution {
  return {
    method: 'exact',
    mean: value,
    sd: 0,
    min,
    max,
    cdf: (s) => (s < value - 1e-12 ? 0 : s > value + 1e-12 ? 1 : 0.5),
    density: () => [[value, 1]],
    atoms: () => ({ values: Float64Array.of(value), probs: Float64Array.of(1) }),
    tolerance: 1e-12,
    bytes: 0,
  };
}

function atomDistribution(
  atoms: Atoms,
  base: number,
  mean: number,
  sd: number,
  min: number,
  max: number,
  tolerance: number,
): ScoreDistribution {
  const { values, probs } = atoms;
  const m = values.length;
  const below = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) below[i + 1] = below[i] + probs[i];
  const total = below[m];
  return {
    method: 'exact',
    mean,
    sd,
    min,
    max,
    cdf(score) {
      return clamp01(atomMidRank(values, probs, below, score - base, tolerance) / total);
    },
    density() {
      if (m <= DENSITY_POINTS) return Array.from(values, (v, i) => [v + base, probs[i] / total] as [number, number]);
      const first = values[0];
      const width = (values[m - 1] - first) / DENSITY_POINTS;
      const bins = new Float64Array(DENSITY_POINTS);
      for (let i = 0; i < m; i++)
        bins[Math.min(DENSITY_POINTS - 1, Math.floor((values[i] - first) / width))] += probs[i] / total;
      return Array.from(bins, (p, b) => [first + base + (b + 0.5) * width, p] as [number, number]);
    },
    atoms: () => ({ values: values.map((v) => v + base), probs: probs.map((p) => p / total) }),
    tolerance,
    bytes: 24 * m,
  };
}

function smoothDistribution(
  base: number,
  r: Standardized,
  mean: number,
  sd: number,
  min: number,
  max: number,
): ScoreDistribution {
  return {
    method: 'normal',
    mean,
    sd,
    min,
    max,
    cdf: (score) => edgeworthCdf((score - base - r.mean) / r.sd, r.g1, r.g2),
    density: () =>
      densityPoints(mean, sd, min, max, (x) => edgeworthPdf((x - base - r.mean) / r.sd, r.g1, r.g2) / r.sd),
    atoms: () => NO_ATOMS,
    tolerance: 0,
    bytes: 0,
  };
}

/**
 * Mass of the atoms below s plus half of one at s (within tolerance): values ascending,
 * below[i] the mass of atoms 0..i-1.
 */
function atomMidRank(
  values: Float64Array,
  probs: Float64Array,
  below: Float64Array,
  s: number,
  tolerance: number,
): number {
  const m = values.length;
  let lo = 0;
  let hi = m;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < s - tolerance) lo = mid + 1;
    else hi = mid;
  }
  return below[lo] + (lo < m && Math.abs(values[lo] - s) <= tolerance ? 0.5 * probs[lo] : 0);
}

function largeWithSmooth(
  large: Hybrid,
  base: number,
  r: Standardized | null,
  mean: number,
  sd: number,
  min: number,
  max: number,
  tolerance: number,
): ScoreDistribution {
  const { values, probs, lo, h, mass } = large;
  const m = values.length;
  const g = mass.length;
  const atomsBelow = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) atomsBelow[i + 1] = atomsBelow[i] + probs[i];
  const gridCum = new Float64Array(g + 1);
  for (let k = 0; k < g; k++) gridCum[k + 1] = gridCum[k] + mass[k];
  const total = atomsBelow[m] + gridCum[g];
  const density = () => largeDensity(large, base, mean, sd, min, max, r);
  if (!r) {
    // Atoms: exact mid-rank. Grid: the mid-rank CDF between grid points, interpolated
    // linearly, which is the exact mid-rank of an atom whose mass was split between them.
    const gridMid = (k: number) => gridCum[k] + 0.5 * mass[k];
    return {
      method: 'grid',
      mean,
      sd,
      min,
      max,
      cdf(score) {
        const s = score - base;
        let acc = atomMidRank(values, probs, atomsBelow, s, tolerance);
        if (g) {
          const u = (s - lo) / h;
          if (u >= g - 1) acc += u >= g ? gridCum[g] : gridMid(g - 1) + (u - (g - 1)) * (gridCum[g] - gridMid(g - 1));
          else if (u > 0) {
            const k = Math.floor(u);
            acc += gridMid(k) + (u - k) * (gridMid(k + 1) - gridMid(k));
          } else if (u > -1) acc += (1 + u) * gridMid(0);
        }
        return clamp01(acc / total);
      },
      density,
      atoms: () => ({ values: values.map((v) => v + base), probs: probs.map((p) => p / total) }),
      tolerance,
      bytes: 24 * m + 16 * g,
    };
  }
  // With a smooth part R: P(S ≤ s) = Σ atoms P_a F_R(s − v_a) + Σ grid mass_k F_R(s − x_k);
  // terms far below s contribute their whole mass, far above nothing.
  const reach = 9 * r.sd;
  return {
    method: 'grid',
    mean,
    sd,
    min,
    max,
    cdf(score) {
      const x = score - base - r.mean;
      let acc = 0;
      // Atoms.
      let a = 0;
      let b = m;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if (values[mid] < x - reach) a = mid + 1;
        else b = mid;
      }
      acc += atomsBelow[a];
      for (let i = a; i < m && values[i] <= x + reach; i++)
        acc += probs[i] * edgeworthCdf((x - values[i]) / r.sd, r.g1, r.g2);
      // Grid.
      if (g) {
        const kFull = Math.floor((x - reach - lo) / h);
        const kNone = Math.ceil((x + reach - lo) / h);
        const ka = Math.max(0, kFull + 1);
        const kb = Math.min(g - 1, kNone - 1);
        acc += gridCum[Math.min(g, ka)];
        for (let k = ka; k <= kb; k++)
          if (mass[k] !== 0) acc += mass[k] * edgeworthCdf((x - lo - k * h) / r.sd, r.g1, r.g2);
      }
      return clamp01(acc / total);
    },
    density,
    atoms: () => NO_ATOMS,
    tolerance,
    bytes: 24 * m + 16 * g,
  };
}

/** Density for the plot: atoms and grid gathered into 101 bins, smoothed by R when there is one. */
function largeDensity(
  large: Hybrid,
  base: number,
  mean: number,
  sd: number,
  min: number,
  max: number,
  r: Standardized | null,
): Array<[number, number]> {
  const a = Math.max(min, mean - 4 * sd);
  const b = Math.min(max, mean + 4 * sd);
  if (!(b > a)) return [[mean, 1]];
  const dx = (b - a) / (DENSITY_POINTS - 1);
  const bins = new Float64Array(DENSITY_POINTS);
  let total = 0;
  const shift = base + (r ? r.mean : 0);
  const add = (x: number, p: number) => {
    total += p;
    const u = Math.round((x + shift - a) / dx);
    if (u >= 0 && u < DENSITY_POINTS) bins[u] += p;
  };
  large.values.forEach((v, i) => add(v, large.probs[i]));
  large.mass.forEach((p, k) => p && add(large.lo + k * large.h, p));
  if (!r) return Array.from(bins, (p, i) => [a + i * dx, p / (total * dx)] as [number, number]);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < DENSITY_POINTS; i++) {
    let d = 0;
    for (let j = 0; j < DENSITY_POINTS; j++)
      if (bins[j]) d += bins[j] * edgeworthPdf(((i - j) * dx) / r.sd, r.g1, r.g2);
    out.push([a + i * dx, d / (total * r.sd)]);
  }
  return out;
}

function densityPoints(
  mean: number,
  sd: number,
  min: number,
  max: number,
  pdf: (x: number) => number,
): Array<[number, number]> {
  const a = Math.max(min, mean - 4 * sd);
  const b = Math.min(max, mean + 4 * sd);
  if (!(b > a)) return [[mean, 1]];
  return Array.from({ length: DENSITY_POINTS }, (_, i) => {
    const x = a + ((b - a) * i) / (DENSITY_POINTS - 1);
    return [x, pdf(x)] as [number, number];
  });
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
