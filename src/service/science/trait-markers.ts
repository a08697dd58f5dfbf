/**
 * The first stage of assessing a trait: its markers matched to the person's calls. One loop
 * over the trait's slice of the compiled catalog's flat arrays gives the score (missing markers
 * at their expected contribution), the match counts, each marker's place in the reference
 * distribution (distribution/markers.ts) and the markers whose carried allele is rare.
 * Works on typed arrays held in a scratch that grows with the longest trait, so a trait's
 * markers cost no allocation beyond the optional per-marker detail rows.
 */
import { callToString, ALLELE_LETTERS } from '../genotype/encoding.js';
import { N_POPS, type CompiledCatalog, type CompiledTrait } from './catalog.js';
import { expectedContribution, setMarker, STRIDE } from './distribution/markers.js';
import { DOSAGE_MISSING, FLIPPED, matchDosage } from './match.js';
import type { AssessedMarker } from './types.js';

/**
 * An allele rarer than this in the person's reference is a rare call: chip calls of such
 * alleles are often wrong (Weedon et al., BMJ 2021, PMID 33589468: a positive predictive
 * value of 16 % below a frequency of 0.001 %), so a result they decide says so.
 */
export const RARE_CALL_FREQUENCY = 0.01;

/** Genotype text of every call byte, built once ("AG", "A", "--"). */
export const CALL_TEXT: string[] = Array.from({ length: 256 }, (_, c) => callToString(c));

/** "rs123" for catalog marker i, built once per marker and kept. */
const rsidTexts = new WeakMap<CompiledCatalog, string[]>();
function rsidText(cat: CompiledCatalog, i: number): string {
  let texts = rsidTexts.get(cat);
  if (!texts) rsidTexts.set(cat, (texts = new Array<string>(cat.rsid.length)));
  return (texts[i] ??= `rs${cat.rsid[i]}`);
}

/**
 * The effect-allele dosage of a call (matchDosage), where a single letter on an autosome is a
 * no-call: a person has two copies of every autosome, so one letter is a malformed or deletion
 * call, not two copies. Single letters count as hemizygous only on the X chromosome.
 */
export function dosageOf(call: number, effect: number, other: number, onX: boolean): number {
  if (!onX && call !== 0 && (call & 0xf) === 0) return DOSAGE_MISSING;
  return matchDosage(call, effect, other);
}

/** How many of a trait's markers the calls (one per catalog slot) read, and how many they exclude (alleles that do not match). */
export function countMatches(
  cat: CompiledCatalog,
  t: CompiledTrait,
  slots: Uint8Array,
): { markers: number; observed: number; excluded: number; coverage: number } {
  let observed = 0;
  let excluded = 0;
  let xAt = 0;
  for (let i = t.start; i < t.start + t.count; i++) {
    const onX = xAt < t.x.length && t.x[xAt] === i - t.start;
    if (onX) xAt++;
    const d = dosageOf(slots[cat.markerSlot[i]], cat.effect[i], cat.other[i], onX);
    if (d >= 0) observed++;
    else if (d !== DOSAGE_MISSING) excluded++;
  }
  return { markers: t.count, observed, excluded, coverage: t.count ? observed / t.count : 0 };
}

/** Working arrays reused from trait to trait; they grow to the longest trait and stay. */
export interface MarkerScratch {
  /** The observed markers' reference terms, STRIDE numbers each (distribution/markers.ts). */
  pts: Float64Array<ArrayBuffer>;
  /** Indices (within the trait) of the markers left out, the first count − observed entries. */
  leftOut: Int32Array<ArrayBuffer>;
  /** Indices (within the trait) of observed markers with a rare carried allele. */
  rareAt: Int32Array<ArrayBuffer>;
}

export function markerScratch(): MarkerScratch {
  return { pts: new Float64Array(STRIDE * 1024), leftOut: new Int32Array(1024), rareAt: new Int32Array(16) };
}

/** A trait's markers matched to the calls. Arrays in the scratch are valid until the next match. */
export interface MarkerMatch {
  /** The score: observed contributions plus the expected contribution of every marker left out. */
  score: number;
  /** The observed contributions alone (an imported raw score). */
  observedScore: number;
  /** The expected contributions of the markers left out. */
  constant: number;
  /** The reference mean of the score, exactly. */
  referenceMean: number;
  observed: number;
  imputed: number;
  excluded: number;
  flipped: number;
  rareCount: number;
  /** One row per marker when details were asked for, else empty. */
  markers: AssessedMarker[];
  /** rsIDs of the observed markers. */
  snps: string[];
}

/**
 * Matches a trait's markers to the calls: slots are the person's calls at the catalog's
 * distinct rsIDs, w the reference's weights in population order, hemizygousX whether
 * X-chromosome markers count one copy.
 */
export function matchTraitMarkers(
  cat: CompiledCatalog,
  t: CompiledTrait,
  slots: Uint8Array,
  w: readonly number[],
  hemizygousX: boolean,
  details: boolean,
  scratch: MarkerScratch,
): MarkerMatch {
  if (scratch.leftOut.length < t.count) {
    scratch.pts = new Float64Array(STRIDE * t.count);
    scratch.leftOut = new Int32Array(t.count);
  }
  const { pts, leftOut } = scratch;
  let xAt = 0;
  let rareCount = 0;
  let score = 0;
  let observedScore = 0;
  let constant = 0;
  let n = 0;
  let imputed = 0;
  let excluded = 0;
  let flipped = 0;
  // The reference mean of the score, exactly (the tables' summary is read from their knots).
  let referenceMean = 0;
  const markers: AssessedMarker[] = details ? new Array<AssessedMarker>(t.count) : [];
  const snps: string[] = [];
  for (let k = 0; k < t.count; k++) {
    const i = t.start + k;
    const call = slots[cat.markerSlot[i]];
    let p = 0;
    for (let q = 0; q < N_POPS; q++) p += w[q] * cat.freq[i * N_POPS + q];
    const onX = xAt < t.x.length && t.x[xAt] === k;
    if (onX) xAt++;
    const hemi = hemizygousX && onX;
    const c0 = cat.contrib[3 * i];
    const c1 = cat.contrib[3 * i + 1];
    const c2 = cat.contrib[3 * i + 2];
    const d = dosageOf(call, cat.effect[i], cat.other[i], onX);
    const rsid = rsidText(cat, i);
    let dosage: number;
    let use: AssessedMarker['use'];
    if (d >= 0) {
      if (d >= FLIPPED) flipped++;
      dosage = d & 3;
      const contribution = dosage === 0 ? c0 : dosage === 1 ? c1 : c2;
      score += contribution;
      observedScore += contribution;
      setMarker(pts, n, c0, c1, c2, p, hemi);
      referenceMean += expectedContribution(pts, n++);
      use = 'observed';
      snps.push(rsid);
      // A carried allele rarer than RARE_CALL_FREQUENCY: the effect allele, or the other one.
      if ((dosage > 0 && p < RARE_CALL_FREQUENCY) || (dosage < 2 && 1 - p < RARE_CALL_FREQUENCY)) {
        if (scratch.rareAt.length <= rareCount) scratch.rareAt = growInt32(scratch.rareAt);
        scratch.rareAt[rareCount++] = k;
      }
    } else {
      // Expected contribution in the reference (2pw for an additive diploid marker).
      leftOut[k - n] = k;
      setMarker(pts, n, c0, c1, c2, p, hemi);
      const expected = expectedContribution(pts, n);
      referenceMean += expected;
      dosage = 2 * p;
      score += expected;
      constant += expected;
      if (d === DOSAGE_MISSING) {
        imputed++;
        use = 'imputed';
      } else {
        excluded++;
        use = 'excluded';
      }
    }
    if (details)
      markers[k] = {
        rsid,
        genotype: CALL_TEXT[call],
        effect_allele: ALLELE_LETTERS[cat.effect[i]],
        other_allele: ALLELE_LETTERS[cat.other[i]],
        weight: cat.weight[i],
        dosage,
        use,
      };
  }
  return {
    score,
    observedScore,
    constant,
    referenceMean,
    observed: n,
    imputed,
    excluded,
    flipped,
    rareCount,
    markers,
    snps,
  };
}

function growInt32(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}
