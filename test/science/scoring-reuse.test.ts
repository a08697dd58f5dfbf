/**
 * What scoring keeps between results (meaning/index.ts: logistic intercepts per distribution,
 * frequencies and model texts per trait; reliability per reference; assessment.ts: table
 * summaries, percentile texts, the rare-call check without objects first) must not change a
 * result. One engine scores several people against several references in turn, reusing all
 * of it; a fresh engine per person and reference computes everything anew. Their outputs,
 * meaning and rare-call flags included, must be the same, byte for byte.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScienceEngine } from '../../src/service/science/index.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import type { AssessContext } from '../../src/service/science/types.js';
import { catalogMarkers, combine, genotypeOf, type Ancestry } from '../support/genotypes.js';
import { rng } from '../support/prng.js';
import { scienceSize } from '../support/science-scale.js';
import { contextOf } from './helpers.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const traits = shippedCatalog().traits;
/**
 * Traits of up to 60 markers (large ones only cost time here), log-odds traits with a
 * frequency (risk meanings) first, up to the size of the run: in test:all every one of them
 * and then others up to 400 traits; in npm test 16 of them and 8 others (those with a
 * measurement unit among them), so both kinds of meaning are still compared.
 */
const small = traits.filter((t) => t.markers.rsid.length <= 60);
const isRisk = (t: (typeof traits)[number]) => t.baseline?.scale === 'log_odds' && t.baseline.frequencies.length > 0;
const codes = [...small.filter(isRisk).slice(0, scienceSize(16, Infinity)), ...small.filter((t) => !isRisk(t))]
  .slice(0, scienceSize(24, 400))
  .map((t) => t.code);

/** People of several ancestries with a share of the catalog's markers: built distributions and rare calls. */
const people: Array<{ name: string; genotype: Genotype }> = (
  [
    ['European, every marker', 'EUR', 1],
    ['African, 85 % of markers', 'AFR', 0.85],
    ['East Asian, 90 % of markers', 'EAS', 0.9],
    ['admixed, 80 % of markers', { EUR: 0.5, AMR: 0.3, AFR: 0.2 }, 0.8],
  ] as Array<[string, Ancestry, number]>
)
  .slice(scienceSize(2, 0))
  .map(([name, population, coverage], k) => {
    const rand = rng(100 + k);
    const markers = catalogMarkers(100 + k, { traits: (t) => codes.includes(t.code), population });
    return { name, genotype: genotypeOf(combine([markers.filter(() => rand() < coverage)])) };
  });

const references: Array<[string, AssessContext]> = [
  ['European', contextOf(1)],
  ['East Asian, male', contextOf(4, { gender: 1 })],
  ['a mixture', contextOf(0, { mixture: { EUR: 0.5, AFR: 0.3, AMR: 0.2, EAS: 0, SAS: 0 }, gender: 2 })],
];

/**
 * An engine that shares nothing with any other: the distribution tables are opened once per
 * process and resources path (table-file.ts), so a path spelled differently ("resources/./")
 * gives it tables, and so intercepts and summaries, of its own.
 */
let spellings = 0;
/** As results are stored (no per-marker rows). */
const STORED = { details: false };
function freshEngine() {
  spellings++;
  return createScienceEngine({
    resourcesDir: `${resourcesDir}${'/.'.repeat(spellings)}`,
    ancestryPanel: 'on-first-use',
  });
}

describe('scoring with what earlier results kept', () => {
  it('gives every person the same results, meanings and rare-call flags as a fresh engine', () => {
    const reused = createScienceEngine({ resourcesDir, ancestryPanel: 'on-first-use' });
    const fresh = people.map(({ genotype }) =>
      references.map(([, context]) => freshEngine().assessMany(genotype, context, codes, STORED)),
    );
    let risks = 0;
    let rareCalls = 0;
    // Twice over everyone: the second round reads what the first kept.
    for (const round of [0, 1])
      for (const [i, { name, genotype }] of people.entries())
        for (const [j, [label, context]] of references.entries()) {
          const again = reused.assessMany(genotype, context, codes, STORED);
          expect(again.size).toBe(fresh[i][j].size);
          for (const [code, outcome] of fresh[i][j]) {
            expect(JSON.stringify(again.get(code)), `${name}, ${label}, ${code}, round ${round}`).toBe(
              JSON.stringify(outcome),
            );
            if (outcome.status === 'computed' && round === 0) {
              if (outcome.assessment.meaning.kind === 'risk') risks++;
              if (outcome.assessment.rare_call) rareCalls++;
            }
          }
        }
    // The comparison covered what it is about.
    expect(risks).toBeGreaterThan(scienceSize(10, 100));
    expect(rareCalls).toBeGreaterThan(0);
  });
});
