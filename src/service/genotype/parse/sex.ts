/**
 * Sex chromosomes from genotype calls. Males have one X: their X calls are haploid or
 * homozygous (a few heterozygous calls are genotyping error). Females have two X (many
 * heterozygous calls) and no Y, so their Y markers come back as no-calls.
 * The pseudo-autosomal region (XY) is diploid in both and is ignored.
 */

/** Enough markers for the rates to mean something. */
const MIN_X_CALLS = 20;
const MIN_Y_MARKERS = 10;
/** Heterozygous share of called X markers: at most this for male, at least FEMALE for female. */
const MALE_MAX_X_HET = 0.02;
const FEMALE_MIN_X_HET = 0.05;
/** Called share of listed Y markers: at least this for male, at most FEMALE for female. */
const MALE_MIN_Y_CALLED = 0.5;
const FEMALE_MAX_Y_CALLED = 0.1;

/**
 * Counted over the kept markers by the WebAssembly core (finish() in wasm/core.c): called
 * X markers and the heterozygous ones among them; Y markers, and the called ones.
 */
export interface SexEvidence {
  xCalled: number;
  xHet: number;
  yMarkers: number;
  yCalled: number;
}

export function inferSex(ev: SexEvidence): 'male' | 'female' | null {
  let fromX: 'male' | 'female' | null = null;
  if (ev.xCalled >= MIN_X_CALLS) {
    const het = ev.xHet / ev.xCalled;
    if (het <= MALE_MAX_X_HET) fromX = 'male';
    else if (het >= FEMALE_MIN_X_HET) fromX = 'female';
  }
  let fromY: 'male' | 'female' | null = null;
  if (ev.yMarkers >= MIN_Y_MARKERS) {
    const called = ev.yCalled / ev.yMarkers;
    if (called >= MALE_MIN_Y_CALLED) fromY = 'male';
    else if (called <= FEMALE_MAX_Y_CALLED) fromY = 'female';
  }
  if (fromX && fromY) return fromX === fromY ? fromX : null;
  return fromX ?? fromY;
}
