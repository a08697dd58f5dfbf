/**
 * Assessment levels from percentile bands (docs/science.md, "Levels"). The bands hold
 * 10 %, 20 %, 40 %, 20 % and 10 % of the reference population.
 */
export const LEVEL_UPPER_BOUNDS = [10, 30, 70, 90] as const;

export const LEVEL_LABELS = [
  'Much lower than average',
  'Lower than average',
  'Average',
  'Higher than average',
  'Much higher than average',
] as const;

export function levelForPercentile(percentile: number): 1 | 2 | 3 | 4 | 5 {
  for (let i = 0; i < LEVEL_UPPER_BOUNDS.length; i++)
    if (percentile < LEVEL_UPPER_BOUNDS[i]) return (i + 1) as 1 | 2 | 3 | 4;
  return 5;
}
