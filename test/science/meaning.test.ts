/**
 * What a result means (docs/science.md, "What a result means"): the absolute-risk models
 * against people simulated from the catalog's own frequencies, the UK Biobank conversion
 * against the source table's counts, the frequency table's citations, measurements from
 * the share explained, and the reliability note.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FREQUENCY_TABLE, readFrequencyTable } from '../../scripts/catalog/baseline.js';
import { readText } from '../../scripts/catalog/read.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import type { AssessContext, Population } from '../../src/service/science/types.js';
import { rng } from '../support/prng.js';
import { scienceSize } from '../support/science-scale.js';
import { simulateScores } from '../support/simulate-scores.js';
import { contextOf, genotypeOf, inferredAncestry, testEngine, traitOf } from './helpers.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

const RESOURCES = path.resolve(import.meta.dirname, '..', '..', 'resources');
const engine = createScienceEngine({ resourcesDir: RESOURCES });
const catalog = shippedCatalog();
const byCode = new Map(catalog.traits.map((t) => [t.code, t]));
const ETHNICITY: Record<Population, number> = { EUR: 1, AMR: 2, AFR: 3, EAS: 4, SAS: 5 };

function traitNamed(code: string): CatalogTrait {
  const t = byCode.get(code);
  if (!t) throw new Error(`${code} is not in the catalog`);
  return t;
}

/** A person drawn from the trait's own frequencies in `pop`: every marker genotyped. */
function personFor(t: CatalogTrait, pop: Population, random: () => number) {
  const m = t.markers;
  const entries: Array<[string, string]> = m.rsid.map((rs, i) => {
    const p = m.freq[pop][i];
    const d = (random() < p ? 1 : 0) + (random() < p ? 1 : 0);
    return [`rs${rs}`, m.effect[i].repeat(d) + m.other[i].repeat(2 - d)];
  });
  return genotypeOf(entries);
}

function ctx(pop: Population, gender: number): AssessContext {
  return contextOf(ETHNICITY[pop], { gender, ancestry: inferredAncestry(pop) });
}

const logit = (p: number) => Math.log(p / (1 - p));
const expit = (x: number) => 1 / (1 + Math.exp(-x));

describe('absolute risk from log odds ratios', () => {
  // Featured diseases with a cited frequency: many markers, few markers (bipolar disorder: 4),
  // sex-specific figures (type 2 diabetes, atrial fibrillation), two populations.
  const cases: Array<[string, Population, number]> = [
    ['type_2_diabetes', 'EUR', 2],
    ['type_2_diabetes', 'AFR', 1],
    ['atrial_fibrillation', 'EUR', 1],
    ['venous_thromboembolism', 'EAS', 2],
    ['celiac_disease', 'EUR', 2],
    ['bipolar_disorder', 'SAS', 1],
    ['schizophrenia', 'EUR', 2],
  ];
  const people = scienceSize(100_000, 400_000);

  it.each(cases)(
    '%s in %s: the mean chance over people simulated from the reference equals the frequency (within 0.1 point)',
    (code, pop, gender) => {
      const t = traitNamed(code);
      const random = rng(7);
      const a = engine.assess(code, personFor(t, pop, random), ctx(pop, gender))!;
      const m = a.meaning;
      expect(m.kind).toBe('risk');
      expect(m.frequency).not.toBeNull();
      expect(m.average).toBe(m.frequency!.value);
      expect(m.frequency!.pmid).toMatch(/^\d{6,9}$/);
      // The model is expit(intercept + score): recover the intercept from this person's chance.
      const intercept = logit(m.yours! / 100) - a.score;
      const scores = simulateScores(t, pop, people, rng(11));
      let sum = 0;
      for (const s of scores) sum += expit(intercept + s);
      expect(Math.abs((100 * sum) / people - m.average!)).toBeLessThan(0.1);
    },
  );

  it('rises with the score and with the odds against an average score', () => {
    const t = traitNamed('type_2_diabetes');
    const random = rng(3);
    const results = Array.from({ length: 40 }, () =>
      engine.assess(t.code, personFor(t, 'EUR', random), ctx('EUR', 1))!,
    );
    results.sort((x, y) => x.score - y.score);
    for (let i = 1; i < results.length; i++) {
      expect(results[i].meaning.yours!).toBeGreaterThanOrEqual(results[i - 1].meaning.yours!);
      expect(results[i].meaning.odds_vs_average!).toBeGreaterThanOrEqual(results[i - 1].meaning.odds_vs_average!);
    }
    expect(results[39].meaning.yours!).toBeGreaterThan(results[0].meaning.yours!);
    // Men's figure for a man (Narayan et al. 2003: 32.8 %).
    expect(results[0].meaning.frequency).toMatchObject({ value: 32.8, sex: 'male', pmid: '14532317' });
  });

  it('uses the figure for the person’s super-population where the source splits by it, and stays relative elsewhere', () => {
    const t = traitNamed('psoriasis');
    const eur = engine.assess(t.code, personFor(t, 'EUR', rng(5)), ctx('EUR', 2))!.meaning;
    const eas = engine.assess(t.code, personFor(t, 'EAS', rng(5)), ctx('EAS', 2))!.meaning;
    const afr = engine.assess(t.code, personFor(t, 'AFR', rng(5)), ctx('AFR', 2))!.meaning;
    expect(eur.frequency).toMatchObject({ value: 1.92, population: 'EUR' });
    expect(eas.frequency).toMatchObject({ value: 0.14, population: 'EAS' });
    expect(afr.kind).toBe('relative');
    expect(afr.reason).toMatch(/No frequency/);
    expect(afr.odds_vs_average).toBeGreaterThan(0);
  });
});

describe('UK Biobank traits: the cohort’s case share and the linear probability model', () => {
  // N.cases and N.controls as printed in ukbiobank_2017-09-28_trait_overoverview.tsv.gz, and
  // the share worked out by hand: cases / (cases + controls).
  const hand: Array<[string, number, number, number]> = [
    ['ukb_2834_ukbiobank', 14_702, 163_974, 8.2283],
    ['ukb_2453_ukbiobank', 26_576, 309_696, 7.9031],
    ['ukb_2443_ukbiobank', 16_183, 320_290, 4.8096],
  ];

  it.each(hand)(
    '%s: %i cases and %i controls give %f %%, and the chance moves by the score’s distance from the reference mean',
    (code, cases, controls, percent) => {
      const t = traitNamed(code);
      expect(t.baseline?.scale).toBe('probability');
      const a = engine.assess(code, personFor(t, 'EUR', rng(2)), ctx('EUR', 2))!;
      const m = a.meaning;
      expect(m.kind).toBe('risk');
      expect(m.frequency!.value).toBeCloseTo(percent, 3);
      expect(m.frequency!.source).toContain(
        `${cases.toLocaleString('en-US')} of ${(cases + controls).toLocaleString('en-US')}`,
      );
      expect(m.limits).toMatch(/40–69/);
      // By hand: the reference mean of an additive score is Σ 2p·w, so the chance is
      // K + Σ w (dosage − 2p) over the markers (every one genotyped here).
      let shift = 0;
      for (const marker of a.markers) {
        const i = t.markers.rsid.indexOf(Number(marker.rsid.slice(2)));
        shift += t.markers.weight[i] * (marker.dosage - 2 * t.markers.freq.EUR[i]);
      }
      expect(m.yours!).toBeCloseTo(percent + 100 * shift, 2);
      expect(m.effect_scale).toBe('percentage_points');
    },
  );
});

describe('the frequency table', () => {
  it('gives every figure a PMID, a source, a measure and when it applies', () => {
    const lines = readText(FREQUENCY_TABLE).trim().split('\n');
    const header = lines[0].split('\t');
    expect(header).toEqual(['code', 'sex', 'population', 'value', 'measure', 'horizon', 'source', 'pmid']);
    for (const line of lines.slice(1)) {
      const row = Object.fromEntries(line.split('\t').map((v, i) => [header[i], v]));
      expect(row.pmid, line).toMatch(/^\d{6,9}$/);
      expect(row.source.length, line).toBeGreaterThan(10);
      expect(Number(row.value), line).toBeGreaterThan(0);
      expect(Number(row.value), line).toBeLessThan(1);
    }
    expect(readFrequencyTable().size).toBeGreaterThan(10);
  });

  it('is what the shipped catalog carries, and every frequency in the catalog has a citation', () => {
    const table = readFrequencyTable();
    for (const [code, rows] of table) expect(traitNamed(code).baseline?.frequencies, code).toEqual(rows);
    for (const t of catalog.traits)
      for (const f of t.baseline?.frequencies ?? []) {
        expect(f.pmid, t.code).toMatch(/^\d{6,9}$/);
        expect(f.source, t.code).not.toBe('');
      }
  });
});

describe('measurements and results without absolute terms', () => {
  const markers = [
    { rsid: 11, effect: 'A', other: 'G', weight: 0.3, freq: 0.4 },
    { rsid: 12, effect: 'C', other: 'T', weight: 0.2, freq: 0.3 },
    { rsid: 13, effect: 'G', other: 'A', weight: 0.1, freq: 0.5 },
  ];
  const measured = traitOf('measured', markers);
  measured.baseline = { scale: 'trait_units', binary: false, frequencies: [], limits: null, scale_note: null };
  measured.evidence.variance_explained = { value: 0.04, description: 'test', source: 'test' };
  const unknown = traitOf('unknown', markers);
  unknown.baseline = { scale: 'trait_units', binary: false, frequencies: [], limits: null, scale_note: null };
  const local = testEngine([measured, unknown], inferredAncestry('EUR'));
  const g = genotypeOf([
    ['rs11', 'AA'],
    ['rs12', 'CC'],
    ['rs13', 'GA'],
  ]);

  it('gives the expected shift in trait SDs, √R² × z, and the spread √(1 − R²) people with that score still have', () => {
    const a = local.assess('measured', g, contextOf(1, { ancestry: inferredAncestry('EUR') }))!;
    const z = (a.score - a.distribution!.mean) / a.distribution!.sd;
    expect(a.meaning.kind).toBe('value');
    expect(a.meaning.yours!).toBeCloseTo(0.2 * z, 3);
    expect(a.meaning.spread!).toBeCloseTo(Math.sqrt(0.96), 6);
    expect(a.meaning.unit).toBe('SD');
  });

  it('stays relative and says why when neither a unit nor the share explained is known', () => {
    const m = local.assess('unknown', g, contextOf(1, { ancestry: inferredAncestry('EUR') }))!.meaning;
    expect(m).toMatchObject({ kind: 'relative', yours: null, average: null, frequency: null });
    expect(m.reason).toMatch(/unit/);
  });
});

describe('reliability for the person', () => {
  it('marks absolute figures as less certain away from European ancestry, with the published figure', () => {
    const t = traitNamed('type_2_diabetes');
    const afr = engine.assess(t.code, personFor(t, 'AFR', rng(1)), ctx('AFR', 2))!.meaning;
    const eur = engine.assess(t.code, personFor(t, 'EUR', rng(1)), ctx('EUR', 2))!.meaning;
    expect(afr.less_certain).toBe(true);
    expect(afr.reliability).toMatch(/24 %/);
    expect(afr.reliability).toMatch(/37198491/);
    expect(eur.less_certain).toBe(false);
  });
});
