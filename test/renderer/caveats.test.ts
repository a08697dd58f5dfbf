/** A notable result is never shown without its caveats: group disagreement, one marker, a rare call, off the scale. */
import { describe, expect, it } from 'vitest';
import type { ProfileTrait } from '../../src/shared/api.js';
import { caveatSentence, resultCaveats } from '../../src/renderer/src/lib/caveats.js';

function result(extra: Record<string, unknown>): ProfileTrait {
  return {
    trait: { code: 'x', name: 'X', quality: { markers: 40 }, evidence: { top_marker_share: 0.1 } },
    status: 'computed',
    percentile: 95,
    percentile_bound: null,
    evidence: { markers_total: 40, top_marker_share: 0.1 },
    ...extra,
  } as unknown as ProfileTrait;
}

describe('caveats of a notable result', () => {
  it('has none for a many-marker result its group agrees with', () => {
    expect(resultCaveats(result({ group_agreement: { others: 8, agree: 6, disagree: 2, summary: '' } }))).toEqual([]);
  });

  it('says when most other studies of the phenotype disagree (lupus: 0 of 8 agree)', () => {
    const c = resultCaveats(result({ group_agreement: { others: 8, agree: 0, disagree: 8, summary: '' } }));
    expect(c.map((x) => x.kind)).toEqual(['disagree']);
    expect(caveatSentence(c)).toBe('Read with care: 8 of the 8 other studies of this phenotype place you differently.');
  });

  it('marks one-marker and one-marker-dominated scores, rare calls and off-scale results', () => {
    expect(resultCaveats(result({ evidence: { markers_total: 1, top_marker_share: 1 } }))[0].text).toBe(
      'rests on a single marker',
    );
    const spread = resultCaveats(
      result({ evidence: { markers_total: 12, top_marker_share: 0.45 }, percentile_bound: 'above_99.9' }),
    );
    expect(spread.map((x) => x.kind)).toEqual(['off_scale']);
    const rosuvastatin = resultCaveats(
      result({
        evidence: { markers_total: 12, top_marker_share: 0.7 },
        percentile_bound: 'above_99.9',
        rare_call: {
          rsid: 'rs4149056',
          frequency: 0.004,
          markers: [],
          level_without: 4,
          percentile_without: 88,
          text: 'rs4149056 decides the result.',
        },
      }),
    );
    expect(rosuvastatin.map((x) => x.kind)).toEqual(['one_marker', 'rare_call', 'off_scale']);
    expect(caveatSentence(rosuvastatin)).toMatch(/one marker carries 70 % of the score.*beyond the 99\.9th percentile/);
    expect(caveatSentence(rosuvastatin)).toMatch(/rests on a rare call \(rs4149056\)/);
    expect(caveatSentence(rosuvastatin)).not.toMatch(/at the beyond/);
  });

  it('reads a result without a rare call (null, or stored before the flag existed) as having none', () => {
    expect(resultCaveats(result({ rare_call: null }))).toEqual([]);
    expect(resultCaveats(result({}))).toEqual([]);
  });
});
