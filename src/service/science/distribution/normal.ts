/** The normal distribution and its Edgeworth correction, for the smooth part of a score. */

import { normalCdf } from '../../../shared/normal.js';

export { normalCdf };

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

export function normalPdf(z: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * z * z);
}

/**
 * CDF of a standardized sum with skewness g1 and excess kurtosis g2, by the Edgeworth
 * expansion to order 1/n: Φ(z) − φ(z)[g1/6·He2(z) + g2/24·He3(z) + g1²/72·He5(z)].
 * Used only for sums of many small markers (each under a tenth of the sum's standard
 * deviation), where g1 and g2 are small and the expansion is accurate; clamped to [0, 1].
 */
export function edgeworthCdf(z: number, g1: number, g2: number): number {
  if (g1 === 0 && g2 === 0) return normalCdf(z);
  const z2 = z * z;
  const he2 = z2 - 1;
  const he3 = z * (z2 - 3);
  const he5 = z * (z2 * z2 - 10 * z2 + 15);
  const f = normalCdf(z) - normalPdf(z) * ((g1 / 6) * he2 + (g2 / 24) * he3 + ((g1 * g1) / 72) * he5);
  return f < 0 ? 0 : f > 1 ? 1 : f;
}

/** Density matching edgeworthCdf (its derivative), clamped at 0. */
export function edgeworthPdf(z: number, g1: number, g2: number): number {
  const z2 = z * z;
  const he3 = z * (z2 - 3);
  const he4 = z2 * z2 - 6 * z2 + 3;
  const he6 = z2 * z2 * z2 - 15 * z2 * z2 + 45 * z2 - 15;
  const d = normalPdf(z) * (1 + (g1 / 6) * he3 + (g2 / 24) * he4 + ((g1 * g1) / 72) * he6);
  return d > 0 ? d : 0;
}
