/**
 * Evidence-strength label shown with every result (documented in docs/science.md).
 * It rates how much the study behind a score can support it, not how much the score
 * explains: even "strong" scores usually explain a small share of a trait.
 */
export type EvidenceLabel = 'strong' | 'moderate' | 'limited';

export function evidenceLabel(markers: number, sampleSize: number | null): EvidenceLabel {
  const n = sampleSize ?? 0;
  if (n >= 100_000 && markers >= 10) return 'strong';
  if (n >= 10_000 && markers >= 3) return 'moderate';
  return 'limited';
}
