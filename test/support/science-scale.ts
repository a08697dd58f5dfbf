/**
 * Size of the tests that prove the science over many people or cases (calibration, mixture
 * calibration, heavy tails, ancestry leave-one-out, every diplotype of every drug–gene), and
 * of the property-based tests that draw thousands of cases (test/security/fuzz.test.ts). They
 * run at the full size their claims need in `npm run test:all` (and .ci/run); `npm test`
 * (vitest.config.ts, mode quick) and `TRAITSCOPE_SCIENCE=quick` run a smaller seeded sample,
 * which still fails when the science is wrong.
 * docs/testing.md says what each size checks.
 */
export const FULL_SCIENCE = process.env.TRAITSCOPE_SCIENCE !== 'quick';

/** The full-size figure, or the quick one under TRAITSCOPE_SCIENCE=quick. */
export const scienceSize = (quick: number, full: number): number => (FULL_SCIENCE ? full : quick);
