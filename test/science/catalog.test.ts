/** The shipped catalog: loadable, complete, traceable; the engine's choice of ancestry on simulated genotypes. */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createScienceEngine } from '../../src/service/science/index.js';
import { loadAncestryPanel } from '../../src/service/science/ancestry/index.js';
import { compileCatalog } from '../../src/service/science/catalog.js';
import { COMPILED_CATALOG_FILE, loadCompiledCatalog } from '../../src/service/science/compiled-catalog.js';
import { recommendationsOf } from '../../src/service/science/format.js';
import { traitRevision } from '../../src/service/science/revision.js';
import { contextOf, inferredAncestry, traitOf } from './helpers.js';
import { combine, genotypeOf, panelMarkers } from '../support/genotypes.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const engine = createScienceEngine({ resourcesDir });
const file = shippedCatalog();

describe('shipped catalog', () => {
  it('has featured traits and the generated GWAS set, with unique codes', () => {
    const featured = engine.traits.filter((t) => t.featured);
    expect(featured.length).toBeGreaterThanOrEqual(10);
    expect(engine.traits.length).toBeGreaterThan(1500);
    expect(new Set(engine.traits.map((t) => t.code)).size).toBe(engine.traits.length);
    expect(engine.traits.map((t) => t.code).filter((code) => !/^[a-z0-9_]+$/.test(code))).toEqual([]);
  });

  it('gives every trait texts, quality fields, a citation and a revision that matches its definition', () => {
    // Every failing check of every trait, in words (one expect each would cost more than the checks).
    const bad: string[] = [];
    const check = (t: (typeof file.traits)[number], ok: boolean, what: string) => {
      if (!ok) bad.push(`${t.code}: ${what}`);
    };
    for (const t of file.traits) {
      check(t, t.name.length > 0, 'no name');
      check(t, t.overview.length > 40, `overview of ${t.overview.length} characters`);
      check(t, ['risky', 'good', 'neutral'].includes(t.connotation), `connotation ${t.connotation}`);
      check(t, ['free', 'basic'].includes(t.default_pricing), `pricing ${t.default_pricing}`);
      const recommendations = recommendationsOf(t).length;
      check(t, recommendations === 5, `${recommendations} recommendations`);
      check(t, t.quality.markers === t.markers.rsid.length, `quality.markers ${t.quality.markers}`);
      check(t, Boolean(t.quality.study_id), 'no study id');
      check(t, /^\d+$/.test(t.quality.pmid ?? ''), `PMID ${t.quality.pmid}`);
      check(t, ['strong', 'moderate', 'limited', 'suggestive'].includes(t.quality.evidence), t.quality.evidence);
      const revision = traitRevision(t);
      check(t, t.revision === revision, `revision ${t.revision}, its definition's ${revision}`);
      const loaded = engine.trait(t.code)?.revision;
      check(t, loaded === t.revision, `the engine's revision ${loaded}`);
    }
    expect(bad).toEqual([]);
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

describe('a trait’s revision', () => {
  it('is the hash of its canonical JSON: the same for the same definition, whatever the code that works it out', () => {
    // Worked out for this definition by the element-by-element canonical JSON of the catalog
    // build: a faster way of writing that JSON must give every trait the revision it had.
    const t = traitOf('pinned', [
      { rsid: 11, effect: 'A', other: 'G', weight: 0.3, freq: 0.4 },
      { rsid: 12, effect: 'C', other: 'T', weight: -0.25, freq: [0.1, 0.2, 0.3, 0.4, 0.5] },
    ]);
    t.baseline = {
      scale: 'log_odds',
      binary: true,
      limits: null,
      scale_note: null,
      frequencies: [
        {
          value: 0.1,
          sex: null,
          population: 'EUR',
          measure: 'prevalence',
          horizon: 'in adults',
          source: 'Smith et al.',
          pmid: '12345678',
        },
      ],
    };
    t.evidence.flags = ['one', 'two'];
    expect(traitRevision(t)).toBe('69bde42c1802fc35');
  });
});

describe('the compiled catalog the engine loads (catalog.bin)', () => {
  it('is the shipped catalog.json.gz compiled: every marker array and trait the same', () => {
    const loaded = loadCompiledCatalog(resourcesDir);
    const compiled = compileCatalog(file.traits);
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    for (const key of ['rsid', 'effect', 'other', 'weight', 'contrib', 'freq', 'uniqueRsids', 'markerSlot'] as const) {
      expect(loaded[key].constructor, key).toBe(compiled[key].constructor);
      expect(bytes(loaded[key]).equals(bytes(compiled[key])), key).toBe(true);
    }
    // Every trait in one comparison (one expect a trait spent more on expect than on comparing).
    expect(loaded.traits.map((t) => ({ ...t, recommendations: t.recommendations }))).toEqual(compiled.traits);
    expect(loaded.traits.filter((t) => loaded.byCode.get(t.info.code) !== t).map((t) => t.info.code)).toEqual([]);
  });

  it('describes every trait byte for byte as the catalog does, its texts (read when first asked for) in their places', () => {
    const loaded = loadCompiledCatalog(resourcesDir);
    const compiled = compileCatalog(file.traits);
    // One trait's texts read first, alone; then every description as the API sends it.
    const k = loaded.traits.length >> 1;
    expect(loaded.traits[k].info.evidence).toEqual(compiled.traits[k].info.evidence);
    expect(JSON.stringify(loaded.traits.map((t) => t.info))).toBe(JSON.stringify(compiled.traits.map((t) => t.info)));
    expect(JSON.stringify(loaded.traits.map((t) => ({ ...t.info })))).toBe(
      JSON.stringify(compiled.traits.map((t) => t.info)),
    );
  });

  it('is refused, saying how to rebuild it, when missing or compiled from another catalog.json.gz', () => {
    const dir = mkdtempSync(join(tmpdir(), 'traitscope-compiled-'));
    try {
      mkdirSync(join(dir, 'catalog'));
      copyFileSync(join(resourcesDir, 'catalog', 'catalog.json.gz'), join(dir, 'catalog', 'catalog.json.gz'));
      expect(() => loadCompiledCatalog(dir)).toThrow(/Cannot read the trait catalog .*npm run build:catalog/);
      copyFileSync(join(resourcesDir, COMPILED_CATALOG_FILE), join(dir, COMPILED_CATALOG_FILE));
      expect(loadCompiledCatalog(dir).traits.length).toBe(file.traits.length);
      writeFileSync(join(dir, 'catalog', 'catalog.json.gz'), gzipSync(JSON.stringify({ ...file, traits: [] })));
      expect(() => loadCompiledCatalog(dir)).toThrow(
        /catalog\.bin was not compiled from the catalog\/catalog\.json\.gz beside it\. Rebuild it with: npm run build:catalog -- --compiled-only/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
    // The trait's markers beside the AISNPs and 10 % of the panel's other SNPs (about 6,900), drawn
    // from AFR frequencies: enough for a confident inference, which is all this needs.
    const g = genotypeOf(
      combine([heightMarkers(), panelMarkers(77, { population: 'AFR', share: 0.1, panel })], 'rsid'),
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
