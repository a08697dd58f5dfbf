/**
 * Single-variant findings (src/service/science/findings.ts): genotype calls in, the curated
 * statements out; strand flips, palindromes, missing markers and no-calls said honestly.
 */
import { describe, expect, it } from 'vitest';
import { findRsid } from '../../src/service/genotype/encoding.js';
import {
  FINDING_GENES,
  FINDING_SOURCES,
  findingsFor,
  type Finding,
  type FindingCode,
} from '../../src/service/science/findings.js';
import { genotypeOf } from './helpers.js';

function findings(entries: Array<[string, string]>): Record<FindingCode, Finding> {
  const g = genotypeOf(entries);
  const lookup = (rsid: number) => {
    const i = findRsid(g.rsids, rsid);
    return i < 0 ? undefined : g.calls[i];
  };
  return Object.fromEntries(findingsFor(lookup).map((f) => [f.code, f])) as Record<FindingCode, Finding>;
}

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
      // Qualitative only: no invented risk figures.
      for (const s of f.statements) expect(s.text).not.toMatch(/\d+\s*%|\d+(\.\d+)?\s*(x|times|-fold)/i);
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
});
