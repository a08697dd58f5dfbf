import { describe, expect, it } from 'vitest';
import { parseGenotypeFile } from '../../src/service/genotype/parse/index.js';
import { ACCEPTED, REJECTED } from '../fixtures/genotypes/expected.js';
import { fixturePath, markerRows, sortRows } from './helpers.js';

describe('fixture corpus: accepted files', () => {
  for (const fx of ACCEPTED) {
    it(`${fx.file} → ${fx.format}`, async () => {
      const r = await parseGenotypeFile(fixturePath(fx.file));
      if (!r.ok) throw new Error(`rejected: ${r.reason}`);
      const s = r.summary;
      expect(markerRows(r.genotype)).toEqual(sortRows(fx.markers));
      expect({ format: s.format, vendor: s.vendor, container: s.container, build: s.build }).toEqual({
        format: fx.format,
        vendor: fx.vendor,
        container: fx.container,
        build: fx.build,
      });
      if (fx.buildSource !== undefined) expect(s.build_source).toBe(fx.buildSource);
      if (fx.skipped) expect(s.skipped_by_reason).toEqual(fx.skipped);
      if (fx.duplicates !== undefined) expect(s.duplicates).toBe(fx.duplicates);
      if (fx.sex !== undefined) expect(s.inferred_sex).toBe(fx.sex);
      for (const note of fx.notes ?? []) expect(s.notes.join('\n')).toContain(note);
      // Summary arithmetic holds for every file.
      expect(s.snp_count).toBe(r.genotype.rsids.length);
      expect(s.no_calls).toBe(r.genotype.calls.filter((c) => c === 0).length);
      expect(s.call_rate).toBeCloseTo((s.snp_count - s.no_calls) / s.snp_count, 10);
      expect(s.skipped_lines).toBe(Object.values(s.skipped_by_reason).reduce((a, b) => a + b, 0));
    });
  }
});

describe('fixture corpus: rejected files', () => {
  for (const fx of REJECTED) {
    it(`${fx.file} is refused with a reason`, async () => {
      const r = await parseGenotypeFile(fixturePath(fx.file));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(fx.reason);
    });
  }
});
