/**
 * Statistical check of the percentile method: people simulated under Hardy–Weinberg from
 * the catalog's own frequencies (seeded PRNG) must land in the level bands in the bands'
 * proportions (10/20/40/20/10 %). Stated tolerance: every band within 3 percentage points
 * with 3,000 simulated people (3.4 binomial standard deviations for the 40 % band, more for
 * the others; the PRNG is seeded, so the check is reproducible).
 *
 * For traits scored with the exact discrete distribution the mid-rank percentile is not
 * uniform band by band (there are few distinct scores), but its mean is exactly 50; we
 * check that within 4 standard errors.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alleleFromLetter, makeCall } from '../../src/service/genotype/encoding.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import { LEVEL_UPPER_BOUNDS } from '../../src/service/science/levels.js';
import { POPULATION_ORDER, type CatalogTrait } from '../../src/service/science/format.js';
import type { Population } from '../../src/service/science/types.js';
import { rng } from '../support/prng.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const engine = createScienceEngine({ resourcesDir });
const defs = new Map(readCatalogFile(resourcesDir).traits.map((t) => [t.code, t]));
const PEOPLE = 3000;
const BAND_TOLERANCE = 0.03;
const BAND_SHARES = [0.1, 0.2, 0.4, 0.2, 0.1];

/** One simulated person: every marker drawn under HWE in the population; a share of markers left out. */
function simulate(t: CatalogTrait, pop: Population, random: () => number, coverage: number): Genotype {
  const m = t.markers;
  const f = m.freq[pop];
  const rsids: number[] = [];
  const calls: number[] = [];
  for (let i = 0; i < m.rsid.length; i++) {
    if (coverage < 1 && random() >= coverage) continue;
    const e = alleleFromLetter(m.effect[i]);
    const o = alleleFromLetter(m.other[i]);
    rsids.push(m.rsid[i]);
    calls.push(makeCall(random() < f[i] ? e : o, random() < f[i] ? e : o));
  }
  return { rsids: Uint32Array.from(rsids), calls: Uint8Array.from(calls), chroms: new Uint8Array(rsids.length), positions: new Uint32Array(rsids.length) };
}

function percentiles(code: string, pop: Population, seed: number, coverage = 1): { pcts: number[]; methods: Set<string> } {
  const t = defs.get(code)!;
  const random = rng(seed);
  const ctx = { ethnicity: POPULATION_ORDER.indexOf(pop) + 1, inferred: null };
  const pcts: number[] = [];
  const methods = new Set<string>();
  for (let k = 0; k < PEOPLE; k++) {
    const a = engine.assess(code, simulate(t, pop, random, coverage), ctx);
    if (!a) continue; // below the coverage threshold
    pcts.push(a.percentile);
    methods.add(a.distribution.method);
  }
  return { pcts, methods };
}

function bandShares(pcts: number[]): number[] {
  const counts = [0, 0, 0, 0, 0];
  for (const p of pcts) {
    let b = LEVEL_UPPER_BOUNDS.findIndex((u) => p < u);
    if (b < 0) b = 4;
    counts[b]++;
  }
  return counts.map((c) => c / pcts.length);
}

describe('percentiles of a simulated population are uniform', () => {
  it.each([
    ['type_2_diabetes', 'EUR', 11],
    ['height', 'AFR', 12],
    ['ldl_cholesterol', 'EAS', 13],
    ['systolic_blood_pressure', 'SAS', 14],
    ['hdl_cholesterol', 'AMR', 15],
  ] as const)('%s in %s: every level band within 3 points of its share', (code, pop, seed) => {
    const { pcts, methods } = percentiles(code, pop, seed);
    expect(methods).toEqual(new Set(['normal']));
    expect(pcts.length).toBe(PEOPLE);
    const shares = bandShares(pcts);
    shares.forEach((s, b) => expect(Math.abs(s - BAND_SHARES[b]), `band ${b + 1}: ${s}`).toBeLessThanOrEqual(BAND_TOLERANCE));
  });

  it('stays uniform when a third of the markers are missing (expected-dosage policy)', () => {
    const { pcts } = percentiles('body_mass_index', 'EUR', 21, 0.67);
    expect(pcts.length).toBeGreaterThan(PEOPLE * 0.9);
    const shares = bandShares(pcts);
    shares.forEach((s, b) => expect(Math.abs(s - BAND_SHARES[b]), `band ${b + 1}: ${s}`).toBeLessThanOrEqual(BAND_TOLERANCE));
  });

  it('has mean percentile 50 for traits scored with the exact distribution', () => {
    const small = [...defs.values()].filter((t) => t.markers.rsid.length >= 2 && t.markers.rsid.length <= 6).slice(0, 4);
    expect(small.length).toBe(4);
    small.forEach((t, i) => {
      const { pcts, methods } = percentiles(t.code, 'EUR', 31 + i);
      expect(methods).toEqual(new Set(['exact']));
      const mean = pcts.reduce((a, b) => a + b, 0) / pcts.length;
      const sd = Math.sqrt(pcts.reduce((a, b) => a + (b - mean) ** 2, 0) / pcts.length);
      expect(Math.abs(mean - 50), `${t.code}: mean ${mean}`).toBeLessThanOrEqual(4 * (sd / Math.sqrt(pcts.length)) + 1e-9);
    });
  });
});
