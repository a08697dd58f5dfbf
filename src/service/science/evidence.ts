/**
 * How much a score can be trusted, from what the study behind it offers (docs/science.md,
 * "Evidence"). The label rates the evidence, not how much the score explains: even a
 * "strong" score usually explains a small share of a trait.
 *
 * Trait label, first rule that applies:
 *  - suggestive: no marker reaches genome-wide significance (p ≤ 5e-8);
 *  - strong: sample ≥ 100,000, ≥ 10 genome-wide significant markers, the largest marker
 *    carries ≤ 50 % of the score's variance, the source is a published study (not the
 *    automated UK Biobank round-1 analyses), and the score was curated or has ≥ 20
 *    genome-wide significant markers;
 *  - moderate: sample ≥ 10,000, ≥ 3 genome-wide significant markers, largest marker ≤ 80 %;
 *  - limited: anything else (small studies, few markers, one marker dominating, unknown sample).
 * A result drops one step below its trait's label when fewer than 90 % of the markers were
 * genotyped (COVERAGE_FOR_FULL_EVIDENCE).
 */
export type EvidenceLabel = 'strong' | 'moderate' | 'limited' | 'suggestive';

export const EVIDENCE_RANK: Record<EvidenceLabel, number> = { suggestive: 0, limited: 1, moderate: 2, strong: 3 };

export const GENOME_WIDE_P = 5e-8;
/** A score whose largest marker carries this share of its variance is flagged as dominated by one marker. */
export const DOMINANT_MARKER_SHARE = 0.8;
export const COVERAGE_FOR_FULL_EVIDENCE = 0.9;

export interface EvidenceInput {
  markers: number;
  sampleSize: number | null;
  /** Markers with p ≤ 5e-8, or null when the source gives no p-values. */
  genomeWideMarkers: number | null;
  /** Largest share of the score's variance carried by one marker (worst over the populations). */
  topMarkerShare: number;
  curated: boolean;
  /** Automated UK Biobank round-1 analyses: no peer-reviewed paper per trait. */
  automatedBiobank: boolean;
}

export function evidenceLabel(e: EvidenceInput): { label: EvidenceLabel; reasons: string[] } {
  const n = e.sampleSize ?? 0;
  const gws = e.genomeWideMarkers;
  if (gws === 0) return { label: 'suggestive', reasons: ['no marker reaches genome-wide significance (p ≤ 5e-8)'] };
  const g = gws ?? 0;
  const reasons: string[] = [];
  if (n >= 100_000 && g >= 10 && e.topMarkerShare <= 0.5 && !e.automatedBiobank && (e.curated || g >= 20)) {
    return {
      label: 'strong',
      reasons: [`${g} genome-wide significant markers from a study of ${n.toLocaleString('en-US')} people`],
    };
  }
  if (n < 100_000)
    reasons.push(
      e.sampleSize === null ? 'sample size unknown' : `sample size ${n.toLocaleString('en-US')} (strong needs 100,000)`,
    );
  if (g < 10)
    reasons.push(`${gws === null ? 'unknown number of' : g} genome-wide significant markers (strong needs 10)`);
  if (e.topMarkerShare > 0.5)
    reasons.push(`one marker carries ${Math.round(100 * e.topMarkerShare)} % of the score's variance`);
  if (e.automatedBiobank)
    reasons.push('automated UK Biobank analysis without a peer-reviewed paper (at most moderate)');
  if (!e.curated && g < 20 && n >= 100_000 && g >= 10)
    reasons.push('generated automatically (strong needs curation or 20 genome-wide significant markers)');
  if (n >= 10_000 && g >= 3 && e.topMarkerShare <= DOMINANT_MARKER_SHARE) return { label: 'moderate', reasons };
  return { label: 'limited', reasons };
}

/** The label a result gets from its trait's label and the share of markers genotyped. */
export function resultEvidence(label: EvidenceLabel, coverage: number): EvidenceLabel {
  if (coverage >= COVERAGE_FOR_FULL_EVIDENCE || label === 'suggestive') return label;
  return label === 'strong' ? 'moderate' : 'limited';
}
