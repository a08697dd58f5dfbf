/**
 * Single-variant findings (src/service/science/findings.ts): genotype calls in, the curated
 * statements out; strand flips, palindromes, missing markers, no-calls and single letters
 * said honestly; homozygous Factor V Leiden, APOE ε4/ε4, ε3/ε4 and ε2/ε2 with their own
 * cited statements; implausible HFE combinations flagged; the reliability of a call of a
 * variant that is rare in the person's reference population stated.
 */
import { describe, expect, it } from 'vitest';
import { findRsid } from '../../src/service/genotype/encoding.js';
import {
  FINDING_GENES,
  FINDING_SOURCES,
  findingsFor,
  type Finding,
  type FindingCode,
  type FindingReference,
} from '../../src/service/science/findings.js';
import { genotypeOf } from './helpers.js';

function findings(
  entries: Array<[string, string]>,
  reference: FindingReference | null = null,
): Record<FindingCode, Finding> {
  const g = genotypeOf(entries);
  const lookup = (rsid: number) => {
    const i = findRsid(g.rsids, rsid);
    return i < 0 ? undefined : g.calls[i];
  };
  return Object.fromEntries(findingsFor(lookup, reference).map((f) => [f.code, f])) as Record<FindingCode, Finding>;
}

const one = (p: 'EUR' | 'AMR' | 'AFR' | 'EAS' | 'SAS', label: string): FindingReference => ({
  label,
  weights: { EUR: 0, AMR: 0, AFR: 0, EAS: 0, SAS: 0, [p]: 1 },
});
const EUROPEAN = one('EUR', 'European (EUR)');
const EAST_ASIAN = one('EAS', 'East Asian (EAS)');
const AFRICAN = one('AFR', 'African (AFR)');
/** Figures a statement may carry only with the study that measured them. */
const STUDIES_WITH_FIGURES = ['7888671', '21556001'];

const TYPICAL: Array<[string, string]> = [
  ['rs429358', 'TT'],
  ['rs7412', 'CC'],
  ['rs6025', 'CC'],
  ['rs1800562', 'GG'],
  ['rs1799945', 'CC'],
  ['rs4988235', 'AG'],
  ['rs671', 'GG'],
];

describe('single-variant findings', () => {
  it('reads the APOE ε genotype from rs429358 and rs7412', () => {
    const cases: Array<[string, string, string]> = [
      ['TT', 'CC', 'ε3/ε3'],
      ['TT', 'CT', 'ε2/ε3'],
      ['TT', 'TT', 'ε2/ε2'],
      ['CT', 'CC', 'ε3/ε4'],
      ['CT', 'CT', 'ε2/ε4'],
      ['CC', 'CC', 'ε4/ε4'],
    ];
    for (const [a, b, want] of cases) {
      const f = findings([
        ['rs429358', a],
        ['rs7412', b],
      ]).apoe;
      expect(f.result, `${a} ${b}`).toBe(want);
      expect(f.status).toBe('determined');
    }
    const e4 = findings([
      ['rs429358', 'CT'],
      ['rs7412', 'CC'],
    ]).apoe;
    expect(e4.statements.map((s) => s.pmid)).toContain('8346443');
    expect(
      findings([
        ['rs429358', 'CC'],
        ['rs7412', 'TT'],
      ]).apoe.result,
    ).toBe('Unusual combination');
  });

  it('matches the opposite strand for non-palindromic markers, as scoring does', () => {
    // rs429358 T/C read on the reverse strand is A/G: AG = one ε4-defining allele.
    const f = findings([
      ['rs429358', 'AG'],
      ['rs7412', 'GG'],
    ]).apoe;
    expect(f.result).toBe('ε3/ε4');
    expect(f.markers.every((m) => m.strand_flipped)).toBe(true);
  });

  it('reads a palindromic marker (H63D, C/G) on the forward strand only', () => {
    const f = findings([
      ['rs1800562', 'GG'],
      ['rs1799945', 'CG'],
    ]).hfe;
    expect(f.result).toBe('No copy of C282Y, One copy of H63D');
    expect(f.markers[1]).toMatchObject({ copies: 1, strand_flipped: false });
  });

  it('says when a marker is missing, a no-call or does not fit, and then claims nothing', () => {
    const none = findings([]);
    for (const f of Object.values(none)) {
      expect(f.status).toBe('not_tested');
      expect(f.result).toBeNull();
      expect(f.statements).toEqual([]);
      expect(f.summary).toMatch(/not in your file/);
    }
    const noCall = findings([['rs6025', '--']]).factor_v_leiden;
    expect(noCall.summary).toMatch(/no-call/);
    const odd = findings([['rs671', 'AC']]).aldh2;
    expect(odd.markers[0].state).toBe('mismatch');
    expect(odd.summary).toMatch(/fits neither/);
    const partial = findings([['rs429358', 'CT']]).apoe;
    expect(partial.status).toBe('partial');
    expect(partial.result).toBeNull();
    expect(partial.summary).toMatch(/rs7412 is not in your file/);
  });

  it('interprets Factor V Leiden, HFE, lactase and ALDH2 genotypes', () => {
    const f = findings([
      ...TYPICAL.filter(([r]) => !['rs6025', 'rs1800562', 'rs671'].includes(r)),
      ['rs6025', 'CT'],
      ['rs1800562', 'AA'],
      ['rs671', 'AG'],
    ]);
    expect(f.factor_v_leiden.result).toBe('One copy of Factor V Leiden');
    expect(f.factor_v_leiden.statements[0].pmid).toBe('8164741');
    expect(f.hfe.statements.map((s) => s.pmid)).toEqual(['8696333', '18199861']);
    expect(f.lactase_persistence.result).toBe('Likely lactase persistent');
    expect(f.aldh2.result).toBe('One copy of ALDH2*2');
    expect(f.aldh2.statements.some((s) => s.clinical)).toBe(true);
    const typical = findings(TYPICAL);
    expect(typical.factor_v_leiden.statements).toEqual([]);
    expect(typical.hfe.result).toBe('Neither variant found');
  });

  it('cites a known source for every statement and says what a chip cannot tell', () => {
    const all = [
      ...Object.values(findings(TYPICAL)),
      ...Object.values(
        findings([
          ['rs429358', 'CC'],
          ['rs7412', 'CC'],
          ['rs6025', 'TT'],
          ['rs1800562', 'AG'],
          ['rs1799945', 'CG'],
          ['rs4988235', 'GG'],
          ['rs671', 'AA'],
        ]),
      ),
    ];
    for (const f of all) {
      for (const s of [...f.statements, ...f.limits])
        expect(FINDING_SOURCES[s.pmid], `${f.code}: ${s.text}`).toBeDefined();
      expect(f.limits.some((s) => /cannot rule out other variants/.test(s.text))).toBe(true);
      // Figures only from the studies that measured them; everything else qualitative.
      for (const s of f.statements)
        if (!STUDIES_WITH_FIGURES.includes(s.pmid))
          expect(s.text).not.toMatch(/\d+\s*%|\d+(\.\d+)?\s*(x|times|-fold)/i);
    }
    // The clinically meaningful ones are flagged for the opt-in.
    expect(all.filter((f) => f.clinical).map((f) => f.code)).toEqual(
      expect.arrayContaining(['apoe', 'factor_v_leiden', 'hfe']),
    );
  });

  it('lists under each gene exactly the markers its finding reads', () => {
    const read = findingsFor(() => undefined);
    for (const f of read)
      for (const gene of f.gene.split('/')) expect(FINDING_GENES[gene], gene).toEqual(f.markers.map((m) => m.rsid));
    expect(Object.keys(FINDING_GENES).sort()).toEqual(read.flatMap((f) => f.gene.split('/')).sort());
  });

  it('reads a single letter on an autosome as a no-call, never as two copies', () => {
    const f = findings([
      ['rs6025', 'T'],
      ['rs429358', 'C'],
      ['rs7412', 'CC'],
      ['rs1800562', 'A'],
      ['rs1799945', 'CC'],
    ]);
    const fvl = f.factor_v_leiden;
    expect(fvl.result).toBeNull();
    expect(fvl.status).toBe('not_tested');
    expect(fvl.markers[0]).toMatchObject({ genotype: 'T', state: 'no_call', copies: null });
    expect(fvl.summary).toMatch(/single letter T/);
    expect(fvl.statements).toEqual([]);
    expect(fvl.flags.map((x) => x.code)).toEqual(['single_letter_call']);
    expect(fvl.flags[0].text).toMatch(/chromosome 1\b.*no-call, not as two copies/);
    expect(f.apoe.result).toBeNull();
    expect(f.apoe.flags[0].text).toMatch(/chromosome 19/);
    // HFE: C282Y unreadable, H63D read; nothing is said about C282Y copies.
    expect(f.hfe.status).toBe('partial');
    expect(f.hfe.result).toBe('No copy of H63D');
    expect(f.hfe.flags.map((x) => x.code)).toEqual(['single_letter_call']);
  });

  it('gives homozygous Factor V Leiden its own statement, apart from heterozygous', () => {
    const het = findings([['rs6025', 'CT']]).factor_v_leiden;
    const hom = findings([['rs6025', 'TT']]).factor_v_leiden;
    expect(hom.result).toBe('Two copies of Factor V Leiden');
    const homText = hom.statements.find((s) => s.pmid === '7888671')!.text;
    const hetText = het.statements.find((s) => s.pmid === '7888671')!.text;
    expect(homText).toMatch(/Two copies \(homozygous\).*about 80 times/);
    expect(hetText).toMatch(/One copy \(heterozygous\).*about 7 times/);
    expect(homText).not.toBe(hetText);
  });

  it('gives ε4/ε4 and ε3/ε4 the published lifetime risks with their source, and ε2/ε2 type III hyperlipoproteinaemia', () => {
    const apoe = (a: string, b: string) =>
      findings([
        ['rs429358', a],
        ['rs7412', b],
      ]).apoe;
    const e44 = apoe('CC', 'CC').statements.find((s) => s.pmid === '21556001');
    expect(e44?.text).toMatch(/51 % for men and 60 % for women with ε4\/ε4/);
    const e34 = apoe('CT', 'CC').statements.find((s) => s.pmid === '21556001');
    expect(e34?.text).toMatch(/23 % for men and 30 % for women with ε3\/ε4/);
    expect(FINDING_SOURCES['21556001']).toMatch(/Genin E .*Mol Psychiatry 2011/);
    for (const [a, b] of [
      ['TT', 'CC'],
      ['TT', 'CT'],
      ['CT', 'CT'],
    ])
      expect(apoe(a, b).statements.some((s) => s.pmid === '21556001')).toBe(false);
    const e22 = apoe('TT', 'TT').statements.find((s) => s.pmid === '10552997');
    expect(e22?.text).toMatch(/type III hyperlipoproteinaemia/);
    expect(apoe('TT', 'CT').statements.some((s) => /type III/.test(s.text))).toBe(false);
  });

  it('flags three or four risk alleles over HFE C282Y and H63D as implausible and claims nothing', () => {
    for (const [c, h] of [
      ['AA', 'CG'],
      ['AG', 'GG'],
      ['AA', 'GG'],
    ]) {
      const f = findings([
        ['rs1800562', c],
        ['rs1799945', h],
      ]).hfe;
      expect(f.result, `${c} ${h}`).toBe('Unusual combination');
      expect(f.statements).toEqual([]);
      expect(f.flags.map((x) => x.code)).toEqual(['implausible_combination']);
      expect(f.summary).toMatch(/reading error is more likely/);
    }
    const compound = findings([
      ['rs1800562', 'AG'],
      ['rs1799945', 'CG'],
    ]).hfe;
    expect(compound.flags).toEqual([]);
    expect(compound.result).toBe('One copy of C282Y, One copy of H63D');
  });

  it('states the lower reliability of a call of a variant rare in the person’s reference', () => {
    // Factor V Leiden was not seen in 1000 Genomes East Asian or African samples: half a copy among
    // 1,008 and 1,322 chromosomes, at 1 error in 1,000 calls, gives a positive predictive value ≤ 0.5.
    for (const ref of [EAST_ASIAN, AFRICAN]) {
      const f = findings([['rs6025', 'CT']], ref).factor_v_leiden;
      const r = f.markers[0].reliability!;
      expect(r.frequency_observed).toBe(false);
      expect(r.error_rate).toBe(1e-3);
      expect(r.positive_predictive_value).toBeLessThanOrEqual(0.5);
      expect(r.positive_predictive_value).toBeGreaterThan(0.3);
      expect(f.flags.map((x) => x.code)).toEqual(['rare_in_reference']);
      expect(f.limits[0].text).toMatch(
        new RegExp(`${ref.label.replace(/[()]/g, '\\$&')}.*right only about \\d+ % of the time`),
      );
      expect(f.limits[0].pmid).toBe('33589468');
    }
    // In Europeans (about 1.2 %) the call is reliable and no flag is raised.
    const eur = findings([['rs6025', 'CT']], EUROPEAN).factor_v_leiden;
    expect(eur.markers[0].reliability!.positive_predictive_value).toBeGreaterThan(0.95);
    expect(eur.flags).toEqual([]);
    // A mixed reference weighs the populations' frequencies.
    const mixed = findings([['rs6025', 'CT']], {
      label: 'Mixed',
      weights: { EUR: 0.5, AMR: 0, AFR: 0.5, EAS: 0, SAS: 0 },
    }).factor_v_leiden.markers[0].reliability!;
    expect(mixed.frequency).toBeCloseTo(0.5 * 0.0119 + 0.5 * (0.5 / 1322), 6);
    // Non-carriers get no reliability figure.
    expect(findings([['rs6025', 'CC']], EAST_ASIAN).factor_v_leiden.markers[0].reliability).toBeNull();
  });
});
