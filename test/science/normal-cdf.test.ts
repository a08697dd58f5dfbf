/** The one normal CDF (src/shared/normal.ts) the score distributions and the UI's notable ranking share. */
import { describe, expect, it } from 'vitest';
import { normalCdf } from '../../src/shared/normal.js';
import { normalCdf as serviceNormalCdf } from '../../src/service/science/distribution/normal.js';
import { pointsFromAverage } from '../../src/renderer/src/lib/notable.js';
import type { ProfileTrait } from '../../src/shared/api.js';

describe('normalCdf', () => {
  it('matches tabulated values of Φ to 1.5e-7', () => {
    // Φ at these points, from the standard normal table (R: pnorm).
    const table: [number, number][] = [
      [-5, 2.866515719e-7],
      [-3, 0.001349898032],
      [-1.2815515655446004, 0.1],
      [-1, 0.1586552539],
      [0, 0.5],
      [0.5, 0.6914624613],
      [1.959963985, 0.975],
      [4, 0.9999683288],
    ];
    for (const [z, p] of table) expect(Math.abs(normalCdf(z) - p)).toBeLessThan(1.5e-7);
  });

  it('is symmetric and monotone', () => {
    let last = 0;
    for (let z = -8; z <= 8; z += 0.01) {
      expect(normalCdf(z) + normalCdf(-z)).toBeCloseTo(1, 12);
      expect(normalCdf(z)).toBeGreaterThanOrEqual(last);
      last = normalCdf(z);
    }
  });

  it('is the same function the service scores with', () => {
    expect(serviceNormalCdf).toBe(normalCdf);
  });

  it("drives the UI's points from average: 100 × (1 − Φ((1.2816 − |Δ|) / s)) − 10", () => {
    const r = { meaning: { kind: 'value', yours: 0.5, average: 0, spread: 0.9 } } as unknown as ProfileTrait;
    const expected = 100 * (1 - normalCdf((1.2815515655446004 - 0.5) / 0.9)) - 10;
    expect(pointsFromAverage(r)).toBeCloseTo(expected, 10);
  });
});
