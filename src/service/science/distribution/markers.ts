/**
 * The markers of a score as the distribution code sees them: for each marker, the score
 * contribution of its three genotypes and their probabilities in the reference, six
 * numbers per marker in one Float64Array: v0, v1, v2, P0, P1, P2 (genotype = copies of the
 * effect allele). Diploid markers follow Hardy–Weinberg; a hemizygous marker (X in an XY
 * person) has P1 = 0, P2 = p, P0 = 1 − p, its single allele counted as two copies as PLINK
 * does (docs/science.md).
 */
export const STRIDE = 6;

/** Writes marker k of `out` from its contributions and effect-allele frequency. */
export function setMarker(
  out: Float64Array,
  k: number,
  c0: number,
  c1: number,
  c2: number,
  p: number,
  hemizygous: boolean,
): void {
  const o = STRIDE * k;
  out[o] = c0;
  out[o + 1] = c1;
  out[o + 2] = c2;
  const q = 1 - p;
  if (hemizygous) {
    out[o + 3] = q;
    out[o + 4] = 0;
    out[o + 5] = p;
  } else {
    out[o + 3] = q * q;
    out[o + 4] = 2 * p * q;
    out[o + 5] = p * p;
  }
}

/** Expected contribution of marker k (what a missing marker adds to the score). */
export function expectedContribution(pts: Float64Array, k: number): number {
  const o = STRIDE * k;
  return pts[o] * pts[o + 3] + pts[o + 1] * pts[o + 4] + pts[o + 2] * pts[o + 5];
}
