/**
 * Allele matching between a genotype call and a score marker (docs/science.md, "Matching").
 *
 * - Direct: both called alleles are the effect or the other allele → dosage = count of effect.
 * - Complement: for non-palindromic markers, both called alleles are the complements of the
 *   effect/other alleles (the file reports the opposite strand) → dosage = count of the
 *   complemented effect allele.
 * - Palindromic markers (A/T, C/G) cannot be strand-checked from letters: they match directly
 *   only, on the GRCh37 forward strand that consumer files and the catalog use; ambiguous ones
 *   (minor-allele frequency ≥ PALINDROME_MAF_LIMIT) were already left out of the catalog at build time.
 * - Anything else (other letters, indels, a third allele) does not match: the marker is
 *   excluded from the observed score and counted.
 * - Haploid calls (allele2 = 0, e.g. male X) count as homozygous (dosage 0 or 2), as PLINK does.
 */
import { COMPLEMENT } from '../genotype/encoding.js';

/**
 * Palindromic (A/T, C/G) markers whose minor-allele frequency reaches this cannot be
 * strand-resolved by frequency either: the catalog build and PGS imports leave them out.
 */
export const PALINDROME_MAF_LIMIT = 0.4;

export const DOSAGE_MISSING = -1;
export const DOSAGE_MISMATCH = -2;
/** Added to the dosage when the match was by complement (strand flip). */
export const FLIPPED = 4;

/**
 * Effect-allele dosage 0–2 (+ FLIPPED when matched by complement), DOSAGE_MISSING for a
 * no-call, or DOSAGE_MISMATCH when the alleles do not match the marker.
 */
export function matchDosage(call: number, effect: number, other: number): number {
  if (call === 0) return DOSAGE_MISSING;
  const a1 = call >> 4;
  const a2 = call & 0xf || a1;
  if ((a1 === effect || a1 === other) && (a2 === effect || a2 === other)) {
    return (a1 === effect ? 1 : 0) + (a2 === effect ? 1 : 0);
  }
  const ce = COMPLEMENT[effect];
  const co = COMPLEMENT[other];
  if (ce === other) return DOSAGE_MISMATCH; // palindromic: no complement matching
  if ((a1 === ce || a1 === co) && (a2 === ce || a2 === co)) {
    return FLIPPED + (a1 === ce ? 1 : 0) + (a2 === ce ? 1 : 0);
  }
  return DOSAGE_MISMATCH;
}
