/** Hand-computed scoring examples: one and several markers, strand flips, palindromes, missing markers, populations. */
import { describe, expect, it } from 'vitest';
import { normalCdf } from '../../src/service/science/distribution/normal.js';
import { contextOf, genotypeOf, inferredAncestry, testEngine, traitOf } from './helpers.js';

const EUR = contextOf(1);

// One marker, rs1 A>G, weight 0.5, effect-allele (A) frequency EUR .2, AMR .3, AFR .6, EAS .1, SAS .5.
const one = traitOf('one', [{ rsid: 1, effect: 'A', other: 'G', weight: 0.5, freq: [0.2, 0.3, 0.6, 0.1, 0.5] }]);
// A palindromic marker rs2 A/T (effect A, p = .1) and a non-palindromic rs3 C>T (effect C, p = .5).
const pal = traitOf('pal', [{ rsid: 2, effect: 'A', other: 'T', weight: 1, freq: 0.1 }]);
// Two markers: rs10 weight 1 (p .5), rs11 weight 2 (p .1).
const two = traitOf('two', [
  { rsid: 10, effect: 'C', other: 'T', weight: 1, freq: 0.5 },
  { rsid: 11, effect: 'G', other: 'A', weight: 2, freq: 0.1 },
]);
// Four markers with equal weight, for missing markers and the coverage threshold.
const four = traitOf(
  'four',
  [20, 21, 22, 23].map((rsid) => ({ rsid, effect: 'A', other: 'C', weight: 1, freq: 0.5 })),
);
const engine = testEngine([one, pal, two, four]);

describe('one-marker trait', () => {
  // EUR: P(0) = .64, P(.5) = .32, P(1) = .04.
  it.each([
    ['GG', 0, 32, 3],
    ['AG', 0.5, 80, 4],
    ['GA', 0.5, 80, 4],
    ['AA', 1, 98, 5],
  ])('%s scores %d at percentile %d', (gt, score, pct, level) => {
    const a = engine.assess('one', genotypeOf([['rs1', gt]]), EUR)!;
    expect(a.score).toBeCloseTo(score, 12);
    expect(a.percentile).toBeCloseTo(pct, 9);
    expect(a.assessment_level).toBe(level);
    expect(a.recommendations).toBe(`r${level}`);
    expect(a.distribution!.method).toBe('exact');
    expect(a.snps).toEqual(['rs1']);
    expect(a.coverage).toBe(1);
    expect(a.population).toBe('EUR');
  });

  it('uses the frequency of every population', () => {
    // AG under p: P(S < .5) = (1−p)², P(S = .5) = 2p(1−p); percentile = 100((1−p)² + p(1−p)) = 100(1 − p).
    const g = genotypeOf([['rs1', 'AG']]);
    const expected: Record<number, [string, number]> = {
      1: ['EUR', 80],
      2: ['AMR', 70],
      3: ['AFR', 40],
      4: ['EAS', 90],
      5: ['SAS', 50],
    };
    for (const [eth, [pop, pct]] of Object.entries(expected)) {
      const a = engine.assess('one', g, contextOf(Number(eth)))!;
      expect(a.population).toBe(pop);
      expect(a.population_source).toBe('ethnicity');
      expect(a.percentile).toBeCloseTo(pct, 9);
    }
  });

  it('matches the complement strand of a non-palindromic marker', () => {
    // A/G on the other strand is T/C: TC → one effect allele, TT → two.
    const tc = engine.assess('one', genotypeOf([['rs1', 'TC']]), EUR)!;
    expect(tc.score).toBeCloseTo(0.5, 12);
    expect(tc.match).toMatchObject({ observed: 1, strand_flipped: 1, excluded: 0 });
    expect(engine.assess('one', genotypeOf([['rs1', 'TT']]), EUR)!.score).toBeCloseTo(1, 12);
    expect(engine.assess('one', genotypeOf([['rs1', 'CC']]), EUR)!.score).toBe(0);
  });

  it('excludes calls whose alleles match neither strand', () => {
    // A/C is neither A/G nor T/C; a one-marker trait with its only marker excluded is not computable.
    const g = genotypeOf([['rs1', 'AC']]);
    expect(engine.isComputable('one', g)).toBe(false);
    expect(engine.assess('one', g, EUR)).toBeNull();
    expect(engine.coverage('one', g)).toMatchObject({ observed: 0, excluded: 1 });
  });

  it('reads a single letter on an autosomal marker as a no-call, not as two copies (haploid X calls: person.test.ts)', () => {
    for (const letter of ['A', 'G']) {
      const g = genotypeOf([['rs1', letter]]);
      expect(engine.assess('one', g, EUR), letter).toBeNull();
      expect(engine.coverage('one', g)).toMatchObject({ observed: 0, excluded: 0 });
    }
  });

  it('is unavailable without the marker or with a no-call', () => {
    expect(engine.isComputable('one', genotypeOf([['rs99', 'AA']]))).toBe(false);
    expect(engine.assess('one', genotypeOf([['rs1', '--']]), EUR)).toBeNull();
    expect(engine.assess('nope', genotypeOf([['rs1', 'AA']]), EUR)).toBeNull();
  });
});

describe('palindromic markers', () => {
  it('match directly only: TT is zero copies of A, never a flipped AA', () => {
    expect(engine.assess('pal', genotypeOf([['rs2', 'TT']]), EUR)!.score).toBe(0);
    expect(engine.assess('pal', genotypeOf([['rs2', 'AA']]), EUR)!.score).toBe(2);
    const het = engine.assess('pal', genotypeOf([['rs2', 'AT']]), EUR)!;
    expect(het.score).toBe(1);
    expect(het.match?.strand_flipped).toBe(0);
  });
  it('exclude other letters (C/G is not the complement strand of an A/T marker)', () => {
    expect(engine.coverage('pal', genotypeOf([['rs2', 'CG']]))).toMatchObject({ observed: 0, excluded: 1 });
  });
});

describe('multi-marker trait', () => {
  // S = X + 2Y, X ~ {0: .25, 1: .5, 2: .25}, Y ~ {0: .81, 1: .18, 2: .01}.
  // Support: 0 .2025, 1 .405, 2 .2025+.045=.2475, 3 .09, 4 .045+.0025=.0475, 5 .005, 6 .0025.
  const pmf = [0.2025, 0.405, 0.2475, 0.09, 0.0475, 0.005, 0.0025];
  const pct = (s: number) => 100 * (pmf.slice(0, s).reduce((a, b) => a + b, 0) + pmf[s] / 2);
  it.each([
    ['TT', 'AA', 0],
    ['CT', 'AA', 1],
    ['CC', 'AA', 2],
    ['CT', 'AG', 3],
    ['CC', 'AG', 4],
    ['CT', 'GG', 5],
    ['CC', 'GG', 6],
  ])('%s %s → score %d', (g10, g11, s) => {
    const a = engine.assess(
      'two',
      genotypeOf([
        ['rs10', g10],
        ['rs11', g11],
      ]),
      EUR,
    )!;
    expect(a.score).toBeCloseTo(s, 12);
    expect(a.percentile).toBeCloseTo(pct(s), 9);
    expect(a.distribution!.mean).toBeCloseTo(1 + 0.4, 12);
    expect(a.distribution!.sd).toBeCloseTo(Math.sqrt(0.5 + 4 * 0.18), 12);
    expect(a.distribution!.density.map(([, p]) => p)).toEqual(pmf.map((p) => expect.closeTo(p, 12)));
  });

  it('imputes a missing marker at its expected dosage and keeps the percentile of the observed part', () => {
    // rs23 missing (3 of 4 observed, 75 %): score = 1 + 2 + 0 + 1·(2·0.5) = 4; observed sum 3 of
    // Binomial(6, .5): P(<3) = 22/64, P(=3) = 20/64 → percentile 50.
    const a = engine.assess(
      'four',
      genotypeOf([
        ['rs20', 'AC'],
        ['rs21', 'AA'],
        ['rs22', 'CC'],
      ]),
      EUR,
    )!;
    expect(a.score).toBeCloseTo(4, 12);
    expect(a.percentile).toBeCloseTo(50, 9);
    expect(a.coverage).toBe(0.75);
    expect(a.snps).toEqual(['rs20', 'rs21', 'rs22']);
    expect(a.match).toEqual({ markers: 4, observed: 3, imputed: 1, excluded: 0, strand_flipped: 0 });
    expect(a.markers.find((m) => m.rsid === 'rs23')).toMatchObject({ use: 'imputed', genotype: '--', dosage: 1 });
    // Under 90 % of the markers: the result's evidence is one step below the trait's.
    expect(a.evidence).toMatchObject({
      label: 'limited',
      trait_label: 'limited',
      markers_used: 3,
      markers_total: 4,
      coverage: 0.75,
    });
  });

  it('applies the coverage threshold (75 % of the markers, as pgsc_calc) and says why', () => {
    const two = genotypeOf([
      ['rs20', 'AA'],
      ['rs21', 'AC'],
    ]);
    expect(engine.isComputable('four', two)).toBe(false);
    expect(engine.assess('four', two, EUR)).toBeNull();
    const outcome = engine.assessMany(two, EUR, ['four']).get('four')!;
    expect(outcome).toMatchObject({ status: 'unavailable', reason: { code: 'low_coverage' } });
    expect(outcome.status === 'unavailable' && outcome.reason.detail).toMatch(
      /Only 2 of this score's 4 markers \(50 %\).*at least 75 %/,
    );
    expect(
      engine.isComputable(
        'four',
        genotypeOf([
          ['rs20', 'AA'],
          ['rs21', 'AC'],
          ['rs23', 'CC'],
        ]),
      ),
    ).toBe(true);
  });

  it('counts only calls that are read towards the threshold: mismatched alleles and single letters are not', () => {
    // Three of four genotyped, but rs22's A/G matches neither strand of A/C (nor T/G) and rs23's single
    // letter is a no-call on an autosome: two read, unavailable.
    const threeCalled = genotypeOf([
      ['rs20', 'AA'],
      ['rs21', 'AC'],
      ['rs22', 'AG'],
      ['rs23', 'A'],
    ]);
    const outcome = engine.assessMany(threeCalled, EUR, ['four']).get('four')!;
    expect(outcome).toMatchObject({ status: 'unavailable', reason: { code: 'low_coverage' } });
    expect(outcome.status === 'unavailable' && outcome.reason.detail).toMatch(
      /^Only 2 of this score's 4 markers \(50 %\)/,
    );
    // rs23 read as well: three of four, computed, with the excluded marker counted as such.
    const threeRead = genotypeOf([
      ['rs20', 'AA'],
      ['rs21', 'AC'],
      ['rs22', 'AG'],
      ['rs23', 'CC'],
    ]);
    const computed = engine.assessMany(threeRead, EUR, ['four']).get('four')!;
    expect(computed.status).toBe('computed');
    expect(computed.status === 'computed' && computed.assessment.match).toEqual({
      markers: 4,
      observed: 3,
      imputed: 0,
      excluded: 1,
      strand_flipped: 0,
    });
  });
});

describe('many markers: close to normal', () => {
  const markers = Array.from({ length: 200 }, (_, i) => ({
    rsid: 1000 + i,
    effect: 'A',
    other: 'G',
    weight: 0.01 * ((i % 17) + 1),
    freq: 0.05 + (i % 9) * 0.1,
  }));
  const big = traitOf('big', markers);
  const e = testEngine([big]);
  it('has mean Σ2pw and variance Σ2p(1−p)w², and a percentile close to the normal one', () => {
    const g = genotypeOf(markers.map((m, i) => [`rs${m.rsid}`, i % 3 === 0 ? 'AA' : i % 3 === 1 ? 'AG' : 'GG']));
    const a = e.assess('big', g, EUR)!;
    let s = 0;
    let mean = 0;
    let v = 0;
    markers.forEach((m, i) => {
      const d = i % 3 === 0 ? 2 : i % 3 === 1 ? 1 : 0;
      s += m.weight * d;
      mean += 2 * m.freq * m.weight;
      v += 2 * m.freq * (1 - m.freq) * m.weight ** 2;
    });
    expect(a.score).toBeCloseTo(s, 10);
    expect(a.distribution!.mean).toBeCloseTo(mean, 10);
    expect(a.distribution!.sd).toBeCloseTo(Math.sqrt(v), 10);
    // 200 small markers: the exact distribution is within a percentile point of the normal one.
    expect(Math.abs(a.percentile! - 100 * normalCdf((s - mean) / Math.sqrt(v)))).toBeLessThan(1);
  });
  it('normalCdf is accurate', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963985)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655254, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.001349898, 7);
  });
});

describe('population choice', () => {
  const g = genotypeOf([['rs1', 'AG']]);
  it('uses the inferred population for ethnicity 0', () => {
    const a = engine.assess('one', g, contextOf(0, { ancestry: inferredAncestry('AFR') }))!;
    expect(a.population).toBe('AFR');
    expect(a.population_source).toBe('inferred');
    expect(a.percentile).toBeCloseTo(40, 9);
  });
  it('assumes EUR when nothing can be inferred, and says so', () => {
    const a = engine.assess('one', g, contextOf(0))!;
    expect(a.population).toBe('EUR');
    expect(a.population_source).toBe('assumed');
    expect(a.reference.source).toBe('assumed');
    expect(a.reference.reason).toMatch(/too few|No ancestry markers/i);
    expect(a.reference.reason).toMatch(/Choose your ancestry/);
  });
});
