/** The last stage of a trait's assessment: the assessment object built from the matched markers and the score's reference (src/service/science/assessment.ts). */
import { describe, expect, it } from 'vitest';
import {
  computedAssessment,
  percentileText,
  rawScoreAssessment,
  reachableLevels,
} from '../../src/service/science/assessment.js';
import { callsAtSlots, compileCatalog } from '../../src/service/science/catalog.js';
import { RUNTIME, scoreDistribution } from '../../src/service/science/distribution/reference.js';
import { LEVEL_LABELS, levelForPercentile } from '../../src/service/science/levels.js';
import { resultMeaning } from '../../src/service/science/meaning/index.js';
import { markerScratch, matchTraitMarkers } from '../../src/service/science/trait-markers.js';
import type { ReferencePopulation, SexInfo } from '../../src/service/science/types.js';
import { genotypeOf, traitOf, type TestMarker } from './helpers.js';

const EUR_ONLY = [1, 0, 0, 0, 0];
const REF = {
  population: 'EUR',
  source: 'profile',
  label: 'European',
  weights: { EUR: 1, AMR: 0, AFR: 0, EAS: 0, SAS: 0 },
} as unknown as ReferencePopulation;
const SEX: SexInfo = { value: null, source: null, dna: null, mismatch: false };

const markers = (n: number, rareFirst = false): TestMarker[] =>
  Array.from({ length: n }, (_, k) => ({
    rsid: k + 1,
    effect: 'A',
    other: 'G',
    weight: 0.1 + 0.01 * k,
    freq: rareFirst && k === 0 ? 0.002 : 0.3,
  }));

/** Assess a trait of the given markers for a person with these calls (others not genotyped). */
function assess(defs: TestMarker[], calls: Array<[string, string]>) {
  const def = traitOf('t', defs);
  def.evidence.label = 'strong';
  const cat = compileCatalog([def]);
  const t = cat.traits[0];
  const g = genotypeOf(calls);
  const slots = callsAtSlots(cat.uniqueRsids, g.rsids, g.calls);
  const scratch = markerScratch();
  const match = matchTraitMarkers(cat, t, slots, EUR_ONLY, false, true, scratch);
  const dist = scoreDistribution(scratch.pts, match.observed, match.constant, RUNTIME);
  const built = { dist, levels: reachableLevels(dist) };
  const coverage = match.observed / t.count;
  const assessment = computedAssessment({
    cat,
    t,
    slots,
    w: EUR_ONLY,
    match,
    rareAt: scratch.rareAt,
    coverage,
    table: null,
    built,
    ref: REF,
    sex: SEX,
    details: true,
  });
  return { assessment, match, dist, t };
}

describe('the assessment of a computed trait', () => {
  it('places the score in its reference distribution and names the level', () => {
    const defs = markers(20);
    const {
      assessment: a,
      match,
      dist,
    } = assess(
      defs,
      defs.map((m) => [`rs${m.rsid}`, 'AA']),
    );
    expect(a.score).toBe(match.score);
    expect(a.percentile).toBeCloseTo(100 * dist.cdf(match.score), 12);
    expect(a.percentile!).toBeGreaterThan(90); // every effect allele twice at 30 %
    expect(a.assessment_level).toBe(levelForPercentile(a.percentile!));
    expect(a.level_label).toBe(LEVEL_LABELS[a.assessment_level! - 1]);
    expect(a.percentile_text).toBe(percentileText(a.percentile!).text);
    expect(a.evidence).toMatchObject({ coverage: 1, markers_used: 20, markers_total: 20 });
    expect(a.match).toEqual({ markers: 20, observed: 20, imputed: 0, excluded: 0, strand_flipped: 0 });
    expect(a.distribution).toMatchObject({ source: 'computed', mean: dist.mean, sd: dist.sd });
    expect(a.rare_call).toBeNull();
    expect(a.meaning).not.toBeNull();
  });

  it('says why the evidence label drops when under 90 % of the markers were read', () => {
    const defs = markers(20);
    const { assessment: a } = assess(
      defs,
      defs.slice(0, 16).map((m) => [`rs${m.rsid}`, 'AG']),
    );
    expect(a.coverage).toBeCloseTo(0.8, 12);
    expect(a.evidence.reasons[0]).toMatch(/^80 % of the markers were genotyped \(90 % are needed/);
  });

  it('reports a rare call that decides the level, and leaves the level alone otherwise', () => {
    // One heavy marker whose effect allele is at 0.2 %: carrying it moves the score far up.
    const defs: TestMarker[] = [
      { rsid: 1, effect: 'A', other: 'G', weight: 3, freq: 0.002 },
      ...markers(10).map((m) => ({ ...m, rsid: m.rsid + 1 })),
    ];
    const carrier = assess(defs, [
      ['rs1', 'AG'],
      ...defs.slice(1).map((m) => [`rs${m.rsid}`, 'GG'] as [string, string]),
    ]);
    expect(carrier.match.rareCount).toBe(1);
    expect(carrier.assessment.rare_call).toMatchObject({ rsid: 'rs1', frequency: 0.002 });
    expect(carrier.assessment.rare_call!.level_without).not.toBe(carrier.assessment.assessment_level);
    expect(carrier.assessment.evidence.reasons[0]).toBe(carrier.assessment.rare_call!.text);
    const nonCarrier = assess(defs, [
      ['rs1', 'GG'],
      ...defs.slice(1).map((m) => [`rs${m.rsid}`, 'GG'] as [string, string]),
    ]);
    expect(nonCarrier.match.rareCount).toBe(0);
    expect(nonCarrier.assessment.rare_call).toBeNull();
  });
});

describe('the raw-score path', () => {
  it('gives no percentile or level, counts missing markers as adding nothing, and says why', () => {
    const defs = markers(4);
    const cat = compileCatalog([traitOf('t', defs)]);
    const t = { ...cat.traits[0], rawScoreOnly: 'no reference frequencies for 3 of 4 variants.' };
    const g = genotypeOf([
      ['rs1', 'AA'],
      ['rs2', 'AG'],
      ['rs3', 'GG'],
    ]);
    const match = matchTraitMarkers(
      cat,
      t,
      callsAtSlots(cat.uniqueRsids, g.rsids, g.calls),
      EUR_ONLY,
      false,
      true,
      markerScratch(),
    );
    const a = rawScoreAssessment(
      t,
      match.observedScore,
      match.markers,
      match.snps,
      0.75,
      REF,
      { markers: 4, observed: 3, imputed: 1, excluded: 0, strand_flipped: 0 },
      resultMeaning({ trait: t, score: match.observedScore, reference: null, ref: REF, sex: SEX }),
    );
    expect(a).toMatchObject({
      percentile: null,
      assessment_level: null,
      distribution: null,
      level_label: 'No percentile',
    });
    expect(a.percentile_text).toBe('No percentile: no reference frequencies for 3 of 4 variants.');
    expect(a.score).toBeCloseTo(2 * 0.1 + 0.11, 12);
    expect(a.markers[3]).toMatchObject({ rsid: 'rs4', use: 'imputed', dosage: 0 });
    expect(a.recommendations).toMatch(/3 of its 4 variants found in your file/);
  });
});
