/** Importing PGS Catalog scoring files (real examples in fixtures/, see fixtures/SOURCE.txt) and scoring them as custom traits. */
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importPgsScoringFile } from '../../src/service/science/pgs-import.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import { loadKgTable } from '../../src/service/science/kg-table.js';
import { traitRevision } from '../../src/service/science/revision.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import { liftPosition, readChain } from '../../scripts/catalog/liftover.js';
import { contextOf, genotypeOf } from './helpers.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));
const load = (name: string, extra: object = {}) => importPgsScoringFile(fixture(name), { resourcesDir, ...extra });
const EUR = contextOf(1);

function ok(r: ReturnType<typeof importPgsScoringFile>): Extract<typeof r, { ok: true }> {
  if (!r.ok) throw new Error(r.error);
  return r;
}
function markerIndex(t: CatalogTrait, rsid: number): number {
  return t.markers.rsid.indexOf(rsid);
}

describe('PGS Catalog import', () => {
  it('reads a v2 author-reported gzipped file (PGS000001) and reports what it dropped', () => {
    const r = ok(load('PGS000001.txt.gz'));
    expect(r.report).toMatchObject({
      pgs_id: 'PGS000001',
      format_version: '2.0',
      harmonized: false,
      variants: 77,
      usable: 67,
      weight_model: 'additive',
      percentile: true,
    });
    // 75 of 77 matched (two palindromic variants without a frequency cannot be strand-checked);
    // 67 of those have frequencies (≥ 75 %), so the other 8 leave the score — and the name says so.
    expect(r.report.match_rate).toBeCloseTo(75 / 77, 12);
    expect(r.report.dropped).toEqual({ palindromic_without_frequency: 2, no_frequency: 8 });
    expect(r.report.notes.join(' ')).toMatch(/10 of the score's 77 variants are left out.*not the published score/);
    const t = r.trait;
    expect(t.code).toBe('custom_pgs000001');
    expect(t.name).toBe('Breast cancer (PGS000001, 67 of 77 variants)');
    expect(t.markers.dosage_weights).toBeUndefined();
    // rs78540526 T/C 0.16220387987485377 (first row of the file), frequencies from 1000 Genomes.
    const i = markerIndex(t, 78540526);
    expect([t.markers.effect[i], t.markers.other[i], t.markers.weight[i]]).toEqual(['T', 'C', 0.16220387987485377]);
    const kg = loadKgTable(resourcesDir).byRsid(78540526)!;
    const expectedEur = kg.alt === 'T' ? kg.altFreq[0] : 1 - kg.altFreq[0];
    expect(t.markers.freq.EUR[i]).toBeCloseTo(expectedEur, 12);
    expect(t.revision).toBe(traitRevision(t));
    expect(t.quality).toMatchObject({ markers: 67, publication_year: 2015, study_id: 'PGS000001' });
  });

  it('gives the same markers for the harmonized file of the same score', () => {
    const a = ok(load('PGS000001.txt.gz')).trait.markers;
    const b = ok(load('PGS000001_hmPOS_GRCh37.txt.gz'));
    expect(b.report.harmonized).toBe(true);
    expect(b.trait.markers).toEqual(a);
  });

  it('matches a position-only file by its GRCh38 positions as by its GRCh37 ones, and counts by build', () => {
    // PGS000001's harmonized file without rsIDs, its GRCh37 positions lifted to GRCh38 with
    // the UCSC chain (as the PGS Catalog's own GRCh38 harmonization does).
    const chain = readChain(
      join(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'liftover', 'hg19ToHg38.over.chain.gz'),
    );
    const lines = gunzipSync(fixture('PGS000001_hmPOS_GRCh37.txt.gz')).toString('utf8').split('\n');
    const header = lines.findIndex((l) => l !== '' && !l.startsWith('#'));
    const cols = lines[header].split('\t');
    const [rsid, hmRsid, hmChr, hmPos] = ['rsID', 'hm_rsID', 'hm_chr', 'hm_pos'].map((c) => cols.indexOf(c));
    let unlifted = 0;
    const grch38 = lines.map((l, i) => {
      if (l.startsWith('#HmPOS_build=')) return '#HmPOS_build=GRCh38';
      if (i <= header || l === '') return l;
      const f = l.split('\t');
      const lifted = liftPosition(chain, f[hmChr], Number(f[hmPos]));
      if (!lifted) unlifted++;
      f[hmPos] = lifted ? String(lifted.pos) : '';
      f[rsid] = f[hmRsid] = '';
      return f.join('\t');
    });
    expect(unlifted).toBe(0);
    const b37 = ok(load('PGS000001_hmPOS_GRCh37.txt.gz'));
    const b38 = ok(importPgsScoringFile(gzipSync(grch38.join('\n')), { resourcesDir }));
    expect(b38.trait.markers).toEqual(b37.trait.markers);
    expect(b38.report.matched_by).toMatchObject({ rsid: 0, hm_rsid: 0, position_grch37: 0 });
    // Matched by GRCh38 position alone: at least 75 % of the 77 (70 with the shipped position
    // index; the file with rsIDs matches 75, as a few positions are no marker Traitscope knows).
    expect(b38.report.matched_by.position_grch38).toBeGreaterThanOrEqual(Math.ceil(0.75 * 77));
    expect(b38.report.match_rate).toBeGreaterThanOrEqual(0.75);
  });

  it('keeps dominant and recessive flags as per-dosage contributions (PGS000802, plain text)', () => {
    const r = ok(load('PGS000802_hmPOS_GRCh37.txt'));
    expect(r.report.weight_model).toBe('dominance_flags');
    const t = r.trait;
    const dw = t.markers.dosage_weights!;
    const dom = markerIndex(t, 10936599); // T/C, 0.123, is_dominant
    const rec = markerIndex(t, 6061231); // A/C, 0.491, is_recessive
    expect(dw.slice(3 * dom, 3 * dom + 3)).toEqual([0, 0.123, 0.123]);
    expect(dw.slice(3 * rec, 3 * rec + 3)).toEqual([0, 0, 0.491]);

    // Score a genotype with every marker called: zero effect alleles except at these two.
    const engine = createScienceEngine({ resourcesDir });
    const base = t.markers.rsid.map(
      (rs, i) => [`rs${rs}`, t.markers.other[i] + t.markers.other[i]] as [string, string],
    );
    const withCalls = (domCall: string, recCall: string) =>
      genotypeOf(base.map(([id, gt], i) => [id, i === dom ? domCall : i === rec ? recCall : gt]));
    const E = (i: number) => t.markers.effect[i];
    const O = (i: number) => t.markers.other[i];
    expect(engine.assessCustom(t, withCalls(E(dom) + O(dom), E(rec) + O(rec)), EUR)!.score).toBeCloseTo(0.123, 12);
    expect(engine.assessCustom(t, withCalls(E(dom) + E(dom), E(rec) + O(rec)), EUR)!.score).toBeCloseTo(0.123, 12);
    expect(engine.assessCustom(t, withCalls(O(dom) + O(dom), E(rec) + E(rec)), EUR)!.score).toBeCloseTo(0.491, 12);
    const a = engine.assessCustom(t, withCalls(E(dom) + O(dom), E(rec) + E(rec)), EUR)!;
    expect(a.score).toBeCloseTo(0.614, 12);
    expect(a.coverage).toBe(1);
    expect(a.percentile).toBeGreaterThan(0);
    expect(a.percentile).toBeLessThan(100);
  });

  it('keeps dosage_0/1/2 weights and matches variants by their harmonized GRCh38 position (PGS004255)', () => {
    const r = ok(load('PGS004255_hmPOS_GRCh38.txt.gz', { minUsableShare: 0 }));
    expect(r.report.weight_model).toBe('dosage_weights');
    // HmPOS_build GRCh38: 9 of 30 are known markers there (the file's GRCh37 positions found 7 in the 1000 Genomes table alone).
    expect(r.report.matched_by).toMatchObject({ rsid: 0, hm_rsid: 0, position: 9, position_grch38: 9 });
    expect(r.report.dropped.position_not_a_known_marker).toBe(21);
    const t = r.trait;
    expect(t.markers.dosage_weights).toHaveLength(3 * t.markers.rsid.length);
    // By default a score with fewer than 75 % of its variants matched is refused, with the reasons.
    const refused = load('PGS004255_hmPOS_GRCh38.txt.gz');
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error).toMatch(/Only 9 of 30 variants could be matched \(21 position not a known marker\)/);
  });

  it('refuses haplotype and diplotype scores with a clear error', () => {
    const r = load('complex_variants_PGS000021.txt');
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/haplotype or diplotype.*single SNPs only/) });
  });

  it('keeps a score whose variants lack reference frequencies as a raw score, and says why no percentile is shown', () => {
    const r = ok(load('OPGS002493.txt.gz'));
    expect(r.report).toMatchObject({ variants: 23, usable: 23, match_rate: 1, percentile: false });
    expect(r.report.percentile_note).toMatch(
      /Only 0 of the 23 matched variants have a population frequency.*raw score/,
    );
    expect(r.trait.raw_score_only?.reason).toBe(r.report.percentile_note);
    expect(r.trait.markers.freq.EUR.every((f) => f === null)).toBe(true);
  });

  it('refuses a file when fewer than 75 % of its variants can be matched, saying why', () => {
    const b = load('pgsc_calc_customgrch37.txt');
    expect(b).toEqual({
      ok: false,
      error: expect.stringMatching(
        /Only 0 of 2 variants could be matched \(2 position not a known marker\); at least 75 % are needed/,
      ),
    });
  });

  it('reads format v1 (reference_allele) and converts OR weights to ln OR', () => {
    // rs78540526 and rs10069690 are in the bundled 1000 Genomes table (see the PGS000001 test).
    const v1 = [
      '### PGS CATALOG SCORING FILE',
      '# Polygenic Score (PGS) ID: PGS999999',
      '#weight_type=OR',
      'rsID\tchr_name\teffect_allele\treference_allele\teffect_weight',
      'rs78540526\t11\tT\tC\t1.1761',
      'rs10069690\t5\tT\tC\t1.0242',
    ].join('\n');
    const r = ok(importPgsScoringFile(gzipSync(Buffer.from(v1)), { resourcesDir, code: 'my_score', name: 'My score' }));
    expect(r.trait.code).toBe('my_score');
    expect(r.trait.name).toBe('My score');
    expect(r.trait.markers.weight).toEqual([Math.log(1.0242), Math.log(1.1761)]); // sorted by rsID
    expect(r.report.notes.join(' ')).toMatch(/natural logarithm/);
  });

  it('prefers allelefrequency_effect_<population> columns, then 1000 Genomes, then the overall frequency', () => {
    const file = [
      '#pgs_id=PGS_TEST',
      'rsID\teffect_allele\tother_allele\teffect_weight\tallelefrequency_effect\tallelefrequency_effect_EUR',
      'rs78540526\tT\tC\t0.1\t0.33\t0.25',
      'rs1\tA\tG\t0.2\t0.4\t',
    ].join('\n');
    const r = ok(importPgsScoringFile(Buffer.from(file), { resourcesDir }));
    const t = r.trait;
    const i = markerIndex(t, 78540526);
    const kg = loadKgTable(resourcesDir).byRsid(78540526)!;
    expect(t.markers.freq.EUR[i]).toBe(0.25);
    expect(t.markers.freq.AFR[i]).toBeCloseTo(kg.alt === 'T' ? kg.altFreq[2] : 1 - kg.altFreq[2], 12);
    const j = markerIndex(t, 1); // not in the table: the overall frequency everywhere
    expect(POPS.map((p) => t.markers.freq[p][j])).toEqual([0.4, 0.4, 0.4, 0.4, 0.4]);
  });

  it('explains what is wrong with files that are not scoring files', () => {
    expect(importPgsScoringFile(Buffer.from('# only comments\n'), { resourcesDir })).toEqual({
      ok: false,
      error: expect.stringMatching(/no column header row/),
    });
    expect(importPgsScoringFile(Buffer.from('a\tb\n1\t2\n'), { resourcesDir })).toEqual({
      ok: false,
      error: expect.stringMatching(/no effect_allele column/),
    });
    expect(importPgsScoringFile(Buffer.from('effect_allele\teffect_weight\nA\t0.1\n'), { resourcesDir })).toEqual({
      ok: false,
      error: expect.stringMatching(/neither an rsID column nor chromosome positions/),
    });
    expect(importPgsScoringFile(Uint8Array.from([0x1f, 0x8b, 1, 2, 3]), { resourcesDir })).toEqual({
      ok: false,
      error: expect.stringMatching(/gzipped but could not be decompressed/),
    });
  });
});

const POPS = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'] as const;

describe('every PGS Catalog example file', () => {
  // ../shared/data/pgs_catalog_examples, copied to fixtures/ (SOURCE.txt): imported, or refused with the reason.
  it.each([
    ['PGS000001.txt.gz', 'imported'],
    ['PGS000001_hmPOS_GRCh37.txt.gz', 'imported'],
    ['PGS000002.txt.gz', 'imported'],
    ['PGS000002_hmPOS_GRCh37.txt.gz', 'imported'],
    ['PGS000802_hmPOS_GRCh37.txt', 'imported'],
    ['OPGS002493.txt.gz', 'raw score only'],
    ['pgsc_calc_PGS001229_22.txt', 'raw score only'],
    ['PGS004255_hmPOS_GRCh38.txt.gz', /Only 9 of 30 variants could be matched \(21 position not a known marker\)/],
    ['complex_variants_PGS000021.txt', /haplotype or diplotype.*single SNPs only/],
    ['pgsc_calc_customgrch37.txt', /Only 0 of 2 variants could be matched/],
  ] as const)('%s: %s', (name, expected) => {
    const r = load(name);
    if (typeof expected !== 'string') {
      expect(r).toEqual({ ok: false, error: expect.stringMatching(expected) });
      return;
    }
    const imported = ok(r);
    expect(imported.report.match_rate).toBeGreaterThanOrEqual(0.75);
    expect(imported.report.percentile).toBe(expected === 'imported');
    // A score that lost variants says so in its name.
    if (imported.report.usable < imported.report.variants)
      expect(imported.trait.name).toMatch(
        new RegExp(`${imported.report.usable} of ${imported.report.variants} variants`),
      );
  });
});

describe('custom traits in the engine', () => {
  it('scores a raw-score-only import without a percentile, with the match rate', () => {
    const engine = createScienceEngine({ resourcesDir });
    const t = ok(load('OPGS002493.txt.gz')).trait;
    const g = genotypeOf(t.markers.rsid.map((rs, i) => [`rs${rs}`, t.markers.effect[i] + t.markers.other[i]]));
    const a = engine.assessCustom(t, g, EUR)!;
    expect(a).toMatchObject({
      percentile: null,
      assessment_level: null,
      distribution: null,
      coverage: 1,
      match: { markers: 23, observed: 23 },
    });
    expect(a.score).toBeCloseTo(
      t.markers.weight.reduce((x, w) => x + w, 0),
      12,
    ); // one effect allele each
    expect(a.percentile_text).toMatch(/^No percentile: Only 0 of the 23 matched variants/);
  });

  it('withCustomTraits adds the definitions without changing the original engine', () => {
    const engine = createScienceEngine({ resourcesDir });
    const t = ok(load('PGS000802_hmPOS_GRCh37.txt')).trait;
    const extended = engine.withCustomTraits([t]);
    expect(extended.trait(t.code)?.revision).toBe(t.revision);
    expect(extended.traits.length).toBe(engine.traits.length + 1);
    expect(engine.trait(t.code)).toBeUndefined();
    const g = genotypeOf(t.markers.rsid.map((rs, i) => [`rs${rs}`, t.markers.effect[i] + t.markers.other[i]]));
    expect(extended.isComputable(t.code, g)).toBe(true);
    expect(extended.assess(t.code, g, EUR)).toEqual(engine.assessCustom(t, g, EUR));
    expect(() => engine.withCustomTraits([t, t])).toThrow(/twice/);
  });
});
