/**
 * Sex chromosomes from genotype calls. Males have one X: their X calls are haploid or
 * homozygous (a few heterozygous calls are genotyping error). Females have two X (many
 * heterozygous calls) and no Y, so their Y markers come back as no-calls.
 * The pseudo-autosomal region (XY) is diploid in both and is ignored.
 */
import { CHROM_X, CHROM_Y } from '../encoding.js';
import type { Genotype } from '../types.js';

/** Enough markers for the rates to mean something. */
const MIN_X_CALLS = 20;
const MIN_Y_MARKERS = 10;
/** Heterozygous share of called X markers: at most this for male, at least FEMALE for female. */
const MALE_MAX_X_HET = 0.02;
const FEMALE_MIN_X_HET = 0.05;
/** Called share of listed Y markers: at least this for male, at most FEMALE for female. */
const MALE_MIN_Y_CALLED = 0.5;
const FEMALE_MAX_Y_CALLED = 0.1;

export interface SexEvidence {
  xCalled: number;
  xHet: number;
  yMarkers: number;
  yCalled: number;
}

export function sexEvidence(g: Genotype): SexEvidence {
  const ev: SexEvidence = { xCalled: 0, xHet: 0, yMarkers: 0, yCalled: 0 };
  for (let i = 0; i < g.chroms.length; i++) {
    const c = g.chroms[i];
    if (c === CHROM_X) {
      const call = g.calls[i];
      if (call === 0) continue;
      ev.xCalled++;
      const a2 = call & 0xf;
      if (a2 !== 0 && a2 !== call >> 4) ev.xHet++;
    } else if (c === CHROM_Y) {
      ev.yMarkers++;
      if (g.calls[i] !== 0) ev.yCalled++;
    }
  }
  return ev;
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
