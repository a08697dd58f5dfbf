/**
 * The stages of a PGS import on their own (src/service/science/pgs-import/): the header,
 * the rows, the match and the report. The read stage (decompression with its cap) is
 * pgs-import-decompress.test.ts; whole files are pgs-import.test.ts and
 * pgs-import-by-position.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPositionIndex } from '../../src/service/genotype/positions.js';
import { loadKgTable } from '../../src/service/science/kg-table.js';
import { parseScoringHeader, type ScoringHeader } from '../../src/service/science/pgs-import/header.js';
import { parseScoringRows, type ScoringRow } from '../../src/service/science/pgs-import/rows.js';
import { matchScoringRows, type MatchReferences } from '../../src/service/science/pgs-import/match.js';
import { genotypeSites, matchAtGenotypeSite, siteKey } from '../../src/service/science/pgs-import/genotype-sites.js';
import { importReport, MIN_MATCHED_SHARE } from '../../src/service/science/pgs-import/report.js';
import { genotypeOf } from '../support/genotypes.js';

const resourcesDir = path.join(import.meta.dirname, '..', '..', 'resources');
const kg = loadKgTable(resourcesDir);
const positions = loadPositionIndex(resourcesDir);

function header(text: string): ScoringHeader {
  const h = parseScoringHeader(text);
  if (!h.ok) throw new Error(h.error);
  return h.header;
}
function rows(text: string): ScoringRow[] {
  const r = parseScoringRows(header(text));
  if (!r.ok) throw new Error(r.error);
  return r.rows;
}
const file = (meta: string[], columns: string, ...lines: string[]) => [...meta, columns, ...lines].join('\n');

describe('header stage', () => {
  it('reads the metadata, the columns, the builds and the population frequency columns', () => {
    const h = header(
      file(
        [
          '###PGS CATALOG SCORING FILE',
          '#format_version=2.0',
          '#genome_build=hg19',
          '#HmPOS_build=GRCh38',
          '#weight_type=OR',
        ],
        'rsID\tchr_name\tchr_position\teffect_allele\tother_allele\teffect_weight\tallelefrequency_effect_European\tallelefrequency_effect_south asian\thm_pos',
      ),
    );
    expect(h.meta.format_version).toBe('2.0');
    expect([h.fileBuild, h.hmBuild, h.weightsAreRatios, h.harmonized, h.formatVersion]).toEqual([
      37,
      38,
      true,
      true,
      '2.0',
    ]);
    expect([h.columns.rsid, h.columns.chr, h.columns.pos, h.columns.effect, h.columns.other, h.columns.weight]).toEqual(
      [0, 1, 2, 3, 4, 5],
    );
    expect(h.popFreqColumns).toEqual([
      [0, 6], // EUR
      [4, 7], // SAS
    ]);
    expect(h.firstDataLine).toBe(6);
  });

  it('takes format v1 from its reference_allele column and an unstated build as none', () => {
    const h = header(file(['#genome_build=NR'], 'rsID\teffect_allele\treference_allele\teffect_weight'));
    expect([h.formatVersion, h.fileBuild, h.columns.other, h.harmonized]).toEqual(['1.0', null, 2, false]);
  });

  it('refuses a file without what scoring needs, saying what is missing', () => {
    const error = (text: string) => {
      const h = parseScoringHeader(text);
      return h.ok ? null : h.error;
    };
    expect(error('# only comments\n')).toMatch(/no column header row/);
    expect(error('rsID\teffect_weight\n')).toMatch(/no effect_allele column/);
    expect(error('rsID\teffect_allele\n')).toMatch(/no effect_weight column/);
    expect(error('chr_name\teffect_allele\teffect_weight\n')).toMatch(
      /neither an rsID column nor chromosome positions/,
    );
    expect(error('chr_name\tchr_position\teffect_allele\teffect_weight\n')).toBeNull();
  });
});

describe('rows stage', () => {
  const META = ['#genome_build=GRCh37', '#HmPOS_build=GRCh38'];
  it('reads weights, dominance flags, letters, identifiers, positions in the stated builds, and frequencies', () => {
    const [a, b, c] = rows(
      file(
        META,
        'rsID\thm_rsID\tchr_name\tchr_position\thm_chr\thm_pos\teffect_allele\tother_allele\teffect_weight\tis_recessive\tallelefrequency_effect\tallelefrequency_effect_EUR',
        'rs12\t\t1\t100\t1\t200\tg\tA\t0.5\tFalse\t0.3\t0.25',
        '\trs34\t2\t300\t\t\tT\t\t-0.2\tTrue\t1.5\t',
        '.\t\tchr3\t400\tchr3\t500\tC\tT\t0.1\t\t\t',
      ),
    );
    expect(a).toMatchObject({
      line: 4,
      effect: 'G',
      other: 'A',
      weight: 0.5,
      dosageWeights: [0, 0.5, 1],
      rsid: 12,
      hmRsid: null,
    });
    // Positions are read for rows without an rsID only.
    expect(a.sites).toEqual([]);
    expect(a.populationFrequency).toEqual([0.25, null, null, null, null]);
    expect(a.overallFrequency).toBe(0.3);
    expect(b).toMatchObject({ other: '', dosageWeights: [0, 0, -0.2], rsid: null, hmRsid: 34, overallFrequency: null });
    expect(c).toMatchObject({ rsid: null, hmRsid: null, positionWithoutBuild: false });
    // The harmonized position first, in HmPOS_build; then the author's, in genome_build.
    expect(c.sites).toEqual([
      { chrom: 'chr3', pos: 500, build: 38 },
      { chrom: 'chr3', pos: 400, build: 37 },
    ]);
  });

  it('takes ln of odds ratios and keeps dosage weights', () => {
    const [or] = rows(file(['#weight_type=OR'], 'rsID\teffect_allele\teffect_weight', 'rs1\tA\t2'));
    expect(or.weight).toBe(Math.log(2));
    const [d] = rows(
      file([], 'rsID\teffect_allele\tdosage_0_weight\tdosage_1_weight\tdosage_2_weight', 'rs1\tA\t0.1\t0.4\t0.5'),
    );
    expect(d).toMatchObject({ weight: 0.2, dosageWeights: [0.1, 0.4, 0.5] });
  });

  it('drops rows without a weight or with alleles that are not single bases, and notes positions without a build', () => {
    const r = parseScoringRows(
      header(
        file(
          [],
          'rsID\tchr_name\tchr_position\teffect_allele\tother_allele\teffect_weight',
          'rs1\t1\t10\tA\tG\t',
          'rs2\t1\t20\tAT\tA\t0.1',
          '\t1\t30\tC\tT\t0.1',
        ),
      ),
    );
    if (!r.ok) throw new Error(r.error);
    expect(r.variants).toBe(3);
    expect(r.dropped).toEqual({ missing_weight: 1, not_a_single_nucleotide_variant: 1 });
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ sites: [], positionWithoutBuild: true });
  });

  it('refuses a haplotype row naming its line, and a file without rows', () => {
    const h = parseScoringRows(
      header(
        file(
          ['#pgs_id=X'],
          'rsID\teffect_allele\teffect_weight\tis_haplotype',
          'rs1\tA\t0.1\tFalse',
          'rs2\tA\t0.1\tTrue',
        ),
      ),
    );
    expect(h).toEqual({ ok: false, error: expect.stringMatching(/^Line 4 is a haplotype or diplotype/) });
    expect(parseScoringRows(header('rsID\teffect_allele\teffect_weight\n'))).toEqual({
      ok: false,
      error: 'The file has a header but no variant rows.',
    });
  });
});

describe('match stage', () => {
  // A marker of the bundled 1000 Genomes table, with its GRCh37 position and REF/ALT.
  const known = kg.byRsid(78540526)!;
  const refs: MatchReferences = { kg, positions };
  const row = (over: Partial<ScoringRow>): ScoringRow => ({
    line: 2,
    effect: known.alt,
    other: known.ref,
    weight: 0.1,
    dosageWeights: [0, 0.1, 0.2],
    rsid: null,
    hmRsid: null,
    sites: [],
    positionWithoutBuild: false,
    populationFrequency: [null, null, null, null, null],
    overallFrequency: null,
    ...over,
  });

  it('matches by rsID, by hm_rsID and by a known marker’s position, counting each', () => {
    const m = matchScoringRows(
      [
        row({ rsid: known.rsid }),
        row({ hmRsid: 1, effect: 'A', other: 'G', overallFrequency: 0.2 }),
        row({ sites: [{ chrom: known.chrom, pos: known.pos, build: 37 }] }),
      ],
      refs,
    );
    expect(m.matched_by).toMatchObject({ rsid: 1, hm_rsid: 1, position: 1, position_grch37: 1, position_genotype: 0 });
    // The position matched the same marker as the rsID: the second is a duplicate.
    expect(m.dropped).toEqual({ duplicate_variant: 1 });
    expect([...m.variants.keys()].sort((a, b) => a - b)).toEqual([1, known.rsid]);
    // Frequencies: the 1000 Genomes table for the known marker, the file's overall one for rs1.
    expect(m.variants.get(known.rsid)!.freq).toEqual(known.altFreq);
    expect(m.variants.get(1)!.freq).toEqual([0.2, 0.2, 0.2, 0.2, 0.2]);
    expect(m.frequency_source).toEqual({ file_population: 0, thousand_genomes: 5, file_overall: 5 });
  });

  it('aligns letters to the 1000 Genomes forward strand, infers a missing other allele, and drops what cannot be aligned', () => {
    const comp: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };
    const flipped = matchScoringRows(
      [row({ rsid: known.rsid, effect: comp[known.alt], other: comp[known.ref] })],
      refs,
    );
    expect(flipped.strand_flipped_to_forward).toBe(1);
    expect(flipped.variants.get(known.rsid)).toMatchObject({ effect: known.alt, other: known.ref });
    const inferred = matchScoringRows([row({ rsid: known.rsid, other: '' })], refs);
    expect(inferred.variants.get(known.rsid)).toMatchObject({ effect: known.alt, other: known.ref });
    const wrong = [...'ACGT'].find(
      (l) => l !== known.ref && l !== known.alt && comp[l] !== known.ref && comp[l] !== known.alt,
    );
    const cases = matchScoringRows(
      [
        row({ rsid: 5, other: '' }), // not in the table: the other allele cannot be told
        row({ rsid: 6, effect: 'A', other: 'A' }),
        row({ rsid: 7, effect: 'A', other: 'T' }), // palindromic, no frequency
        row({ rsid: 8, effect: 'C', other: 'G', overallFrequency: 0.45 }), // palindromic, MAF ≥ 0.4
        row({ sites: [{ chrom: '1', pos: 1, build: 37 }] }),
        row({ sites: [], positionWithoutBuild: true }),
        row({}),
      ],
      refs,
    );
    expect(wrong).toBeUndefined(); // a SNP's two letters and their complements cover A, C, G, T
    expect(cases.dropped).toEqual({
      other_allele_unknown: 1,
      effect_equals_other_allele: 1,
      palindromic_without_frequency: 1,
      palindromic_ambiguous: 1,
      position_not_a_known_marker: 1,
      position_build_not_stated: 1,
      no_rsid_or_position: 1,
    });
  });

  it('finds positions no known marker has in the person’s file, with the alleles checked and lifted between builds', () => {
    // Four sites on chromosome 2 that no marker of the index uses (the test checks).
    const site = (pos: number) => ({ chrom: '2', pos, build: 37 as const });
    for (const pos of [1000, 2000, 3000, 4000])
      expect(matchScoringRows([row({ sites: [site(pos)] })], refs).matched_by.position).toBe(0);
    const genotype = genotypeOf([
      { rsid: 900001, chrom: 2, pos: 1000, genotype: 'CT' },
      { rsid: 900002, chrom: 2, pos: 2000, genotype: 'TT' },
      { rsid: 900003, chrom: 2, pos: 3000, genotype: '--' },
      { rsid: 900004, chrom: 2, pos: 4000, genotype: 'AC' },
    ]);
    const withPerson: MatchReferences = {
      ...refs,
      genotype: { genotype, build: 37 },
      lift: (_c, pos, from, to) => (from === to ? pos : pos === 5000 ? 1000 : null),
    };
    const m = matchScoringRows(
      [
        row({ effect: 'T', other: 'C', sites: [site(1000)] }), // as the person's letters
        row({ effect: 'A', other: 'G', sites: [site(2000)] }), // the other strand: T/C
        row({ effect: 'G', other: '', sites: [site(1000)], rsid: null }), // strand and other allele from the heterozygous call
        row({ effect: 'A', other: 'G', sites: [site(3000)] }), // a no-call
        row({ effect: 'A', other: 'G', sites: [site(4000)] }), // other letters
        row({ effect: 'A', other: 'G', sites: [site(9000)] }), // not in the file
        row({ effect: 'T', other: 'C', sites: [{ chrom: '2', pos: 5000, build: 38 }] }), // lifted to 1000
        row({ effect: 'T', other: 'C', sites: [{ chrom: '2', pos: 6000, build: 38 }] }), // does not lift
      ],
      withPerson,
    );
    expect(m.matched_by).toMatchObject({ position: 4, position_genotype: 4, position_lifted: 1, position_grch38: 1 });
    expect(m.variants.get(900001)).toMatchObject({ effect: 'T', other: 'C' });
    expect(m.variants.get(900002)).toMatchObject({ effect: 'T', other: 'C' });
    expect(m.strand_flipped_to_forward).toBe(2);
    expect(m.dropped).toEqual({
      duplicate_variant: 2,
      position_not_called_in_genotype: 1,
      alleles_differ_from_genotype: 1,
      position_not_in_genotype: 1,
      position_not_lifted: 1,
    });
  });

  it('finds the person’s rows at the wanted sites in one pass, whatever their order, and checks their letters', () => {
    const sites = genotypeSites(
      genotypeOf([
        { rsid: 1, chrom: 3, pos: 500, genotype: 'AG' },
        { rsid: 2, chrom: 1, pos: 900, genotype: 'AC' },
        { rsid: 3, chrom: 1, pos: 100, genotype: 'TT' },
        { rsid: 4, chrom: 1, pos: 900, genotype: 'CT' },
      ]),
      38,
      new Set([siteKey(1, 900), siteKey(3, 500), siteKey(5, 5)]),
    );
    expect(sites.rowsAt.size).toBe(2);
    // Two rows at one site: the one whose call has the score's letters (A/C is neither C/T nor its complement G/A).
    expect(matchAtGenotypeSite(sites, 1, 900, 'C', 'T')).toMatchObject({ found: true, rsid: 4 });
    expect(matchAtGenotypeSite(sites, 1, 900, 'A', 'C')).toMatchObject({ found: true, rsid: 2 });
    expect(matchAtGenotypeSite(sites, 3, 500, 'A', 'G')).toMatchObject({ found: true, rsid: 1, flipped: false });
    expect(matchAtGenotypeSite(sites, 3, 500, 'C', 'T')).toMatchObject({
      found: true,
      rsid: 1,
      flipped: true,
      effect: 'G',
    });
    // Not wanted, not there.
    expect(matchAtGenotypeSite(sites, 1, 100, 'A', 'T')).toEqual({ found: false, reason: 'position_not_in_genotype' });
  });
});

describe('report stage', () => {
  const h = header(
    file(
      ['#pgs_id=PGS999', '#trait_reported=Test trait', '#citation=Doe J et al. (2020)'],
      'rsID\teffect_allele\teffect_weight',
    ),
  );
  const counts = {
    matched_by: {
      rsid: 4,
      hm_rsid: 0,
      position: 0,
      position_grch37: 0,
      position_grch38: 0,
      position_genotype: 0,
      position_lifted: 0,
      position_file: 0,
    },
    frequency_source: { file_population: 0, thousand_genomes: 0, file_overall: 0 },
    strand_flipped_to_forward: 0,
  };
  const variant = (rsid: number, freq: number[] | null) => ({
    rsid,
    effect: 'A',
    other: 'G',
    weight: 0.1 * rsid,
    dosageWeights: [0, 0.1 * rsid, 0.2 * rsid] as [number, number, number],
    freq,
  });
  const input = (matched: ReturnType<typeof variant>[], variants: number, genotypeLabel: string | null = null) => ({
    header: h,
    variants,
    matched: new Map(matched.map((v) => [v.rsid, v])),
    counts,
    dropped: {} as Record<string, number>,
    knownPositions: 1234,
    genotypeLabel,
  });
  const f = [0.1, 0.2, 0.3, 0.4, 0.5];

  it('refuses a file with fewer than 75 % matched, naming the reasons and what can be matched', () => {
    const few = input([variant(1, f)], 2);
    few.dropped.position_not_a_known_marker = 1;
    const r = importReport(few, { minUsableShare: MIN_MATCHED_SHARE });
    expect(r).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^Only 1 of 2 variants could be matched \(1 position not a known marker\); at least 75 % are needed/,
      ),
    });
    if (!r.ok) expect(r.error).toMatch(/1,234 markers whose positions Traitscope knows \(import it for a profile/);
    const forPerson = importReport(input([variant(1, f)], 2, 'the file of profile "p"'), {});
    if (!forPerson.ok)
      expect(forPerson.error).toMatch(/or a position of the file of profile "p" with the same alleles/);
  });

  it('gives a percentile when 75 % have frequencies, leaving the others out and saying so in the name', () => {
    const r = importReport(input([variant(1, f), variant(2, f), variant(3, f), variant(4, null)], 4), {});
    if (!r.ok) throw new Error(r.error);
    expect(r.report).toMatchObject({ usable: 3, match_rate: 1, percentile: true, dropped: { no_frequency: 1 } });
    expect(r.trait.name).toBe('Test trait (PGS999, 3 of 4 variants)');
    expect(r.trait.markers.rsid).toEqual([1, 2, 3]);
    expect(r.trait.quality).toMatchObject({ publication_year: 2020, first_author: 'Doe J' });
  });

  it('keeps a raw score without a percentile when too few have frequencies, and says why', () => {
    const r = importReport(input([variant(1, f), variant(2, null), variant(3, null)], 3), {});
    if (!r.ok) throw new Error(r.error);
    expect(r.report).toMatchObject({ usable: 3, percentile: false });
    expect(r.report.percentile_note).toMatch(/^Only 1 of the 3 matched variants have a population frequency/);
    expect(r.trait.raw_score_only?.reason).toBe(r.report.percentile_note);
    expect(r.trait.markers.freq.EUR).toEqual([0.1, null, null]);
  });
});
