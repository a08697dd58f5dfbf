/**
 * Rare calls (docs/science.md, "Rare calls"): a call of an allele rarer than 1 % in the
 * person's reference that moves the result across a level is flagged, with a reason and the
 * advice to confirm it. Checked on the shipped catalog's featured traits with genomes built
 * for the purpose — an average European genome, then the same genome with one rare
 * heterozygous call — through the real engine; and on synthetic traits whose outcome is known.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScienceEngine } from '../../src/service/science/index.js';
import type { Assessment } from '../../src/service/science/types.js';
import { contextOf, genotypeOf, testEngine, traitOf } from './helpers.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const engine = createScienceEngine({ resourcesDir });
const file = shippedCatalog();
const EUR = contextOf(1);
/** Thresholds of the check, kept here rather than imported. */
const RARE = 0.01;

const complement: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' };

interface RareCase {
  code: string;
  rsid: string;
  frequency: number;
  average: Assessment;
  withRare: Assessment;
}

/**
 * For every featured trait and every marker whose effect allele is rarer than 1 % in EUR:
 * the average genome (each marker at the genotype nearest its expected dosage 2p, the rare
 * allele absent) against the same genome with one copy of the rare allele.
 */
/** Traits the checks name whether or not they are featured (melanoma is not: it has no cited lifetime risk). */
const NAMED = ['type_2_diabetes', 'ldl_cholesterol', 'melanoma'];

function rareCases(): RareCase[] {
  const out: RareCase[] = [];
  for (const t of file.traits) {
    if (!t.featured && !NAMED.includes(t.code)) continue;
    const m = t.markers;
    const eur = m.freq.EUR;
    const base: Array<[string, string]> = m.rsid.map((rs, i) => {
      const p = eur[i] ?? 0;
      const d = Math.round(2 * p);
      return [`rs${rs}`, m.effect[i].repeat(d) + m.other[i].repeat(2 - d)];
    });
    const rare = m.rsid
      .map((rs, i) => ({ rs, i, p: eur[i] ?? 1 }))
      .filter((x) => x.p < RARE && m.effect[x.i] !== complement[m.other[x.i]]);

    if (!rare.length) continue;
    const average = engine.assess(t.code, genotypeOf(base), EUR);
    if (!average) continue;
    for (const { rs, i, p } of rare) {
      const withRare = base.map(([id, gt]): [string, string] =>
        id === `rs${rs}` ? [id, m.effect[i] + m.other[i]] : [id, gt],
      );
      const a = engine.assess(t.code, genotypeOf(withRare), EUR);
      if (a) out.push({ code: t.code, rsid: `rs${rs}`, frequency: p, average, withRare: a });
    }
  }
  return out;
}

describe('rare calls on the featured traits of the shipped catalog', () => {
  const cases = rareCases();
  const moved = cases.filter((c) => c.withRare.assessment_level !== c.average.assessment_level);

  it('finds featured traits where one rare heterozygous call moves an average European across a level', () => {
    const codes = new Set(moved.map((c) => c.code));
    const featured = new Set(file.traits.filter((t) => t.featured).map((t) => t.code));
    expect([...codes].filter((c) => featured.has(c)).length, [...codes].join(', ')).toBeGreaterThanOrEqual(13);
    for (const named of NAMED) expect([...codes]).toContain(named);
  });

  it('flags every such result, names the call and advises confirmation citing Weedon et al. 2021', () => {
    for (const c of moved) {
      const r = c.withRare.rare_call;
      expect(
        r,
        `${c.code} ${c.rsid}: level ${c.average.assessment_level} → ${c.withRare.assessment_level}`,
      ).not.toBeNull();
      expect(r!.markers.map((x) => x.rsid)).toContain(c.rsid);
      expect(r!.level_without).toBe(c.average.assessment_level);
      expect(r!.frequency).toBeLessThan(RARE);
      expect(r!.text).toContain(c.rsid);
      expect(r!.text).toMatch(/confirmed by a clinical laboratory/);
      expect(r!.text).toContain('33589468');
      expect(c.withRare.evidence.reasons[0]).toBe(r!.text);
    }
  });

  it('never shows a featured result at level 5 made by a rare call without the flag', () => {
    const fives = cases.filter((c) => c.withRare.assessment_level === 5 && c.average.assessment_level !== 5);
    for (const c of fives) expect(c.withRare.rare_call, `${c.code} ${c.rsid}`).not.toBeNull();
  });

  it('leaves the average genome unflagged (it carries no rare allele)', () => {
    for (const c of cases) expect(c.average.rare_call, c.code).toBeNull();
  });
});

describe('rare calls on a synthetic trait', () => {
  // One rare large-effect marker and 40 common small ones.
  const common = Array.from({ length: 40 }, (_, k) => ({
    rsid: 1000 + k,
    effect: 'A',
    other: 'G',
    weight: 0.05,
    freq: 0.5,
  }));
  const trait = traitOf('rare_test', [
    ...common,
    { rsid: 7, effect: 'C', other: 'T', weight: 1.5, freq: [0.002, 0.002, 0.3, 0.002, 0.002] },
  ]);
  const e = testEngine([trait]);
  const average = common.map((m): [string, string] => [`rs${m.rsid}`, m.rsid % 2 ? 'AA' : 'GG']);

  it('flags a heterozygous call of a 0.2 % allele that lifts an average person to level 5', () => {
    const a = e.assess('rare_test', genotypeOf([...average, ['rs7', 'CT']]), EUR)!;
    expect(a.assessment_level).toBe(5);
    expect(a.rare_call).toMatchObject({ rsid: 'rs7', level_without: 3 });
    expect(a.rare_call!.markers[0]).toMatchObject({ rsid: 'rs7', genotype: 'CT', allele: 'C', level_without: 3 });
    expect(a.rare_call!.frequency).toBeCloseTo(0.002, 6);
  });

  it('does not flag the same call where the allele is common (African reference: 30 %)', () => {
    const a = e.assess('rare_test', genotypeOf([...average, ['rs7', 'CT']]), contextOf(3))!;
    expect(a.rare_call).toBeNull();
  });

  it('reads a single letter on an autosome as a no-call, not as two copies', () => {
    const single = e.assess('rare_test', genotypeOf([...average, ['rs7', 'C']]), EUR)!;
    const none = e.assess('rare_test', genotypeOf([...average, ['rs7', '--']]), EUR)!;
    expect(single.score).toBe(none.score);
    expect(single.match.imputed).toBe(1);
    expect(single.markers.find((m) => m.rsid === 'rs7')!.use).toBe('imputed');
    expect(single.rare_call).toBeNull();
  });
});
