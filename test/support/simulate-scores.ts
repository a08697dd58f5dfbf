/**
 * Scores of people simulated from a trait's own reference frequencies (Hardy–Weinberg,
 * independent markers; X-chromosome markers hemizygous for XY), with a seeded PRNG: the
 * population the percentiles claim to describe, drawn independently of the code that
 * computes them.
 */
import type { CatalogTrait } from '../../src/service/science/format.js';
import type { Population } from '../../src/service/science/types.js';

/** `pop`: one super-population, or a mixture (shares adding up to 1: each allele drawn from population k with probability q_k). */
export function simulateScores(
  t: CatalogTrait,
  pop: Population | Record<Population, number>,
  count: number,
  random: () => number,
  xy = false,
): Float64Array {
  const m = t.markers;
  const n = m.rsid.length;
  const x = new Set(xy ? (m.x ?? []) : []);
  // Per marker: cumulative genotype probabilities and the three contributions.
  const cut0 = new Float64Array(n);
  const cut1 = new Float64Array(n);
  const c = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const p =
      typeof pop === 'string'
        ? m.freq[pop][i]
        : (Object.keys(pop) as Population[]).reduce((f, k) => f + pop[k] * m.freq[k][i], 0);
    const q = 1 - p;
    if (x.has(i)) {
      cut0[i] = q;
      cut1[i] = q;
    } else {
      cut0[i] = q * q;
      cut1[i] = q * q + 2 * p * q;
    }
    const w = m.weight[i];
    c.set(m.dosage_weights ? m.dosage_weights.slice(3 * i, 3 * i + 3) : [0, w, 2 * w], 3 * i);
  }
  const out = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const u = random();
      // The genotype's index (0, 1 or 2 effect alleles) without a branch the CPU would
      // mispredict about half the time at common markers: twice as fast, the same draws.
      s += c[3 * i + +(u >= cut0[i]) + +(u >= cut1[i])];
    }
    out[k] = s;
  }
  return out;
}

/** Kolmogorov–Smirnov statistic of a sample against U(0, 1), and its asymptotic p-value. */
export function ksUniform(sample: ArrayLike<number>): { d: number; p: number } {
  const u = Float64Array.from(sample).sort();
  const n = u.length;
  let d = 0;
  for (let i = 0; i < n; i++) d = Math.max(d, (i + 1) / n - u[i], u[i] - i / n);
  // Stephens' correction of the Kolmogorov limit distribution for finite n.
  const t = (Math.sqrt(n) + 0.12 + 0.11 / Math.sqrt(n)) * d;
  let p = 0;
  for (let j = 1; j <= 100; j++) p += 2 * (-1) ** (j - 1) * Math.exp(-2 * j * j * t * t);
  return { d, p: Math.min(1, Math.max(0, p)) };
}
