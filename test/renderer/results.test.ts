/** The rules the profile page is built on: one row per phenotype, notable results, what changed. */
import { describe, expect, it } from 'vitest';
import type { ClientTrait, ProfileTrait, Trait } from '../../src/shared/api.js';
import { informativeness, notableResults, notability } from '../../src/renderer/src/lib/notable.js';
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

describe('notable results', () => {
  it('never lists average results, ranks by distance times how much a result tells, featured first, at most 10', () => {
    const items = Array.from({ length: 14 }, (_, i) => ({
      result: result(trait(`t${i}`), i % 2 ? 2 + i : 98 - i),
      featured: false,
    }));
    items.push({ result: result(trait('avg'), 55), featured: true });
    items.push({
      result: result(trait('feat', { evidence: { ...trait('x').evidence!, label: 'moderate' } }), 85),
      featured: true,
    });
    const top = notableResults(items);
    expect(top).toHaveLength(10);
    expect(top.map((c) => c.result.trait.code)).not.toContain('avg');
    expect(top[0].result.trait.code).toBe('feat');
    const rest = top.slice(1).map((c) => notability(c.result));
    expect(rest).toEqual([...rest].sort((a, b) => b - a));
  });

  it('tells more with stronger evidence, full coverage and a published explained variance', () => {
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
