/** What scoring takes from the person: sex (applicability, hemizygous X), the reference population, off-scale text. */
import { describe, expect, it } from 'vitest';
import { percentileText, sexOf } from '../../src/service/science/engine.js';
import { chooseReference, cleanMixture } from '../../src/service/science/reference-population.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import { contextOf, genotypeOf, inferredAncestry, NO_ANCESTRY, testEngine, traitOf } from './helpers.js';

function sexSpecific(code: string, sex: 'male' | 'female', markers: Parameters<typeof traitOf>[1]): CatalogTrait {
  return { ...traitOf(code, markers), sex, sex_reason: `Applies to ${sex}s only: a test.` };
}
const m4 = (base: number) =>
  [0, 1, 2, 3].map((k) => ({ rsid: base + k, effect: 'A', other: 'G', weight: 0.1 * (k + 1), freq: 0.3 }));
const prostate = sexSpecific('prostate', 'male', m4(100));
const ovary = sexSpecific('ovary', 'female', m4(200));
const everyone = traitOf('everyone', m4(300));
// An X-chromosome marker (index 0) beside an autosomal one.
const xTrait: CatalogTrait = {
  ...traitOf('xtrait', [
    { rsid: 400, effect: 'A', other: 'G', weight: 1, freq: 0.2 },
    { rsid: 401, effect: 'C', other: 'T', weight: 1, freq: 0.5 },
  ]),
};
xTrait.markers.x = [0];
const engine = testEngine([prostate, ovary, everyone, xTrait]);
const all = genotypeOf(
  [100, 101, 102, 103, 200, 201, 202, 203, 300, 301, 302, 303].map((r) => [`rs${r}`, 'AG'] as [string, string]),
);

describe('sex-specific traits', () => {
  it('are not applicable to the other sex, with the reason, and computed for their own', () => {
    const female = engine.assessMany(all, contextOf(1, { gender: 2 }));
    expect(female.get('prostate')).toMatchObject({ status: 'unavailable', reason: { code: 'not_applicable' } });
    const prostate = female.get('prostate')!;
    expect(prostate.status === 'unavailable' && prostate.reason.detail).toMatch(
      /males only.*profile is female \(as given in the profile\)/,
    );
    expect(female.get('ovary')!.status).toBe('computed');
    expect(female.get('everyone')!.status).toBe('computed');
    const male = engine.assessMany(all, contextOf(1, { gender: 1 }));
    expect(male.get('prostate')!.status).toBe('computed');
    expect(male.get('ovary')).toMatchObject({ status: 'unavailable', reason: { code: 'not_applicable' } });
  });

  it('use the sex the DNA shows when the profile leaves it open, and say which', () => {
    const outcome = engine.assessMany(all, contextOf(1, { gender: 0, inferredSex: 'female' })).get('prostate')!;
    expect(outcome.status === 'unavailable' && outcome.reason.detail).toMatch(/as the DNA file shows/);
    expect(engine.assessMany(all, contextOf(1)).get('prostate')!.status).toBe('computed'); // sex unknown: shown
    expect(engine.unavailableReason('ovary', all, contextOf(1, { gender: 1 }))).toMatchObject({
      code: 'not_applicable',
    });
  });

  it('follow the profile when it contradicts the DNA, and the contradiction is pointed out', () => {
    expect(sexOf({ gender: 1, inferredSex: 'female' })).toEqual({
      value: 'male',
      source: 'profile',
      dna: 'female',
      mismatch: true,
    });
    expect(sexOf({ gender: 0, inferredSex: 'male' })).toEqual({
      value: 'male',
      source: 'dna',
      dna: 'male',
      mismatch: false,
    });
    expect(engine.assessMany(all, contextOf(1, { gender: 1, inferredSex: 'female' })).get('prostate')!.status).toBe(
      'computed',
    );
  });
});

describe('X-chromosome markers of XY people', () => {
  it('are hemizygous: the reference has no heterozygotes (dosage 0 or 2, as PLINK counts a haploid call)', () => {
    // XY: rs400 is A (dosage 2) with P .2, G (0) with P .8; rs401 diploid C/T at .5.
    // Score 2 + 1 = 3. P(S<3) = P(X=0)·P(Y≤2) + P(X=2)·P(Y<1) = .8·1 + .2·.25 = .85; P(S=3) = .2·.5 = .1 → 90.
    const g = genotypeOf([
      ['rs400', 'A'],
      ['rs401', 'CT'],
    ]);
    const xy = engine.assess('xtrait', g, contextOf(1, { inferredSex: 'male' }))!;
    expect(xy.score).toBeCloseTo(3, 12);
    expect(xy.percentile).toBeCloseTo(90, 9);
    // The same genotype read as diploid (XX reference): P(X=2) = .04, P(X=1) = .32.
    const xx = engine.assess(
      'xtrait',
      genotypeOf([
        ['rs400', 'AA'],
        ['rs401', 'CT'],
      ]),
      contextOf(1, { inferredSex: 'female' }),
    )!;
    expect(xx.percentile).not.toBeCloseTo(90, 1);
  });
});

describe('reference population', () => {
  const g = genotypeOf([
    ['rs300', 'AG'],
    ['rs301', 'AG'],
    ['rs302', 'AG'],
    ['rs303', 'AG'],
  ]);
  it('follows the ethnicity the person chose', () => {
    const ref = engine.reference(g, contextOf(3));
    expect(ref).toMatchObject({ population: 'AFR', source: 'ethnicity', label: 'African (AFR)' });
  });
  it('uses a confident estimate from the DNA, and a mixed reference for an admixed person', () => {
    expect(chooseReference(contextOf(0), inferredAncestry('EAS'))).toMatchObject({
      population: 'EAS',
      source: 'inferred',
    });
    const admixed = inferredAncestry('AFR', {
      admixed: true,
      proportions: { EUR: 0.38, AMR: 0.02, AFR: 0.6, EAS: 0, SAS: 0 },
    });
    const ref = chooseReference(contextOf(0), admixed);
    expect(ref.population).toBe('MIXED');
    expect(ref.source).toBe('inferred');
    expect(ref.weights.AMR).toBe(0); // under 5 %: left out, the rest rescaled
    expect(ref.weights.AFR + ref.weights.EUR).toBeCloseTo(1, 12);
    expect(ref.label).toBe('Mixed: 61 % African (AFR), 39 % European (EUR)');
  });
  it('is assumed — and says so — when the estimate is too thin', () => {
    const ref = chooseReference(contextOf(0), { ...NO_ANCESTRY, reason: 'Only 12 ancestry markers were found.' });
    expect(ref).toMatchObject({ population: 'EUR', source: 'assumed' });
    expect(ref.reason).toMatch(/^Only 12 ancestry markers were found\. .*Choose your ancestry/);
  });
  it('scores a mixed reference with frequencies Σ qₖ pₖ', () => {
    // One marker, p differs by population; 50/50 EUR/AFR mixture → p = (.2 + .6)/2 = .4.
    const one = traitOf('one', [{ rsid: 1, effect: 'A', other: 'G', weight: 1, freq: [0.2, 0.3, 0.6, 0.1, 0.5] }]);
    const e = testEngine([one]);
    const a = e.assess(
      'one',
      genotypeOf([['rs1', 'GG']]),
      contextOf(0, { mixture: { EUR: 0.5, AMR: 0, AFR: 0.5, EAS: 0, SAS: 0 } }),
    )!;
    expect(a.population).toBe('MIXED');
    expect(a.percentile).toBeCloseTo(100 * 0.5 * 0.6 * 0.6, 9); // mid-rank of the lowest score: ½ P(GG) = ½ · .36
    expect(cleanMixture({ EUR: 0.5, AMR: 0, AFR: 0.5, EAS: 0, SAS: 0 })).toEqual({
      EUR: 0.5,
      AMR: 0,
      AFR: 0.5,
      EAS: 0,
      SAS: 0,
    });
  });
});

describe('percentile text', () => {
  it('never says more than 100 of 100: off-scale scores are beyond the 99.9th (or below the 0.1st) percentile', () => {
    expect(percentileText(99.95)).toMatchObject({
      bound: 'above_99.9',
      text: expect.stringMatching(/^beyond the 99\.9th percentile/),
    });
    expect(percentileText(0.04)).toMatchObject({
      bound: 'below_0.1',
      text: expect.stringMatching(/^below the 0\.1st percentile/),
    });
    expect(percentileText(63.2)).toEqual({
      bound: null,
      text: '63rd percentile: higher than about 63 of 100 people in the reference',
    });
    expect(percentileText(11.4).text).toMatch(/^11th percentile/);
  });
});
