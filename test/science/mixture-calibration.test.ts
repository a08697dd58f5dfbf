/**
 * The proof for admixed people: compared with a reference mixed in their proportions
 * (per-marker frequency Σ qₖ pₖ), their percentiles are calibrated. People are simulated as
 * two-way mixtures at 25/50/75 % (each allele drawn from population k with probability qₖ,
 * as in a recently admixed genome without its local-ancestry blocks), scored with the CDF the
 * engine builds for that mixture, and a Kolmogorov–Smirnov test of the randomized probability
 * integral transform checks uniformity at α = 0.01 on a seeded sample of multi-marker traits
 * (150 per mixture in `npm test`, 300 in `npm run test:science` and CI: test/support/science-scale.ts).
 * Chance alone fails 1 %; at most 2 % may fail. The proportions themselves are checked in
 * test/science/ancestry-validation.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import type { Population } from '../../src/service/science/types.js';
import { rng, seededSample } from '../support/prng.js';
import { scienceSize } from '../support/science-scale.js';
import { ksUniform, simulateScores } from '../support/simulate-scores.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const engine = createScienceEngine({ resourcesDir });
const TRAITS = scienceSize(150, 300);
const PEOPLE = 200;

function mixture(a: Population, b: Population, share: number): Record<Population, number> {
  const q: Record<Population, number> = { EUR: 0, AMR: 0, AFR: 0, EAS: 0, SAS: 0 };
  q[a] = share;
  q[b] = 1 - share;
  return q;
}

const multiMarker = readCatalogFile(resourcesDir).traits.filter((t) => t.markers.rsid.length >= 2);

describe('percentiles against a mixed reference are calibrated for people of that mixture (KS, α = 0.01)', () => {
  const cases: Array<[string, Record<Population, number>]> = [
    ['25 % AFR, 75 % EUR', mixture('AFR', 'EUR', 0.25)],
    ['50 % AFR, 50 % EUR', mixture('AFR', 'EUR', 0.5)],
    ['75 % AFR, 25 % EUR', mixture('AFR', 'EUR', 0.75)],
    ['50 % EAS, 50 % EUR', mixture('EAS', 'EUR', 0.5)],
    ['50 % AMR, 50 % AFR', mixture('AMR', 'AFR', 0.5)],
  ];
  it.each(cases.map(([label, q], i) => [label, q, i] as const))(
    `%s: at most 2 percent of ${TRAITS} traits fail`,
    (_label, q, i) => {
      const random = rng(7000 + i);
      const failing: string[] = [];
      const traits = seededSample(multiMarker, TRAITS, 70 + i);
      for (const t of traits) {
        const ref = engine.fullCoverageCdf(t.code, q)!;
        const scale = 1 + t.markers.weight.reduce((a, w) => a + Math.abs(w), 0);
        const eps = 1e-7 * scale;
        const u = Array.from(simulateScores(t, q, PEOPLE, random), (s) => {
          const below = ref.cdf(s - eps);
          return below + random() * (ref.cdf(s + eps) - below);
        });
        if (ksUniform(u).p < 0.01) failing.push(t.code);
      }
      expect(
        failing.length / traits.length,
        `${failing.length} of ${traits.length} fail: ${failing.slice(0, 20).join(', ')}`,
      ).toBeLessThanOrEqual(0.02);
    },
  );
});
