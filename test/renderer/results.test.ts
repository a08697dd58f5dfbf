/** The rules the profile page is built on: one row per phenotype, notable results, what changed. */
import { describe, expect, it } from 'vitest';
import type { ClientTrait, ProfileTrait, Trait } from '../../src/shared/api.js';
import {
  informativeness,
  informativenessLevel,
  notableResults,
  notability,
} from '../../src/renderer/src/lib/notable.js';
import { changedResults, comparedWith, recalculatedText } from '../../src/renderer/src/lib/reference.js';
import { isSensitive, phenotypeRows, rowMatches, sortRows } from '../../src/renderer/src/lib/results.js';

function trait(code: string, extra: Partial<Trait> = {}): Trait {
  return {
    code,
    name: code,
    overview: '',
    connotation: 'neutral',
    category: 'Body',
    featured: false,
    quality: {
      markers: 10,
      sample_size: 100_000,
      publication_year: 2020,
      evidence: 'strong',
      study_id: null,
      pmid: null,
      first_author: null,
      citation: '',
    },
    group: { code, name: code, size: 1, headline: true },
    evidence: {
      label: 'strong',
      reasons: [],
      genome_wide_markers: 20,
      top_marker_share: 0.1,
      curated: true,
      flags: [],
      variance_explained: null,
    },
    ...extra,
  };
}

function result(t: Trait, percentile: number, extra: Partial<ProfileTrait> = {}): ProfileTrait {
  return {
    trait: t,
    status: 'computed',
    percentile,
    assessment_level: percentile < 10 ? 1 : percentile < 30 ? 2 : percentile <= 70 ? 3 : percentile < 90 ? 4 : 5,
    coverage: 1,
    ...extra,
  };
}

describe('phenotype rows', () => {
  const headline = trait('ldl_a', { group: { code: 'ldl_a', name: 'LDL cholesterol', size: 3, headline: true } });
  const other = trait('ldl_b', { group: { code: 'ldl_a', name: 'LDL cholesterol', size: 3, headline: false } });
  const weak = trait('ldl_c', {
    group: { code: 'ldl_a', name: 'LDL cholesterol', size: 3, headline: false },
    evidence: { ...trait('x').evidence!, label: 'suggestive' },
  });
  const catalog: ClientTrait[] = [headline, other, weak].map((t) => ({ trait: t, type: 'basic' }));

  it('makes one row per phenotype, named by the group, with the headline result and the other studies under it', () => {
    const rows = phenotypeRows(catalog, {
      statuses: {},
      reasons: {},
      results: { ldl_a: result(headline, 80), ldl_b: result(other, 20) },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: 'ldl_a', name: 'LDL cholesterol' });
    expect(rows[0].main.trait.code).toBe('ldl_a');
    expect(rows[0].others.map((s) => s.trait.code)).toEqual(['ldl_b', 'ldl_c']);
  });

  it('shows the strongest study with a result when the headline has none', () => {
    const rows = phenotypeRows(catalog, {
      statuses: { ldl_a: 'unavailable' },
      reasons: {},
      results: { ldl_b: result(other, 50), ldl_c: result(weak, 99) },
    });
    expect(rows[0].main.trait.code).toBe('ldl_b');
  });

  it('filters sensitive phenotypes and sorts by percentile', () => {
    const cancer = trait('breast', {
      name: 'Breast cancer',
      category: 'Cancer',
      connotation: 'risky',
      group: { code: 'breast', name: 'Breast cancer', size: 1, headline: true },
    });
    expect(isSensitive(cancer)).toBe(true);
    expect(isSensitive(headline)).toBe(false);
    const rows = phenotypeRows([...catalog, { trait: cancer, type: 'basic' }], {
      statuses: {},
      reasons: {},
      results: { ldl_a: result(headline, 80), breast: result(cancer, 95) },
    });
    const visible = rows.filter((r) =>
      rowMatches(r, { query: '', show: 'results', evidence: [], hideSensitive: true, category: '' }, []),
    );
    expect(visible.map((r) => r.key)).toEqual(['ldl_a']);
    expect(sortRows(rows, 'percentile_high').map((r) => r.key)).toEqual(['breast', 'ldl_a']);
  });
});

/** A result's meaning as the API gives it, with only what the ranking reads. */
function meaning(extra: Partial<NonNullable<ProfileTrait['meaning']>>): NonNullable<ProfileTrait['meaning']> {
  return {
    kind: 'relative',
    yours: null,
    average: null,
    unit: null,
    horizon: null,
    effect_per_sd: null,
    effect_scale: null,
    variance_explained: null,
    variance_explained_from_score: null,
    spread: null,
    odds_vs_average: null,
    frequency: null,
    model: '',
    reliability: '',
    less_certain: false,
    limits: null,
    reason: null,
    summary: '',
    ...extra,
  };
}

const risk = (yours: number, average: number, v = 0.02) =>
  meaning({ kind: 'risk', yours, average, unit: 'percent', variance_explained: v });
const value = (shiftSd: number, v: number) =>
  meaning({ kind: 'value', yours: shiftSd, average: 0, unit: 'SD', spread: Math.sqrt(1 - v), variance_explained: v });

describe('notable results', () => {
  it('rank by the difference from average in points, not by how extreme the rank is; at most 10', () => {
    const items = [
      // An extreme rank for a score that moves the chance by half a point: never notable.
      { result: result(trait('left_handed'), 99.5, { meaning: risk(10.6, 10.1, 0.001) }), featured: true },
      { result: result(trait('diabetes'), 80, { meaning: risk(41, 33) }), featured: true },
      { result: result(trait('gout'), 95, { meaning: risk(9, 5.9) }), featured: false },
      // A measurement the score explains well: shifted by 0.5 SD (√0.1 × 1.6 SD of score).
      { result: result(trait('height'), 95, { meaning: value(0.5, 0.1) }), featured: true },
      // One it explains little: a large rank, a tiny expected shift.
      { result: result(trait('trivial'), 99.9, { meaning: value(0.03, 0.0003) }), featured: true },
      // No absolute terms, odds 1.5 times average: after every absolute result.
      { result: result(trait('odds'), 97, { meaning: meaning({ odds_vs_average: 1.5 }) }), featured: false },
      // A rank alone: never notable.
      { result: result(trait('rank_only'), 99.9), featured: true },
      ...Array.from({ length: 7 }, (_, i) => ({
        result: result(trait(`r${i}`), 90, { meaning: risk(2 + i, 1) }),
        featured: false,
      })),
    ];
    const order = notableResults(items).map((c) => c.result.trait.code);
    expect(order).toHaveLength(10);
    expect(order).not.toContain('left_handed');
    expect(order).not.toContain('trivial');
    expect(order).not.toContain('rank_only');
    const points = notableResults(items).map((c) => notability(c.result));
    expect(points).toEqual([...points].sort((a, b) => b - a));
    expect(order.indexOf('diabetes')).toBeLessThan(order.indexOf('gout'));
    // Half an SD moves the chance of being in the tallest tenth from 10 to about 20 in 100.
    expect(notability(items[3].result)).toBeGreaterThan(8);
    expect(notability(items[3].result)).toBeLessThan(14);
  });

  it('lists results without absolute terms only after all with them, and only when their odds differ enough', () => {
    const items = [
      { result: result(trait('odds_high'), 97, { meaning: meaning({ odds_vs_average: 1.5 }) }), featured: false },
      { result: result(trait('odds_small'), 97, { meaning: meaning({ odds_vs_average: 1.1 }) }), featured: false },
      { result: result(trait('chance'), 70, { meaning: risk(6, 4) }), featured: false },
    ];
    expect(notableResults(items).map((c) => c.result.trait.code)).toEqual(['chance', 'odds_high']);
  });

  it('tells more with a larger share explained and full coverage; a score that moves a chance by under a point tells very little', () => {
    const base = result(trait('a'), 95);
    const explained = result(
      trait('b', {
        evidence: { ...trait('x').evidence!, variance_explained: { value: 0.1, description: '', source: 'PMID 1' } },
      }),
      95,
    );
    const halfRead = result(trait('c'), 95, {
      coverage: 0.5,
      evidence: {
        label: 'strong',
        trait_label: 'strong',
        coverage: 0.5,
        markers_used: 5,
        markers_total: 10,
        genome_wide_markers: 5,
        top_marker_share: 0.1,
        variance_explained: null,
        reasons: [],
      },
    });
    expect(informativeness(explained)).toBeGreaterThan(informativeness(base));
    expect(informativeness(halfRead)).toBeLessThan(informativeness(base));
    const tiny = result(trait('d'), 99, { meaning: risk(10.4, 10, 0.2) });
    const moving = result(trait('e'), 99, { meaning: risk(20, 10, 0.2) });
    expect(informativenessLevel(informativeness(tiny)).label).toBe('Very little');
    expect(informativenessLevel(informativeness(moving)).step).toBe(4);
  });

  it('follows what each score can explain: rank correlation with the share explained × coverage of at least 0.7', () => {
    const random = (() => {
      let x = 12345;
      return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    })();
    const rows = Array.from({ length: 200 }, (_, i) => {
      const v = 10 ** (-4 + 3.5 * random());
      const coverage = 0.75 + 0.25 * random();
      const r = result(trait(`t${i}`), 50, { coverage, meaning: risk(12, 10, v) });
      return { explains: v * coverage * coverage, meter: informativeness(r) };
    });
    const rank = (xs: number[]) => {
      const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
      const out = new Array<number>(xs.length);
      order.forEach(([, i], k) => (out[i] = k));
      return out;
    };
    const a = rank(rows.map((r) => r.explains));
    const b = rank(rows.map((r) => r.meter));
    const n = rows.length;
    const d2 = a.reduce((s, x, i) => s + (x - b[i]) ** 2, 0);
    const spearman = 1 - (6 * d2) / (n * (n * n - 1));
    expect(spearman).toBeGreaterThanOrEqual(0.7);
  });
});

describe('a change of reference', () => {
  it('counts the results that moved and says so', () => {
    const t = trait('a');
    const before = { a: result(t, 40), b: result(trait('b'), 12) };
    const after = { a: result(t, 75), b: result(trait('b'), 12) };
    const diff = changedResults(before, after);
    expect(diff).toEqual({ changed: 1, levels: 1 });
    expect(recalculatedText('African', diff)).toBe(
      'Recalculated against the African reference: 1 result changed (1 moved to another level).',
    );
    expect(comparedWith({ population: 'EUR', population_source: 'assumed' })).toBe('European (EUR), assumed');
  });
});
