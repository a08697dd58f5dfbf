/**
 * The calibration proof: percentiles are uniform in all five super-populations.
 * For every trait with at least two markers, people are simulated from the catalog's own
 * frequencies (seeded), their scores placed with the same CDF the engine uses for a fully
 * genotyped person (the shipped table, or the distribution built at scoring time), and a
 * Kolmogorov–Smirnov test checks the result against U(0, 1) at α = 0.01. Discrete scores
 * use the randomized probability integral transform (a uniform draw within the atom's
 * step), which is exactly uniform when the distribution is right. Chance alone fails 1 %
 * of the traits; the suite allows 2 %. `npm test` checks a seeded sample of 400 traits per
 * population, `npm run test:science` (and CI) every trait (test/support/science-scale.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import { POPULATION_ORDER } from '../../src/service/science/format.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import { rng, seededSample } from '../support/prng.js';
import { scienceSize } from '../support/science-scale.js';
import { ksUniform, simulateScores } from '../support/simulate-scores.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const engine = createScienceEngine({ resourcesDir });
const multiMarker = readCatalogFile(resourcesDir).traits.filter((t) => t.markers.rsid.length >= 2);
const TRAITS = scienceSize(400, multiMarker.length);
const PEOPLE = 200;
const ALPHA = 0.01;
const ALLOWED_FAILING_SHARE = 0.02;

/** Randomized PIT: F(s−) + V·P(S = s), from the mid-rank CDF on either side of the score. */
function pit(cdf: (s: number) => number, s: number, scale: number, v: number): number {
  const eps = 1e-7 * scale;
  const below = cdf(s - eps);
  const above = cdf(s + eps);
  return below + v * (above - below);
}

describe('percentiles are calibrated in every super-population (KS, α = 0.01)', () => {
  it.each(POPULATION_ORDER.map((p, i) => [p, i] as const))(
    `%s: at most 2 percent of ${TRAITS} multi-marker traits fail`,
    (pop, i) => {
      const random = rng(1000 + i);
      const traits = TRAITS < multiMarker.length ? seededSample(multiMarker, TRAITS, 100 + i) : multiMarker;
      const failing: string[] = [];
      for (const t of traits) {
        const ref = engine.fullCoverageCdf(t.code, pop)!;
        const scores = simulateScores(t, pop, PEOPLE, random);
        const scale = 1 + t.markers.weight.reduce((a, w) => a + Math.abs(w), 0);
        const u = Array.from(scores, (s) => pit(ref.cdf, s, scale, random()));
        if (ksUniform(u).p < ALPHA) failing.push(t.code);
      }
      const share = failing.length / traits.length;
      expect(
        share,
        `${failing.length} of ${traits.length} traits fail in ${pop}: ${failing.slice(0, 20).join(', ')}`,
      ).toBeLessThanOrEqual(ALLOWED_FAILING_SHARE);
    },
  );
});
