/** Percentiles in words: grammatical off the scale, never "100 of 100" or "0 of 100". */
import { describe, expect, it } from 'vitest';
import type { ProfileTrait } from '../../src/shared/api.js';
import { resultsCsv } from '../../src/renderer/src/lib/export.js';
import { percentileSentence } from '../../src/renderer/src/lib/format.js';
import { percentileText } from '../../src/service/science/engine.js';

const NEVER = /\b(100|0) of 100\b|at the beyond|at the below/;

describe('percentile words', () => {
  it('never say 100 of 100 or 0 of 100, in the service or the UI, over the whole scale', () => {
    // Every such sentence of the 10,001 steps, in one expect.
    const wrong: string[] = [];
    for (let p = 0; p <= 100; p += 0.01) {
      const service = percentileText(p);
      const ui = percentileSentence(p, service.bound);
      for (const text of [service.text, ui]) if (NEVER.test(text)) wrong.push(`${p}: ${text}`);
    }
    expect(wrong).toEqual([]);
    expect(percentileSentence(99.95, 'above_99.9')).toMatch(/^beyond the 99\.9th percentile/);
    expect(percentileSentence(0.05, 'below_0.1')).toMatch(/^below the 0\.1st percentile: lower than/);
    expect(percentileSentence(99.7, null)).toMatch(/^99th percentile: higher than about 99 of 100/);
  });

  it('rebuilds the CSV percentile_text from the figure, even for a result stored with the old words', async () => {
    const stored = {
      trait: { code: 'x', name: 'X', category: 'Body', featured: true },
      assessment_level: 5,
      level_label: 'Much higher than average',
      percentile: 99.7,
      percentile_bound: null,
      percentile_text: '100th percentile: higher than about 100 of 100 people in the reference',
      snps: [],
    } as unknown as ProfileTrait;
    const csv = await resultsCsv(
      { profile: { id: 'p', name: 'P' } as never, genotype: undefined, results: [stored], generatedAt: new Date(0) },
      () => Promise.resolve([]),
    );
    expect(csv).toContain('99th percentile: higher than about 99 of 100');
    expect(csv).not.toMatch(NEVER);
  });
});
