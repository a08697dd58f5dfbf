/**
 * Size of the statistical validation suites (calibration, mixture calibration, heavy
 * tails, ancestry leave-one-out). `npm test` runs a smaller seeded sample of each, which
 * still fails when the science is wrong, so the suite stays under 90 s on 2 cores;
 * `TRAITSCOPE_SCIENCE=full` (`npm run test:science`, and `.ci/run`, which runs the whole
 * suite with it) runs the sizes the issues ask for. docs/testing.md says why.
 */
export const FULL_SCIENCE = process.env.TRAITSCOPE_SCIENCE === 'full';

/** The full-size figure under TRAITSCOPE_SCIENCE=full, the quick one otherwise. */
export const scienceSize = (quick: number, full: number): number => (FULL_SCIENCE ? full : quick);
