/**
 * Byte encodings shared by the parser, genotype storage and scoring.
 * A call byte holds two 4-bit allele codes: (allele1 << 4) | allele2.
 * 0x00 is a no-call. A haploid call (X/Y/MT in males) has allele2 = 0 (no allele).
 */
export const ALLELE_A = 1;
export const ALLELE_C = 2;
export const ALLELE_G = 3;
export const ALLELE_T = 4;
/** Deletion: "-" in the spec's format, "D" in 23andMe exports. */
export const ALLELE_DEL = 5;
/** Insertion: "I" in 23andMe exports. */
export const ALLELE_INS = 6;

export const ALLELE_LETTERS = ['', 'A', 'C', 'G', 'T', 'D', 'I'] as const;

/**
 * Codes 8–15: the k-th allele (k = code − 8; 0 its REF, k its k-th ALT) of an indel marker
 * with several ALTs, in the order of the marker's VCF alleles in the position index, which
 * are PharmCAT's (positions.ts): UGT1A1's TA repeat rs3064744 REF CAT, ALT C, CATAT,
 * CATATAT gives *28 (CATAT) code 10. D/I cannot say which of several alleles a file holds,
 * so only a VCF record matched to one of the marker's alleles (parse/indels.ts) is written
 * this way; chip exports keep their D/I letters. Code 7 is unused.
 */
const ALLELE_DEFINED_FIRST = 8;
const MAX_DEFINED_ALLELES = 8;

/** The code of a multi-ALT indel marker's k-th allele (0 = REF), 0 when k is out of range. */
export function definedAllele(k: number): number {
  return k >= 0 && k < MAX_DEFINED_ALLELES ? ALLELE_DEFINED_FIRST + k : 0;
}

/** k for a defined-allele code (definedAllele), -1 for any other code. */
export function definedAlleleIndex(code: number): number {
  return code >= ALLELE_DEFINED_FIRST && code < ALLELE_DEFINED_FIRST + MAX_DEFINED_ALLELES
    ? code - ALLELE_DEFINED_FIRST
    : -1;
}

/** One allele as text: its letter, or for a defined allele its index as a digit ("0" REF, as VCF's GT counts). */
function alleleText(code: number): string {
  const k = definedAlleleIndex(code);
  return k >= 0 ? String(k) : (ALLELE_LETTERS[code] ?? '');
}

/** ASCII byte → allele code (0 for anything that is not an allele letter). Case-insensitive. */
export const ALLELE_FROM_BYTE: Uint8Array = (() => {
  const table = new Uint8Array(256);
  const set = (ch: string, code: number) => {
    table[ch.charCodeAt(0)] = code;
    table[ch.toLowerCase().charCodeAt(0)] = code;
  };
  set('A', ALLELE_A);
  set('C', ALLELE_C);
  set('G', ALLELE_G);
  set('T', ALLELE_T);
  set('D', ALLELE_DEL);
  set('-', ALLELE_DEL);
  set('I', ALLELE_INS);
  return table;
})();

/** Watson–Crick complement of a nucleotide code; indels map to themselves. */
export const COMPLEMENT: Uint8Array = Uint8Array.from([
  0,
  ALLELE_T,
  ALLELE_G,
  ALLELE_C,
  ALLELE_A,
  ALLELE_DEL,
  ALLELE_INS,
]);

export function makeCall(a1: number, a2: number): number {
  return ((a1 & 0xf) << 4) | (a2 & 0xf);
}

/**
 * Human-readable genotype ("AG", "A" for haploid, "--" for a no-call; a multi-ALT indel
 * marker's defined alleles as their indices, "02" for REF and the second ALT).
 */
export function callToString(call: number): string {
  if (call === 0) return '--';
  return alleleText(call >> 4) + alleleText(call & 0xf);
}

export function alleleFromLetter(letter: string): number {
  return letter.length === 1 ? ALLELE_FROM_BYTE[letter.charCodeAt(0)] : 0;
}

/** Chromosome codes: 0 unknown, 1–22 autosomes, then X, Y, the pseudo-autosomal XY, and mitochondrial. */
export const CHROM_X = 23;
export const CHROM_Y = 24;
export const CHROM_XY = 25;
export const CHROM_MT = 26;

export function chromToString(code: number): string {
  if (code >= 1 && code <= 22) return String(code);
  return ['', 'X', 'Y', 'XY', 'MT'][code - 22] ?? '';
}

/** Index of rsid in a genotype's ascending rsids array, or -1. */
export function findRsid(rsids: Uint32Array, rsid: number): number {
  let lo = 0;
  let hi = rsids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = rsids[mid];
    if (v < rsid) lo = mid + 1;
    else if (v > rsid) hi = mid - 1;
    else return mid;
  }
  return -1;
}
