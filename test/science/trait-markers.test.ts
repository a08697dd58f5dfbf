/** The first stage of a trait's assessment: its markers matched to the person's calls (src/service/science/trait-markers.ts). */
import { describe, expect, it } from 'vitest';
import { callsAtSlots, compileCatalog, N_POPS } from '../../src/service/science/catalog.js';
import { STRIDE } from '../../src/service/science/distribution/markers.js';
import {
  countMatches,
  markerScratch,
  matchTraitMarkers,
  RARE_CALL_FREQUENCY,
} from '../../src/service/science/trait-markers.js';
import { genotypeOf, traitOf, type TestMarker } from './helpers.js';

const EUR_ONLY = [1, 0, 0, 0, 0];

// rs1 observed (one effect allele), rs2 observed with a rare effect allele carried, rs3 not
// genotyped (imputed at 2pw), rs4 genotyped with alleles that match neither strand (excluded).
const MARKERS: TestMarker[] = [
  { rsid: 1, effect: 'A', other: 'G', weight: 0.5, freq: 0.3 },
  { rsid: 2, effect: 'C', other: 'T', weight: 1, freq: 0.005 },
  { rsid: 3, effect: 'A', other: 'G', weight: 0.2, freq: 0.4 },
  { rsid: 4, effect: 'A', other: 'G', weight: 0.7, freq: 0.5 },
];
const GENOTYPE = genotypeOf([
  ['rs1', 'AG'],
  ['rs2', 'CT'],
  ['rs4', 'AC'],
]);

function setUp(markers = MARKERS) {
  const cat = compileCatalog([traitOf('t', markers)]);
  return { cat, t: cat.traits[0], slots: callsAtSlots(cat.uniqueRsids, GENOTYPE.rsids, GENOTYPE.calls) };
}

describe('matching a trait’s markers to the calls', () => {
  it('scores observed markers by dosage and the others at their expected contribution, and counts each kind', () => {
    const { cat, t, slots } = setUp();
    const scratch = markerScratch();
    const m = matchTraitMarkers(cat, t, slots, EUR_ONLY, false, true, scratch);
    expect(m).toMatchObject({ observed: 2, imputed: 1, excluded: 1, flipped: 0, rareCount: 1 });
    expect(m.observedScore).toBeCloseTo(0.5 + 1, 12);
    expect(m.constant).toBeCloseTo(2 * 0.4 * 0.2 + 2 * 0.5 * 0.7, 12);
    expect(m.score).toBeCloseTo(m.observedScore + m.constant, 12);
    expect(m.referenceMean).toBeCloseTo(2 * 0.3 * 0.5 + 2 * 0.005 * 1 + 2 * 0.4 * 0.2 + 2 * 0.5 * 0.7, 12);
    expect(m.snps).toEqual(['rs1', 'rs2']);
    expect(m.markers.map((r) => [r.rsid, r.genotype, r.use, r.dosage])).toEqual([
      ['rs1', 'AG', 'observed', 1],
      ['rs2', 'CT', 'observed', 1],
      ['rs3', '--', 'imputed', 2 * 0.4],
      ['rs4', 'AC', 'excluded', 2 * 0.5],
    ]);
    // The left-out markers by index, and the rare one (rs2's C at 0.5 % < RARE_CALL_FREQUENCY).
    expect([...scratch.leftOut.subarray(0, 2)]).toEqual([2, 3]);
    expect([...scratch.rareAt.subarray(0, m.rareCount)]).toEqual([1]);
    expect(0.005).toBeLessThan(RARE_CALL_FREQUENCY);
    // The observed markers' reference terms come first in pts, in trait order.
    expect(scratch.pts.length).toBeGreaterThanOrEqual(STRIDE * t.count);
  });

  it('agrees with countMatches, which the coverage checks use', () => {
    const { cat, t, slots } = setUp();
    const m = matchTraitMarkers(cat, t, slots, EUR_ONLY, false, false, markerScratch());
    expect(countMatches(cat, t, slots)).toEqual({
      markers: 4,
      observed: m.observed,
      excluded: m.excluded,
      coverage: m.observed / 4,
    });
  });

  it('weights each marker’s frequency by the reference’s population shares', () => {
    const mixed: TestMarker[] = [{ rsid: 3, effect: 'A', other: 'G', weight: 1, freq: [0.1, 0.2, 0.3, 0.4, 0.5] }];
    const { cat, t, slots } = setUp(mixed);
    const w = [0.5, 0, 0.5, 0, 0];
    expect(w.length).toBe(N_POPS);
    const m = matchTraitMarkers(cat, t, slots, w, false, false, markerScratch());
    expect(m.constant).toBeCloseTo(2 * (0.5 * 0.1 + 0.5 * 0.3), 12);
  });

  it('leaves out the per-marker rows when details are not wanted', () => {
    const { cat, t, slots } = setUp();
    const m = matchTraitMarkers(cat, t, slots, EUR_ONLY, false, false, markerScratch());
    expect(m.markers).toEqual([]);
    expect(m.snps).toEqual(['rs1', 'rs2']);
  });

  it('reuses the scratch for a shorter trait and grows it for a longer one', () => {
    const { cat, t, slots } = setUp();
    const scratch = markerScratch();
    const { pts, leftOut } = scratch;
    matchTraitMarkers(cat, t, slots, EUR_ONLY, false, false, scratch);
    expect(scratch.pts).toBe(pts);
    expect(scratch.leftOut).toBe(leftOut);
    const many: TestMarker[] = Array.from({ length: 1500 }, (_, k) => ({
      rsid: 100 + k,
      effect: 'A',
      other: 'G',
      weight: 0.01,
      freq: 0.005, // every one rare once carried
    }));
    const big = compileCatalog([traitOf('big', many)]);
    const calls = genotypeOf(many.map((m) => [`rs${m.rsid}`, 'AG'] as [string, string]));
    const bigSlots = callsAtSlots(big.uniqueRsids, calls.rsids, calls.calls);
    const m = matchTraitMarkers(big, big.traits[0], bigSlots, EUR_ONLY, false, false, scratch);
    expect(scratch.pts.length).toBe(STRIDE * 1500);
    expect(scratch.leftOut.length).toBe(1500);
    expect(m.rareCount).toBe(1500);
    expect(scratch.rareAt.length).toBeGreaterThanOrEqual(1500);
    expect(scratch.rareAt[1499]).toBe(1499);
  });
});
