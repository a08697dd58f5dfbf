/**
 * Partially genotyped people are scored against a distribution built for them at runtime
 * resolution (reference.ts RUNTIME), coarser than the build resolution of the shipped
 * tables (BUILD, which the calibration and heavy-tail tests check against simulation).
 * This checks the runtime resolution against the build resolution on the catalog's own
 * traits with a seeded 15 % of their markers left out: percentiles of simulated people and
 * of the 0.1st, 1st, 99th and 99.9th percentile scores agree within half a percentile point.
 * Over every trait (.scratch harness, 2,029 traits): largest difference 0.52 points, 99 % of
 * traits within 0.13.
 */
import { describe, expect, it } from 'vitest';
import { compileCatalog, N_POPS } from '../../src/service/science/catalog.js';
import { setMarker, STRIDE } from '../../src/service/science/distribution/markers.js';
import { BUILD, RUNTIME, scoreDistribution } from '../../src/service/science/distribution/reference.js';
import { rng } from '../support/prng.js';
import { scienceSize } from '../support/science-scale.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

/** Traits drawn: 60 in test:all, 30 in npm test (the same limit; a wrong runtime resolution misses it on most traits). */
const TRAITS = scienceSize(30, 60);
const PEOPLE = 100;
const LEFT_OUT = 0.15;
const LIMIT_POINTS = 0.5;

describe('runtime resolution of distributions built for a person', () => {
  it(`puts percentiles within ${LIMIT_POINTS} points of the build resolution for ${TRAITS} catalog traits missing 15 % of their markers`, () => {
    const cat = compileCatalog(shippedCatalog().traits);
    const rand = rng(2026);
    // Multi-marker traits small enough for the build resolution to be quick, drawn at random.
    const pool = cat.traits.filter((t) => t.count >= 8 && t.count <= 400 && !t.rawScoreOnly);
    const chosen = Array.from({ length: TRAITS }, () => pool[Math.floor(rand() * pool.length)]);
    let worst = 0;
    let grids = 0;
    for (const [k, t] of chosen.entries()) {
      const pop = k % N_POPS; // every super-population's frequencies in turn
      const kept: number[] = [];
      for (let j = 0; j < t.count; j++) if (rand() >= LEFT_OUT) kept.push(t.start + j);
      const n = kept.length;
      const pts = new Float64Array(STRIDE * n);
      kept.forEach((i, j) =>
        setMarker(
          pts,
          j,
          cat.contrib[3 * i],
          cat.contrib[3 * i + 1],
          cat.contrib[3 * i + 2],
          cat.freq[i * N_POPS + pop],
          false,
        ),
      );
      const scores: number[] = [];
      for (let r = 0; r < PEOPLE; r++) {
        let s = 0;
        for (let j = 0; j < n; j++) {
          const o = STRIDE * j;
          const u = rand();
          s += u < pts[o + 3] ? pts[o] : u < pts[o + 3] + pts[o + 4] ? pts[o + 1] : pts[o + 2];
        }
        scores.push(s);
      }
      const fine = scoreDistribution(pts.slice(), n, 0, BUILD);
      const runtime = scoreDistribution(pts.slice(), n, 0, RUNTIME);
      if (runtime.method === 'grid') grids++;
      for (const q of [0.001, 0.01, 0.99, 0.999]) {
        let lo = fine.min;
        let hi = fine.max;
        for (let it = 0; it < 60; it++) {
          const mid = (lo + hi) / 2;
          if (fine.cdf(mid) < q) lo = mid;
          else hi = mid;
        }
        scores.push((lo + hi) / 2);
      }
      for (const s of scores) worst = Math.max(worst, 100 * Math.abs(runtime.cdf(s) - fine.cdf(s)));
    }
    expect(grids, 'most chosen traits need the grid, not exact enumeration').toBeGreaterThan(TRAITS / 3);
    expect(worst).toBeLessThanOrEqual(LIMIT_POINTS);
  });
});
