/**
 * VCF indel records read against an indel marker's expected alleles (docs/file-formats.md,
 * "Indels"). Callers write one indel in several ways: with extra shared bases (REF `CTT`
 * ALT `CT` for `CT`/`C`), shifted right within a repeat instead of left-aligned, in one
 * multi-allelic record with a SNV, or beginning before the marker's position when merged
 * with a variant just before it. Without a reference genome the only reference bases known
 * are the marker's window (its REF, extended over the repeat the alleles can shift within,
 * from the position index) and the record's own REF, which is reference sequence from the
 * record's position on; two alleles are the same when they spell the same sequence over
 * those bases. That one comparison covers trimming shared bases, left-alignment within the
 * known repeat and multi-allelic splitting (each called allele is compared on its own). A
 * record whose REF disagrees with the known bases is another build or variant.
 *
 * Only records at an indel marker (a few per file) come here, so small strings are fine.
 */
import { ALLELE_DEL, ALLELE_FROM_BYTE, ALLELE_INS, definedAllele } from '../encoding.js';

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
 * How far before an indel marker's position a record is read against it: a caller writes
 * extra bases in front of an indel when it merges the indel with a variant just before it
 * into one record, so those bases come from variants within a read of the indel; 150 is
 * a short read's length. A record beginning further before is not read as the marker.
 */
export const INDEL_LOOKBEHIND = 150;

/**
 * Reads a record at `pos` (REF and ALT strings, called allele indices k1 and k2, k2 -1 when
 * haploid) against a marker at `markerPos` with alleles ref/alts and the known reference
 * `window` from markerPos on. The record starts within the window, or before markerPos with
 * a REF that reaches it (its REF then gives the bases in front).
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
  const offset = pos - markerPos;
  // Past the window the record holds none of the marker's bases; a REF ending before the
  // marker cannot hold its event, whose VCF alleles are already left-aligned.
  if (offset >= window.length || offset < -INDEL_LOOKBEHIND || pos + recordRef.length <= markerPos)
    return { kind: 'not_indel' };
  // The known reference from the record's or the marker's position, whichever is first: the
  // record's REF before the marker (lead bases), the window, then the record's REF beyond it.
  const lead = Math.max(0, -offset);
  const start = Math.max(0, offset);
  const overlap = Math.min(window.length - start, recordRef.length - lead);
  if (window.slice(start, start + overlap) !== recordRef.slice(lead, lead + overlap)) return { kind: 'ref_differs' };
  const known = recordRef.slice(0, lead) + window + recordRef.slice(lead + overlap);
  if (!known.startsWith(ref, lead)) return { kind: 'ref_differs' };
  const spell = (at: number, span: number, allele: string) => known.slice(0, at) + allele + known.slice(at + span);
  const expected = [ref, ...alts].map((a) => spell(lead, ref.length, a));
  const which = (k: number) => {
    const allele = recordAlleles[k];
    if (!BASES.test(allele)) return -1;
    const same = expected.indexOf(spell(start, recordRef.length, allele));
    if (same >= 0 || lead === 0) return same;
    // An allele that changes only bases in front of the marker (a SNV merged into the
    // record) leaves the marker's reference allele: its change, trimmed, ends before it.
    const t = trimAlleles(pos, recordRef, allele);
    return t.pos + t.ref.length - 1 < markerPos ? 0 : -1;
  };
  const first = which(k1);
  const second = k2 < 0 ? -1 : which(k2);
  if (first < 0 || (k2 >= 0 && second < 0)) return { kind: 'other_allele' };
  return { kind: 'alleles', first, second };
}

/**
 * The allele code (encoding.ts) of an expected allele of an indel marker: for a two-allele
 * marker its 23andMe letter, the shorter allele D and the longer I (docs/file-formats.md,
 * VCF), as chip exports write it; for a marker with several ALTs, which D/I cannot tell
 * apart, the defined-allele code of its index (0 = REF). 0 when it cannot be written.
 */
export function indelAlleleCode(ref: string, alts: readonly string[], allele: number): number {
  if (alts.length > 1) return definedAllele(allele);
  if (alts.length === 0 || ref.length === alts[0].length) return 0;
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
