/**
 * How the other studies of a phenotype agree with its headline result (docs/science.md,
 * "Phenotype groups"): each result falls in a band — below average (percentile < 30),
 * average (30–70) or above average (> 70) — and another study agrees when its result is
 * in the headline's band.
 */
export interface GroupAgreement {
  /** Other studies of the phenotype with a result for this person. */
  others: number;
  agree: number;
  disagree: number;
  /** e.g. "12 other studies: 8 agree, 4 disagree". */
  summary: string;
}

function band(percentile: number): number {
  return percentile < 30 ? -1 : percentile > 70 ? 1 : 0;
}

export function groupAgreement(headlinePercentile: number, otherPercentiles: readonly number[]): GroupAgreement {
  const b = band(headlinePercentile);
  const agree = otherPercentiles.filter((p) => band(p) === b).length;
  const others = otherPercentiles.length;
  const disagree = others - agree;
  const summary =
    others === 0
      ? 'No other study of this phenotype has a result for you.'
      : `${others} other ${others === 1 ? 'study' : 'studies'}: ${agree} agree${agree === 1 ? 's' : ''}, ${disagree} disagree${disagree === 1 ? 's' : ''}`;
  return { others, agree, disagree, summary };
}
