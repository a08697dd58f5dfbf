/** The stored hostile corpus through the parser: each file refused with its reason, or read with its note. */
import { describe, expect, it } from 'vitest';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { HOSTILE } from '../fixtures/hostile/corpus.js';

describe('hostile corpus', () => {
  for (const file of HOSTILE) {
    it(file.name, async () => {
      const r = await parseGenotypeBytes(await file.bytes());
      if (file.refused) {
        expect(r.ok, r.ok ? `read as ${r.summary.snp_count} markers` : '').toBe(false);
        if (!r.ok) expect(r.reason).toMatch(file.refused);
        return;
      }
      expect(r.ok, r.ok ? '' : r.reason).toBe(true);
      if (r.ok && file.notedAs) expect(r.summary.notes.join('\n')).toMatch(file.notedAs);
    });
  }
});
