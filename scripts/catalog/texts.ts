/**
 * Small text helpers of the catalog build (the recommendation templates live in
 * src/service/science/recommendations.ts). Careful wording: a genetic
 * score from a few published variants explains little of any trait; no medical advice
 * beyond suggesting a professional.
 */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** The citation line every trait carries. */
export function citation(firstAuthor: string | null, year: number | null, pmid: string | null, source: string): string {
  const who = firstAuthor ? `${firstAuthor} et al.` : 'Unknown authors';
  const when = year ? ` (${year})` : '';
  const id = pmid ? `, PMID ${pmid}` : '';
  return `${who}${when}${id}; effect sizes as curated in ${source}.`;
}
