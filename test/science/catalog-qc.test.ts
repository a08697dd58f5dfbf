/** The catalog's curation QC: each build rule on hand-made rows, and the shipped catalog meeting them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCitations } from '../../scripts/catalog/curation.js';
import {
  assignGroups,
  groupKeyOf,
  HEADLINE_EXCEPTIONS,
  parseHeadlineExceptions,
  parseSynonyms,
  phenotypeKey,
  type HeadlineException,
} from '../../scripts/catalog/groups.js';
import { selectionCorrectedZ, winnersCurseFactors } from '../../scripts/catalog/information.js';
import { FEATURED, parseFeatured } from '../../scripts/catalog/featured.js';
import { cleanStudy, zOfP, type KgEntry, type ReportedFrequencies } from '../../scripts/catalog/markers.js';
import type { Row } from '../../scripts/catalog/read.js';
import { sexOf } from '../../scripts/catalog/sex.js';
import { evidenceLabel } from '../../src/service/science/evidence.js';
import { traitOf } from './helpers.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const catalog = shippedCatalog().traits;
const report = JSON.parse(readFileSync(join(resourcesDir, 'catalog', 'build-report.json'), 'utf8'));

/** A source row of the AllDiseases table (minor-allele frequencies per population). */
function row(over: Partial<Row>): Row {
  return {
    SNP: 'rs1',
    chr_name: '1',
    effect_allele: 'A',
    non_effect_allele: 'G',
    effect_size: '0.1',
    minor_allele: 'A',
    major_allele: 'G',
    EUR_AF: '0.2',
    AMR_AF: '0.2',
    AFR_AF: '0.2',
    EAS_AF: '0.2',
    SAS_AF: '0.2',
    p_value: '1e-10',
    pmid: '111',
    effect_size_logged_in_curation: 'FALSE',
    ...over,
  } as Row;
}
const noKg = new Map<string, KgEntry>();

describe('build rules', () => {
  it('citation consistency: the overview PMID is corrected when study id and SNP rows agree, else the build stops', () => {
    const overview = new Map<string, Row>([
      ['depression_29662059', { pmid: '30177863' } as Row],
      ['fine_123456', { pmid: '123456' } as Row],
      ['broken_222222', { pmid: '333333' } as Row],
    ]);
    const rows = new Map<string, Row[]>([
      ['depression_29662059', [{ pmid: '29662059' } as Row]],
      ['fine_123456', [{ pmid: '123456' } as Row]],
      ['broken_222222', [{ pmid: '444444' } as Row]],
    ]);
    const c = checkCitations(overview, rows);
    expect(c.pmid.get('depression_29662059')).toBe('29662059');
    expect(c.corrected).toEqual([{ study_id: 'depression_29662059', overview_pmid: '30177863', pmid: '29662059' }]);
    expect(c.violations).toHaveLength(1);
    expect(c.violations[0]).toMatch(/broken_222222/);
  });

  it('recovers an effect allele given on the reverse strand of minor/major (not for palindromes)', () => {
    const r = cleanStudy([row({ effect_allele: 'T', non_effect_allele: 'C' })], noKg);
    expect(r.markers[0]).toMatchObject({ effect: 'A', other: 'G' });
    expect(r.reverse_strand_recovered).toBe(1);
    const pal = cleanStudy(
      [row({ effect_allele: 'C', non_effect_allele: '', minor_allele: 'A', major_allele: 'T' })],
      noKg,
    );
    expect(pal.markers).toHaveLength(0);
    expect(pal.dropped.unusable_alleles).toBe(1);
  });

  it('excludes palindromic markers with effect-allele frequency 0.4–0.6 and aligns the rest by the study’s reported frequency', () => {
    const ambiguous = cleanStudy(
      [
        row({
          effect_allele: 'A',
          non_effect_allele: 'T',
          minor_allele: 'A',
          major_allele: 'T',
          EUR_AF: '0.45',
          AMR_AF: '0.45',
          AFR_AF: '0.45',
          EAS_AF: '0.45',
          SAS_AF: '0.45',
        }),
      ],
      noKg,
    );
    expect(ambiguous.dropped.palindromic_ambiguous).toBe(1);
    const reported: ReportedFrequencies = new Map([['111:rs1', { allele: 'A', frequency: 0.81 }]]);
    // 1000 Genomes: A at .2; the study saw its A at .81 — it reported the other strand.
    const flipped = cleanStudy(
      [row({ effect_allele: 'A', non_effect_allele: 'T', minor_allele: 'A', major_allele: 'T' })],
      noKg,
      reported,
    );
    expect(flipped.palindromic_flipped).toBe(1);
    expect(flipped.markers[0]).toMatchObject({ effect: 'T', other: 'A' });
    expect(flipped.markers[0].freq[0]).toBeCloseTo(0.8, 12);
    const agrees = cleanStudy(
      [row({ effect_allele: 'A', non_effect_allele: 'T', minor_allele: 'A', major_allele: 'T' })],
      noKg,
      new Map([['111:rs1', { allele: 'A', frequency: 0.22 }]]),
    );
    expect(agrees.palindromic_confirmed).toBe(1);
    expect(agrees.markers[0].effect).toBe('A');
  });

  it('drops a palindromic marker no reported frequency can place on a strand, and asks other studies when the study reported none', () => {
    const pal = (over: Partial<Row> = {}) =>
      row({ effect_allele: 'A', non_effect_allele: 'T', minor_allele: 'A', major_allele: 'T', ...over });
    const none = cleanStudy([pal()], noKg);
    expect(none.markers).toHaveLength(0);
    expect(none.dropped.palindromic_strand_unverifiable).toBe(1);
    expect(none.rule_effects.palindromic_strand_unverifiable.action).toBe('dropped');
    // Two other studies agree the allele A sits at about .8: the source gave the reverse strand.
    const others = new Map([
      [
        'rs1',
        [
          { allele: 'A', frequency: 0.79 },
          { allele: 'T', frequency: 0.21 },
        ],
      ],
    ]);
    const told = cleanStudy([pal()], noKg, new Map(), others);
    expect(told.markers[0]).toMatchObject({ effect: 'T', other: 'A' });
    expect(told.palindromic_checked_by_other_studies).toBe(1);
    // Other studies that disagree tell nothing.
    const split = new Map([
      [
        'rs1',
        [
          { allele: 'A', frequency: 0.79 },
          { allele: 'A', frequency: 0.2 },
        ],
      ],
    ]);
    expect(cleanStudy([pal()], noKg, new Map(), split).markers).toHaveLength(0);
    // A featured study's strongest loci stay on the source's strand, and are counted.
    const strong = cleanStudy(
      [pal({ p_value: '1e-40' }), pal({ SNP: 'rs2', p_value: '1e-9' })],
      noKg,
      new Map(),
      new Map(),
      true,
    );
    expect(strong.markers.map((m) => m.rsid)).toEqual([1]);
    expect(strong.palindromic_unverified_kept).toBe(1);
  });

  it('keeps one marker of the HLA region per score, the one carrying the most variance', () => {
    const kg = new Map<string, KgEntry>(
      [
        ['rs1', 29_000_000],
        ['rs2', 32_000_000],
        ['rs3', 40_000_000],
      ].map(([id, pos]) => [
        id as string,
        { chrom: '6', pos: pos as number, ref: 'G', alt: 'A', alt_af: [0.2, 0.2, 0.2, 0.2, 0.2] },
      ]),
    );
    const rows = [
      row({ SNP: 'rs1', effect_size: '0.1' }),
      row({ SNP: 'rs2', effect_size: '0.3' }),
      row({ SNP: 'rs3', effect_size: '0.1' }),
      // No 1000 Genomes position: placed by its reported MHC gene on chromosome 6.
      row({ SNP: 'rs4', chr_name: '6', reported_genes: 'HLA-DRB1', effect_size: '0.2' }),
      row({ SNP: 'rs5', chr_name: '6', reported_genes: 'BACH2', effect_size: '0.2' }),
    ];
    const r = cleanStudy(rows, kg);
    expect(r.markers.map((m) => m.rsid)).toEqual([2, 3, 5]);
    expect(r.rule_effects.hla_region_pruned).toMatchObject({ action: 'dropped', rows: 2 });
  });

  it('rejects a study whose logged effect sizes are logarithms of betas (implausible odds ratios)', () => {
    const rows = [1, 2, 3, 4].map((k) =>
      row({ SNP: `rs${k}`, effect_size: String(Math.log(20 + k)), effect_size_logged_in_curation: 'TRUE' }),
    );
    expect(cleanStudy(rows, noKg).scale_problem?.reason).toBe('logged_effect_sizes_look_like_betas');
    const ors = [1, 2, 3, 4].map((k) =>
      row({ SNP: `rs${k}`, effect_size: String(Math.log(1.1 + k / 100)), effect_size_logged_in_curation: 'TRUE' }),
    );
    expect(cleanStudy(ors, noKg).scale_problem).toBeNull();
  });

  it('reads an odds-ratio-like weight in a log-scale study as an odds ratio or a log-odds by its p-value', () => {
    expect(zOfP(0.05)).toBeCloseTo(1.96, 3);
    expect(zOfP(1e-15)).toBeCloseTo(8.0269, 3);
    // Reference rows: |z| per unit weight ≈ 5.5 / (0.1 · √(2·.2·.8)) ≈ 97.
    const refs = [2, 3, 4, 5].map((k) => row({ SNP: `rs${k}`, effect_size: '0.1', p_value: '4e-8' }));
    // A locus of OR 1.2 at p = 1e-4: as ln OR its |z| per unit is 97-like; read as a log-odds of 1.2 it is not.
    const or = cleanStudy([...refs, row({ SNP: 'rs9', effect_size: '1.2', p_value: '2e-4' })], noKg);
    expect(or.markers.find((m) => m.rsid === 9)?.weight).toBeCloseTo(Math.log(1.2), 12);
    expect(or.rule_effects.odds_ratio_converted_to_log).toMatchObject({ action: 'rescaled', rows: 1 });
    // APOE-like: a log-odds of 1.03 at p = 1e-45 fits the study's scale; ln 1.03 would not.
    const big = cleanStudy([...refs, row({ SNP: 'rs9', effect_size: '1.03', p_value: '1e-45' })], noKg);
    expect(big.markers.find((m) => m.rsid === 9)?.weight).toBe(1.03);
    expect(big.rule_effects.odds_ratio_like_kept_as_log_odds).toMatchObject({ action: 'checked', rows: 1 });
  });

  it('recovers alleles the source leaves out from the other allele or from 1000 Genomes, and counts the variance a dropped row carried', () => {
    const fromOther = cleanStudy([row({ effect_allele: '?', non_effect_allele: 'G' })], noKg);
    expect(fromOther.markers[0]).toMatchObject({ effect: 'A', other: 'G' });
    expect(fromOther.effect_allele_from_other_allele).toBe(1);
    const kg = new Map<string, KgEntry>([
      ['rs1', { chrom: '1', pos: 5, ref: 'C', alt: 'T', alt_af: [0.3, 0.3, 0.3, 0.3, 0.3] }],
    ]);
    // No minor/major; the effect allele given on the reverse strand (G = complement of C).
    const fromKg = cleanStudy(
      [row({ effect_allele: 'G', non_effect_allele: '?', minor_allele: '?', major_allele: '?' })],
      kg,
    );
    expect(fromKg.markers[0]).toMatchObject({ effect: 'C', other: 'T' });
    expect(fromKg.markers[0].freq[0]).toBeCloseTo(0.7, 12);
    expect(fromKg.alleles_recovered_from_1000_genomes).toBe(1);
    const lost = cleanStudy(
      [row({ effect_allele: '?', non_effect_allele: '?', effect_size: '0.5', EUR_AF: '0.5' })],
      noKg,
    );
    expect(lost.rule_effects.unusable_alleles).toEqual({
      action: 'dropped',
      rows: 1,
      variance_before: 2 * 0.5 * 0.5 * 0.25,
      variance_after: 0,
    });
  });

  it('reads the featured traits from a data file with named fields, and names the row of an error', () => {
    expect(FEATURED.length).toBeGreaterThan(100);
    const good = { ...FEATURED[0] };
    expect(parseFeatured(JSON.stringify([good]), 'f.json')).toEqual([good]);
    expect(() => parseFeatured(JSON.stringify([good, { ...good, code: 'x', pricing: 'gold' }]), 'f.json')).toThrow(
      /f\.json, row 2 \(x\): pricing: /,
    );
    expect(() => parseFeatured(JSON.stringify([good, { ...good, extra: 1 }]), 'f.json')).toThrow(/row 2 .*extra/);
    expect(() => parseFeatured(JSON.stringify([good, good]), 'f.json')).toThrow(
      /row 2 \(height\): code height is used twice/,
    );
    expect(() => parseFeatured('[{', 'f.json')).toThrow(/f\.json is not valid JSON/);
  });

  it('labels evidence by a documented rule (suggestive-only, dominated by one marker, automated biobank analyses)', () => {
    const base = {
      markers: 40,
      sampleSize: 500_000,
      genomeWideMarkers: 40,
      topMarkerShare: 0.1,
      curated: true,
      automatedBiobank: false,
    };
    expect(evidenceLabel(base).label).toBe('strong');
    expect(evidenceLabel({ ...base, genomeWideMarkers: 0 }).label).toBe('suggestive');
    expect(evidenceLabel({ ...base, automatedBiobank: true }).label).toBe('moderate');
    expect(evidenceLabel({ ...base, topMarkerShare: 0.95 }).label).toBe('limited');
    expect(evidenceLabel({ ...base, curated: false, genomeWideMarkers: 12 }).label).toBe('moderate');
    expect(evidenceLabel({ ...base, sampleSize: null }).label).toBe('limited');
  });

  it('finds sex-specific phenotypes, but not questions about relatives', () => {
    expect(sexOf('Prostate cancer')?.sex).toBe('male');
    expect(sexOf('Epithelial ovarian cancer')?.sex).toBe('female');
    expect(sexOf('Menarche (age at onset)')?.sex).toBe('female');
    expect(sexOf('Illnesses of father: Prostate cancer')).toBeNull();
    expect(sexOf('Cervical artery dissection')).toBeNull();
    expect(sexOf('Type 2 diabetes')).toBeNull();
  });

  it('groups one phenotype (synonyms merged) and heads it with the member of largest power, or a documented exception', () => {
    const a = traitOf('a_small', [{ rsid: 1, effect: 'A', other: 'G', weight: 1, freq: 0.3 }]);
    const b = traitOf('b_big', [{ rsid: 1, effect: 'A', other: 'G', weight: 1, freq: 0.3 }]);
    const c = traitOf('c_other', [{ rsid: 1, effect: 'A', other: 'G', weight: 1, freq: 0.3 }]);
    const d = traitOf('d_synonym', [{ rsid: 1, effect: 'A', other: 'G', weight: 1, freq: 0.3 }]);
    a.featured = true;
    a.quality.sample_size = 1000;
    b.quality.sample_size = 100_000;
    a.source.source_trait = 'LDL cholesterol [PMID 1]';
    b.source.source_trait = 'LDL  Cholesterol';
    c.source.source_trait = 'HDL cholesterol';
    d.source.source_trait = 'Low-density lipoprotein';
    const power = new Map([
      [a, 0.02],
      [b, 0.01],
      [c, null],
      [d, null],
    ]);
    const synonyms = new Map([['low-density lipoprotein', 'ldl cholesterol']]);
    const group = (exceptions: HeadlineException[] = []) =>
      assignGroups(
        [a, b, c, d],
        (t) => groupKeyOf(phenotypeKey(t.source.source_trait), synonyms),
        (t) => power.get(t) ?? null,
        exceptions,
      );
    const r = group();
    expect(r).toMatchObject({ groups: 2, multi: 1, best_informed: 1, best_informed_share: 1, exceptions: [] });
    // Predictive power first: the smaller study explains more; the synonym whose power is unknown comes last.
    expect(a.group).toMatchObject({ code: 'a_small', size: 3, headline: true });
    expect(b.group).toMatchObject({ code: 'a_small', headline: false });
    expect(d.group).toMatchObject({ code: 'a_small', headline: false });
    expect([a.headline_power, b.headline_power, d.headline_power]).toEqual([0.02, 0.01, null]);
    // Being curated earns nothing by itself: a featured study explaining less than another loses the headline.
    power.set(b, 0.03);
    group();
    expect(b.group).toMatchObject({ code: 'b_big', headline: true });
    expect(c.group).toMatchObject({ code: 'c_other', size: 1, headline: true });
    // Only an exception row heads a group with another member, and the report counts it.
    const why = 'the member of largest power counts one locus three times, see the figures';
    const excepted = group([{ phenotype: 'ldl cholesterol', headline: 'a_small', why }]);
    expect(a.group).toMatchObject({ code: 'a_small', headline: true });
    expect(excepted).toMatchObject({ best_informed: 0, best_informed_share: 0 });
    expect(excepted.exceptions).toEqual([
      {
        phenotype: 'ldl cholesterol',
        headline: 'a_small',
        headline_power: 0.02,
        best_informed: 'b_big',
        best_power: 0.03,
        why,
      },
    ]);
    // A stale row stops the build, naming what is wrong.
    expect(() => group([{ phenotype: 'ldl cholesterol', headline: 'c_other', why }])).toThrow(
      /"c_other" is not a member of "ldl cholesterol" \(members: /,
    );
    expect(() => group([{ phenotype: 'vldl', headline: 'a_small', why }])).toThrow(/no group "vldl" in the catalog/);
  });

  it('reads headline exceptions from a data file with named fields, one row per phenotype', () => {
    const ok = { phenotype: "alzheimer's disease", headline: 'alzheimers_disease', why: 'x'.repeat(40) };
    expect(parseHeadlineExceptions(JSON.stringify([ok]), 'h.json')).toEqual([ok]);
    expect(() => parseHeadlineExceptions(JSON.stringify([{ ...ok, why: 'short' }]), 'h.json')).toThrow(
      /h\.json, row 1 \(alzheimer's disease\): why: /,
    );
    expect(() => parseHeadlineExceptions(JSON.stringify([ok, ok]), 'h.json')).toThrow(/row 2 .*two rows/);
    expect(HEADLINE_EXCEPTIONS.length).toBeLessThanOrEqual(5);
  });

  it("corrects a marker's weight for the winner's curse: strongly near the significance threshold, not at all far above it", () => {
    const c = zOfP(5e-8);
    // At the threshold the conditional estimate keeps little of the weight; far above it, all of it.
    expect(selectionCorrectedZ(c + 0.05, c) / (c + 0.05)).toBeLessThan(0.2);
    expect(selectionCorrectedZ(7, c) / 7).toBeGreaterThan(0.9);
    expect(selectionCorrectedZ(10, c)).toBeCloseTo(10, 3);
    // The estimate's own check: its expectation given selection is the observed z.
    const mu = selectionCorrectedZ(6, c);
    expect(mu).toBeGreaterThan(3);
    expect(mu).toBeLessThan(6);
    // Markers without p-values keep their weights; a study listing weaker markers selected at their level.
    const f = winnersCurseFactors([5e-8, 1e-40, null]);
    expect(f[0]).toBeLessThan(0.2);
    expect(f[1]).toBeCloseTo(1, 6);
    expect(f[2]).toBe(1);
    const weak = winnersCurseFactors([1e-5, 1e-6]);
    expect(weak[0]).toBeLessThan(0.2);
    expect(weak[1]).toBeGreaterThan(weak[0]);
  });

  it('reads synonyms from a data file with named fields, naming the row of an error', () => {
    const ok = [
      { phenotype: "alzheimer's disease", synonyms: ['late-onset alzheimer disease'], why: 'one diagnosis, two names' },
    ];
    expect(parseSynonyms(JSON.stringify(ok), 's.json')).toEqual(ok);
    expect(() => parseSynonyms(JSON.stringify([{ ...ok[0], synonyms: ['Late-Onset AD'] }]), 's.json')).toThrow(
      /s\.json, row 1 \(alzheimer's disease\): "Late-Onset AD" is not a phenotype key \(write "late-onset ad"\)/,
    );
    expect(() => parseSynonyms(JSON.stringify([ok[0], { ...ok[0], phenotype: 'x' }]), 's.json')).toThrow(
      /row 2 \(x\): "late-onset alzheimer disease" appears in two rows/,
    );
    expect(() => parseSynonyms(JSON.stringify([{ phenotype: 'x', synonyms: [] }]), 's.json')).toThrow(
      /row 1 \(x\): synonyms: .*why: /,
    );
  });
});

describe('the shipped catalog meets the rules', () => {
  it('cites the right paper for the studies whose overview PMIDs were swapped', () => {
    const byStudy = new Map(catalog.map((t) => [t.source.study_id, t]));
    expect(byStudy.get('depression_broad_29662059')?.quality.pmid).toBe('29662059');
    expect(byStudy.get('major_depressive_disorder_probable_29662059')?.quality.pmid).toBe('29662059');
    expect(byStudy.get('diverticular_disease_30177863')?.quality.pmid).toBe('30177863');
    expect(report.rules.citation_corrections).toHaveLength(3);
  });

  it('keeps palindromic markers no reported frequency places to at most 1 % of the catalog', () => {
    const markers = catalog.reduce((a, t) => a + t.markers.rsid.length, 0);
    const kept = report.rules.counts.palindromic_strand_unverified_kept_featured_strong_loci;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(0.01 * markers);
    expect(report.rules.counts.palindromic_strand_unverifiable_dropped).toBeGreaterThan(1000);
  });

  it('has names without author, year or PMID, one headline per group, and every rule counted in the build report', () => {
    expect(
      catalog.filter((t) => /\((?:[^)]*\b(?:19|20)\d\d|[^)]*et al)\)|PMID/i.test(t.name)).map((t) => t.name),
    ).toEqual([]);
    const headlines = new Map<string, number>();
    for (const t of catalog) if (t.group.headline) headlines.set(t.group.code, (headlines.get(t.group.code) ?? 0) + 1);
    expect(catalog.filter((t) => headlines.get(t.group.code) !== 1).map((t) => t.group.code)).toEqual([]);
    const ldl = catalog.filter((t) => t.group.code === catalog.find((x) => x.code === 'ldl_cholesterol')!.group.code);
    expect(ldl.length).toBeGreaterThan(5);
    expect(ldl.filter((t) => t.group.headline)).toHaveLength(1);
    for (const key of [
      'citation_pmid_corrected',
      'reverse_strand_rows_recovered',
      'palindromic_excluded_frequency_0_4_to_0_6',
      'palindromic_strand_flipped_by_reported_frequency',
      'studies_dropped_logged_betas',
      'marker_rows_odds_ratio_converted_to_log',
      'traits_dominated_by_one_marker',
      'traits_suggestive_only',
      'traits_male_only',
      'traits_female_only',
      'phenotype_groups_with_several_studies',
    ]) {
      expect(report.rules.counts[key], key).toBeGreaterThan(0);
    }
  });

  it('marks sex-specific traits and gives every trait an evidence label with reasons', () => {
    expect(catalog.find((t) => t.code === 'prostate_cancer')?.sex).toBe('male');
    expect(catalog.find((t) => t.code === 'ovarian_cancer')?.sex).toBe('female');
    expect(catalog.find((t) => t.code === 'height')?.sex).toBeNull();
    // Every trait's label, in one expect.
    const wrong: string[] = [];
    for (const t of catalog) {
      const label = t.evidence.label;
      if (!['strong', 'moderate', 'limited', 'suggestive'].includes(label)) wrong.push(`${t.code}: label ${label}`);
      if (label !== 'strong' && !(t.evidence.reasons.length > 0)) wrong.push(`${t.code}: ${label} without reasons`);
      if (t.source.dataset.includes('UK Biobank') && label === 'strong') wrong.push(`${t.code}: UK Biobank, strong`);
    }
    expect(wrong).toEqual([]);
  });
});
