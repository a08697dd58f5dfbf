/** The shipped catalog: loadable, complete, traceable; the engine's choice of ancestry on simulated genotypes. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScienceEngine } from '../../src/service/science/index.js';
import { loadAncestryPanel } from '../../src/service/science/ancestry/index.js';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import { recommendationsOf } from '../../src/service/science/format.js';
import { traitRevision } from '../../src/service/science/revision.js';
import { contextOf, inferredAncestry } from './helpers.js';
import { combine, genotypeOf, panelMarkers } from '../support/genotypes.js';

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
      for (const col of Object.values(m.freq))
        for (const p of col) if (!(p >= 0 && p <= 1)) bad.push(`${t.code}: frequency ${p}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('the ancestry the engine uses', () => {
  const panel = loadAncestryPanel(resourcesDir);
  /** The height trait's markers, homozygous for the other allele. */
  const heightMarkers = () => {
    const t = file.traits.find((x) => x.code === 'height')!;
    return t.markers.rsid.map((rsid, i) => ({ rsid, chrom: 1, pos: 1000 + i, genotype: t.markers.other[i].repeat(2) }));
  };

  it('is inferred from the file for ethnicity 0, and an ethnicity or a passed inference overrides it', () => {
    // The trait's markers beside the AISNPs and 90 % of the panel's other SNPs, drawn from AFR frequencies.
    const g = genotypeOf(
      combine([heightMarkers(), panelMarkers(77, { population: 'AFR', share: 0.9, panel })], 'rsid'),
    );
    const a = engine.assess('height', g, contextOf(0))!;
    expect(a.population).toBe('AFR');
    expect(a.population_source).toBe('inferred');
    expect(engine.assess('height', g, contextOf(0, { ancestry: inferredAncestry('EAS') }))!.population).toBe('EAS');
    expect(engine.assess('height', g, contextOf(5, { ancestry: inferredAncestry('EAS') }))).toMatchObject({
      population: 'SAS',
      population_source: 'ethnicity',
    });
  });

  it('is assumed, and said to be, when the file holds no ancestry marker', () => {
    const g = genotypeOf(heightMarkers());
    const a = engine.assess('height', g, contextOf(0))!;
    expect(a.population_source).toBe('assumed');
  });
});
