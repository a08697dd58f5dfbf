/** The shipped catalog and ancestry model: loadable, complete, traceable; ancestry inference on simulated genotypes. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScienceEngine } from '../../src/service/science/index.js';
import { compileAncestryModel, inferAncestryWith, loadAncestryModel } from '../../src/service/science/ancestry.js';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import { recommendationsOf } from '../../src/service/science/format.js';
import { traitRevision } from '../../src/service/science/revision.js';
import { alleleFromLetter, makeCall } from '../../src/service/genotype/encoding.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import type { Population } from '../../src/service/science/types.js';
import { contextOf, inferredAncestry } from './helpers.js';
import { rng } from '../support/prng.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const engine = createScienceEngine({ resourcesDir });
const file = readCatalogFile(resourcesDir);

describe('shipped catalog', () => {
  it('has featured traits and the generated GWAS set, with unique codes', () => {
    const featured = engine.traits.filter((t) => t.featured);
    expect(featured.length).toBeGreaterThanOrEqual(10);
    expect(engine.traits.length).toBeGreaterThan(1500);
    expect(new Set(engine.traits.map((t) => t.code)).size).toBe(engine.traits.length);
    for (const t of engine.traits) expect(t.code).toMatch(/^[a-z0-9_]+$/);
  });

  it('gives every trait texts, quality fields, a citation and a revision that matches its definition', () => {
    for (const t of file.traits) {
      expect(t.name.length).toBeGreaterThan(0);
      expect(t.overview.length).toBeGreaterThan(40);
      expect(['risky', 'good', 'neutral']).toContain(t.connotation);
      expect(['free', 'basic']).toContain(t.default_pricing);
      expect(recommendationsOf(t)).toHaveLength(5);
      expect(t.quality.markers).toBe(t.markers.rsid.length);
      expect(t.quality.study_id).toBeTruthy();
      expect(t.quality.pmid).toMatch(/^\d+$/);
      expect(['strong', 'moderate', 'limited', 'suggestive']).toContain(t.quality.evidence);
      expect(t.revision).toBe(traitRevision(t));
      expect(engine.trait(t.code)?.revision).toBe(t.revision);
    }
  });

  it('holds only usable numbers: A/C/G/T alleles, finite weights, frequencies in [0, 1]', () => {
    const bad: string[] = [];
    for (const t of file.traits) {
      const m = t.markers;
      if (!/^[ACGT]*$/.test(m.effect) || !/^[ACGT]*$/.test(m.other)) bad.push(`${t.code}: alleles`);
      for (let i = 0; i < m.rsid.length; i++) {
        if (m.effect[i] === m.other[i]) bad.push(`${t.code} rs${m.rsid[i]}: effect = other`);
        if (i > 0 && !(m.rsid[i] > m.rsid[i - 1])) bad.push(`${t.code}: rsids not ascending`);
        if (!Number.isFinite(m.weight[i])) bad.push(`${t.code} rs${m.rsid[i]}: weight`);
      }
      for (const col of Object.values(m.freq)) for (const p of col) if (!(p >= 0 && p <= 1)) bad.push(`${t.code}: frequency ${p}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('ancestry inference', () => {
  const model = loadAncestryModel(resourcesDir);
  const n = model.rsid.length;
  const pops: Population[] = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'];
  // A population's expected ALT count per SNP from the model itself: center + scale · R · (mean PCs of its samples).
  function expectedCounts(pop: number): Float64Array {
    const mean = new Float64Array(model.nPcs);
    let count = 0;
    for (let s = 0; s < model.sampleSuperPop.length; s++) {
      if (model.sampleSuperPop[s] !== pop) continue;
      count++;
      for (let k = 0; k < model.nPcs; k++) mean[k] += model.samplePcs[s * model.nPcs + k];
    }
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let x = 0;
      for (let k = 0; k < model.nPcs; k++) x += model.rotation[k * n + i] * (mean[k] / count);
      out[i] = Math.min(2, Math.max(0, model.center[i] + model.scale[i] * x));
    }
    return out;
  }
  function simulate(pop: number, seed: number, keep: number): Genotype {
    const counts = expectedCounts(pop);
    const r = rng(seed);
    const rsids: number[] = [];
    const calls: number[] = [];
    for (let i = 0; i < n; i++) {
      if (r() > keep) continue;
      const p = counts[i] / 2;
      const a1 = r() < p ? model.alt[i] : model.ref[i];
      const a2 = r() < p ? model.alt[i] : model.ref[i];
      rsids.push(model.rsid[i]);
      calls.push(makeCall(a1, a2));
    }
    return { rsids: Uint32Array.from(rsids), calls: Uint8Array.from(calls), chroms: new Uint8Array(rsids.length), positions: new Uint32Array(rsids.length) };
  }

  it.each(pops.map((p, i) => [p, i] as const))('assigns a simulated %s genotype to its super-population, with 60 %% of the SNPs', (pop, i) => {
    for (const seed of [1, 2, 3]) {
      const est = inferAncestryWith(model, simulate(i, seed * 10 + i, 0.6))!;
      expect(est).not.toBeNull();
      expect(est.population).toBe(pop);
      expect(est.markers_used).toBeGreaterThan(1000);
      expect(Object.values(est.proportions).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
  });

  it('is used for ethnicity 0 when the service did not pass an inferred population', () => {
    const g0 = simulate(2, 77, 0.9); // AFR
    const t = file.traits.find((x) => x.code === 'height')!;
    // Add the trait's markers (homozygous other allele) to the simulated ancestry SNPs.
    const entries = new Map<number, number>();
    g0.rsids.forEach((rs, i) => entries.set(rs, g0.calls[i]));
    t.markers.rsid.forEach((rs, i) => entries.set(rs, makeCall(alleleFromLetter(t.markers.other[i]), alleleFromLetter(t.markers.other[i]))));
    const sorted = [...entries].sort((a, b) => a[0] - b[0]);
    const g: Genotype = { rsids: Uint32Array.from(sorted, (e) => e[0]), calls: Uint8Array.from(sorted, (e) => e[1]), chroms: new Uint8Array(sorted.length), positions: new Uint32Array(sorted.length) };
    const a = engine.assess('height', g, contextOf(0))!;
    expect(a.population).toBe('AFR');
    expect(a.population_source).toBe('inferred');
    expect(engine.assess('height', g, contextOf(0, { ancestry: inferredAncestry('EAS') }))!.population).toBe('EAS');
    expect(engine.assess('height', g, contextOf(5, { ancestry: inferredAncestry('EAS') }))).toMatchObject({ population: 'SAS', population_source: 'ethnicity' });
  });

  it('returns null with too few model SNPs', () => {
    expect(inferAncestryWith(model, simulate(0, 5, 0.02))).toBeNull();
  });

  it('least-squares projection returns the PC scores exactly when every SNP is present', () => {
    // 120 SNPs; PC k loads equally on the SNPs i with i % 6 === k (orthonormal columns).
    // Counts 0/1/2 with center 1 and scale 1 give x ∈ {−1, 0, 1}; x = R z with z_k = x · √20.
    const reps = 20;
    const rsids = Array.from({ length: 6 * reps }, (_, i) => i + 1);
    const pattern = [2, 0, 1, 2, 1, 1]; // ALT counts for i % 6 = 0..5
    const m = compileAncestryModel({
      source: 'test',
      snps: {
        rsid: rsids,
        ref: 'A'.repeat(rsids.length),
        alt: 'G'.repeat(rsids.length),
        center: rsids.map(() => 1),
        scale: rsids.map(() => 1),
        rotation: [0, 1, 2, 3, 4].map((k) => rsids.map((_, i) => (i % 6 === k ? 1 / Math.sqrt(reps) : 0))),
      },
      samples: { id: ['a'], pop: ['GBR'], super_pop: ['EUR'], pcs: [[0], [0], [0], [0], [0]] },
    });
    const calls = rsids.map((_, i) => {
      const c = pattern[i % 6];
      return makeCall(c >= 1 ? 3 : 1, c >= 2 ? 3 : 1); // G = 3, A = 1
    });
    const g: Genotype = { rsids: Uint32Array.from(rsids), calls: Uint8Array.from(calls), chroms: new Uint8Array(rsids.length), positions: new Uint32Array(rsids.length) };
    const est = inferAncestryWith(m, g)!;
    expect(est.pcs).toEqual([1, -1, 0, 1, 0].map((x) => expect.closeTo(x * Math.sqrt(reps), 10)));
    // Dropping half of the SNPs keeps the scores (no shrinkage towards zero).
    const half: Genotype = { rsids: g.rsids.filter((_, i) => i % 12 < 6), calls: g.calls.filter((_, i) => i % 12 < 6), chroms: new Uint8Array(60), positions: new Uint32Array(60) };
    expect(inferAncestryWith(m, half)).toBeNull(); // 60 < 100 SNPs
  });
});
