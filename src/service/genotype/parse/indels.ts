/**
 * VCF indel records read against an indel marker's expected alleles (docs/file-formats.md,
 * "Indels"). Callers write one indel in several ways: with extra shared bases (REF `CTT`
 * ALT `CT` for `CT`/`C`), shifted right within a repeat instead of left-aligned, or in one
 * multi-allelic record with a SNV. Without a reference genome the only reference bases
 * known are the marker's window (its REF, extended over the repeat the alleles can shift
 * within, from the position index) and the record's own REF; two alleles are the same when
 * they spell the same sequence over those bases. That one comparison covers trimming shared
 * bases, left-alignment within the known repeat and multi-allelic splitting (each called
 * allele is compared on its own). A record that starts before the marker's position is not
 * seen, and one whose REF disagrees with the known bases is another build or variant.
 *
 * Only records at an indel marker (a few per file) come here, so small strings are fine.
 */
import { ALLELE_DEL, ALLELE_FROM_BYTE, ALLELE_INS } from '../encoding.js';

/** Trims the bases REF and ALT share, suffix first, then prefix, keeping one base each (vt/bcftools norm's order). */
export function trimAlleles(pos: number, ref: string, alt: string): { pos: number; ref: string; alt: string } {
  let r = ref;
  let a = alt;
  while (r.length > 1 && a.length > 1 && r[r.length - 1] === a[a.length - 1]) {
    r = r.slice(0, -1);
    a = a.slice(0, -1);
  }
  let p = pos;
  while (r.length > 1 && a.length > 1 && r[0] === a[0]) {
    r = r.slice(1);
    a = a.slice(1);
    p++;
  }
  return { pos: p, ref: r, alt: a };
}

/** How a record reads at an indel marker. */
export type IndelReading =
  /** Not an indel record (every allele as long as REF, or symbolic): it says nothing of the marker. */
  | { kind: 'not_indel' }
  /** The record's REF disagrees with the marker's known reference bases: another build or variant. */
  | { kind: 'ref_differs' }
  /** A called allele is neither the expected REF nor an expected ALT: another indel here. */
  | { kind: 'other_allele' }
  /** The expected allele (0 = REF, k = k-th ALT) of each called allele; second is -1 for a haploid call. */
  | { kind: 'alleles'; first: number; second: number };

const BASES = /^[ACGT]+$/;

/**
 * Reads a record at `pos` (REF and ALT strings, called allele indices k1 and k2, k2 -1 when
 * haploid) against a marker at `markerPos` with alleles ref/alts and the known reference
 * `window` from markerPos on. The record must start within the window.
 */
export function readIndelRecord(
  markerPos: number,
  window: string,
  ref: string,
  alts: readonly string[],
  pos: number,
  recordAlleles: readonly string[],
  k1: number,
  k2: number,
): IndelReading {
  const recordRef = recordAlleles[0];
  if (!BASES.test(recordRef)) return { kind: 'not_indel' };
  if (!recordAlleles.some((a, i) => i > 0 && BASES.test(a) && a.length !== recordRef.length))
    return { kind: 'not_indel' };
  // The known reference from markerPos on: the window, then the record's REF beyond it.
  const offset = pos - markerPos;
  if (offset < 0 || offset >= window.length) return { kind: 'not_indel' };
  const overlap = Math.min(window.length - offset, recordRef.length);
  if (window.slice(offset, offset + overlap) !== recordRef.slice(0, overlap)) return { kind: 'ref_differs' };
  const known = window + recordRef.slice(overlap);
  if (!known.startsWith(ref)) return { kind: 'ref_differs' };
  const spell = (at: number, span: number, allele: string) => known.slice(0, at) + allele + known.slice(at + span);
  const expected = [ref, ...alts].map((a) => spell(0, ref.length, a));
  const which = (k: number) => {
    const allele = recordAlleles[k];
    if (!BASES.test(allele)) return -1;
    return expected.indexOf(spell(offset, recordRef.length, allele));
  };
  const first = which(k1);
  const second = k2 < 0 ? -1 : which(k2);
  if (first < 0 || (k2 >= 0 && second < 0)) return { kind: 'other_allele' };
  return { kind: 'alleles', first, second };
}

/**
 * The 23andMe letter of an expected allele of a two-allele indel marker: the shorter allele
 * is D, the longer I (docs/file-formats.md, VCF). 0 for a marker with several ALTs, whose
 * alleles D/I cannot tell apart.
 */
export function indelLetter(ref: string, alts: readonly string[], allele: number): number {
  if (alts.length !== 1 || ref.length === alts[0].length) return 0;
  const longer = ref.length > alts[0].length ? 0 : 1;
  return allele === longer ? ALLELE_INS : ALLELE_DEL;
}

/**
 * The base an allele [start, end) of a record puts at the record's position when, against
 * REF [refStart, refEnd), it is REF or a SNV there once the bases they share at the end are
 * trimmed (REF `CT`, ALT `GT` is C>G): how a multi-allelic record holding an indel and a SNV
 * is split for a SNP marker. 0 for an indel, a change elsewhere or an MNP.
 */
export function snvBaseOfAllele(buf: Uint8Array, refStart: number, refEnd: number, start: number, end: number): number {
  let r = refEnd - refStart;
  let a = end - start;
  while (r > 1 && a > 1 && buf[refStart + r - 1] === buf[start + a - 1]) {
    r--;
    a--;
  }
  if (r !== 1 || a !== 1) return 0;
  const code = ALLELE_FROM_BYTE[buf[start]];
  const refCode = ALLELE_FROM_BYTE[buf[refStart]];
  return code >= 1 && code <= 4 && refCode >= 1 && refCode <= 4 ? code : 0;
}
