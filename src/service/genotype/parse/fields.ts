/**
 * Byte-level parsers for the fields of one line: rsID, chromosome, position, genotype.
 * Each takes (buf, start, end) and returns a number; negative values mean "not valid".
 * No strings are created: these run once per line on files of a million lines.
 */
import { ALLELE_FROM_BYTE, CHROM_MT, CHROM_X, CHROM_XY, CHROM_Y } from '../encoding.js';

const R = 0x72;
const S = 0x73;
const ZERO = 0x30;
const DASH = 0x2d;

export const RSID_NOT_RS = -1;
export const RSID_BAD = -2;

/** "rs123" → 123; RSID_NOT_RS when the field does not start with "rs"; RSID_BAD when the rest is not a number. */
export function parseRsid(buf: Uint8Array, s: number, e: number): number {
  if (e - s < 3 || (buf[s] | 0x20) !== R || (buf[s + 1] | 0x20) !== S) {
    // Illumina GSA names some markers "GSA-rs123": the same rsID behind a product prefix.
    if (
      e - s > 6 &&
      (buf[s] | 0x20) === 0x67 &&
      (buf[s + 1] | 0x20) === S &&
      (buf[s + 2] | 0x20) === 0x61 &&
      buf[s + 3] === DASH
    )
      return parseRsid(buf, s + 4, e);
    return RSID_NOT_RS;
  }
  let v = 0;
  for (let i = s + 2; i < e; i++) {
    const d = buf[i] - ZERO;
    if (d < 0 || d > 9) return RSID_BAD;
    v = v * 10 + d;
    if (v > 0xffffffff) return RSID_BAD;
  }
  return v === 0 ? RSID_BAD : v;
}

/** Unsigned decimal integer, or -1. */
export function parseUint(buf: Uint8Array, s: number, e: number): number {
  if (e <= s || e - s > 10) return -1;
  let v = 0;
  for (let i = s; i < e; i++) {
    const d = buf[i] - ZERO;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v > 0xffffffff ? -1 : v;
}

/**
 * Chromosome code (encoding.ts) from "1".."26", "X", "Y", "XY", "PAR", "MT", "M", with an
 * optional "chr" prefix, any case. 23–26 are AncestryDNA's and PLINK's X, Y, XY and MT;
 * "0" (PLINK's unplaced) gives 0. RefSeq's accessions, as NCBI's pipelines name contigs
 * (NC_000001.11; NC_000023 is X, NC_000024 Y, NC_012920 the mitochondrion), are read too.
 * Returns -1 for anything else.
 */
export function parseChrom(buf: Uint8Array, s: number, e: number): number {
  if (e - s >= 11 && buf[s] === 0x4e && buf[s + 1] === 0x43 && buf[s + 2] === 0x5f) return refSeqChrom(buf, s, e);
  if (e - s > 3 && (buf[s] | 0x20) === 0x63 && (buf[s + 1] | 0x20) === 0x68 && (buf[s + 2] | 0x20) === 0x72) {
    s += 3;
    if (buf[s] === 0x5f || buf[s] === 0x2d) s++; // "chr_1", "chr-1"
  }
  const n = e - s;
  if (n === 1) {
    const c = buf[s];
    if (c >= 0x30 && c <= 0x39) return c - 0x30;
    const u = c & 0xdf;
    if (u === 0x58) return CHROM_X;
    if (u === 0x59) return CHROM_Y;
    if (u === 0x4d) return CHROM_MT;
    return -1;
  }
  if (n === 2) {
    const c0 = buf[s];
    const c1 = buf[s + 1];
    if (c0 >= 0x30 && c0 <= 0x39 && c1 >= 0x30 && c1 <= 0x39) {
      const v = (c0 - 0x30) * 10 + (c1 - 0x30);
      return v <= 26 ? v : -1;
    }
    const u0 = c0 & 0xdf;
    const u1 = c1 & 0xdf;
    if (u0 === 0x58 && u1 === 0x59) return CHROM_XY;
    if (u0 === 0x4d && u1 === 0x54) return CHROM_MT;
    return -1;
  }
  if (n === 3) {
    if ((buf[s] & 0xdf) === 0x50 && (buf[s + 1] & 0xdf) === 0x41 && (buf[s + 2] & 0xdf) === 0x52) return CHROM_XY;
  }
  return -1;
}

/** "NC_0000nn.v" → chromosome nn (23 X, 24 Y), "NC_012920.v" → MT; -1 for any other accession. */
function refSeqChrom(buf: Uint8Array, s: number, e: number): number {
  const dot = s + 9; // "NC_", six digits, then ".version"
  if (buf[dot] !== 0x2e || parseUint(buf, dot + 1, e) < 0) return -1;
  const n = parseUint(buf, s + 3, dot);
  if (n >= 1 && n <= 24) return n;
  return n === 12920 ? CHROM_MT : -1;
}

/** Bytes that stand for a missing allele: '0' (AncestryDNA, PLINK), '.', 'N', '?'. */
const MISSING: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (const ch of '0.Nn?') t[ch.charCodeAt(0)] = 1;
  return t;
})();

export const CALL_BAD = -1;

/**
 * Call byte from two allele bytes. "--", "00", ".." and any pair holding a missing marker
 * are no-calls (0). A '-' next to a real allele is a deletion, as the spec's allele set says.
 */
export function callFromPair(b0: number, b1: number): number {
  if (b0 === DASH && b1 === DASH) return 0;
  if (MISSING[b0] === 1 || MISSING[b1] === 1) {
    return (MISSING[b0] === 1 || ALLELE_FROM_BYTE[b0] !== 0 || b0 === DASH) &&
      (MISSING[b1] === 1 || ALLELE_FROM_BYTE[b1] !== 0 || b1 === DASH)
      ? 0
      : CALL_BAD;
  }
  const a0 = ALLELE_FROM_BYTE[b0];
  const a1 = ALLELE_FROM_BYTE[b1];
  if (a0 === 0 || a1 === 0) return CALL_BAD;
  return (a0 << 4) | a1;
}

/** Call byte from a single allele byte: a haploid call, or a no-call for '-'/'0'/'.'. */
export function callFromSingle(b: number): number {
  if (b === DASH || MISSING[b] === 1) return 0;
  const a = ALLELE_FROM_BYTE[b];
  return a === 0 ? CALL_BAD : a << 4;
}

/** A combined genotype field ("AG", "A", "--", "DI", and CircleDNA's "A/G"). */
export function parseCombinedCall(buf: Uint8Array, s: number, e: number): number {
  const n = e - s;
  if (n === 2) return callFromPair(buf[s], buf[s + 1]);
  if (n === 1) return callFromSingle(buf[s]);
  if (n === 3 && (buf[s + 1] === 0x2f || buf[s + 1] === 0x7c)) return callFromPair(buf[s], buf[s + 2]);
  return CALL_BAD;
}

/** Two one-allele fields ("A" "G"). */
export function parseSplitCall(buf: Uint8Array, s1: number, e1: number, s2: number, e2: number): number {
  if (e1 - s1 !== 1 || e2 - s2 !== 1) return CALL_BAD;
  return callFromPair(buf[s1], buf[s2]);
}
