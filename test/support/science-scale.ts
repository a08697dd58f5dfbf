/**
 * Size of the statistical validation suites (calibration, mixture calibration, heavy
 * tails, ancestry leave-one-out). They run in `npm run test:all` (and .ci/run) at the full
 * size their claims need; `TRAITSCOPE_SCIENCE=quick` runs a smaller seeded sample of each,
 * which still fails when the science is wrong, for a quick look while working on it.
 * docs/testing.md says what each size checks.
 */
export const FULL_SCIENCE = process.env.TRAITSCOPE_SCIENCE !== 'quick';

/** The full-size figure, or the quick one under TRAITSCOPE_SCIENCE=quick. */
export const scienceSize = (quick: number, full: number): number => (FULL_SCIENCE ? full : quick);
