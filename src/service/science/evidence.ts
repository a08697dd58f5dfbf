/**
 * How much a score can be trusted, from the facts of the study behind it (docs/science.md
 * §6, "Evidence"): its size, how many of its markers reach genome-wide significance, how
 * much of the score one marker carries, whether it is a published study, and what the
 * score is stated to explain. The label rates the evidence, not how much the score
 * explains: even a "strong" score usually explains a small share of a trait.
 *
 * Trait label, first rule that applies:
 *  - suggestive: the source gives p-values and no marker reaches genome-wide significance;
 *  - strong: sample ≥ 100,000; ≥ 10 genome-wide significant markers; the largest marker
 *    carries ≤ 50 % of the score's variance; a published study (not the automated UK
 *    Biobank round-1 analyses); curated, or ≥ 20 genome-wide significant markers; and,
 *    where the source states what the score explains, at least 1 %;
 *  - moderate: sample ≥ 10,000; largest marker ≤ 80 %; and ≥ 3 genome-wide significant
 *    markers — or, when the source gives no p-values, ≥ 10 markers (significance cannot be
 *    counted, so such a score is never strong);
 *  - limited: anything else (small or unknown sample, few markers, one marker dominating).
 * A result drops one step below its trait's label when fewer than 90 % of the markers were
 * genotyped (COVERAGE_FOR_FULL_EVIDENCE).
 *
 * `reasons` state the facts that set the label, with their figures, so the words shown
 * beside the label are built from the same numbers shown beside them.
 */
export type EvidenceLabel = 'strong' | 'moderate' | 'limited' | 'suggestive';

export const EVIDENCE_RANK: Record<EvidenceLabel, number> = { suggestive: 0, limited: 1, moderate: 2, strong: 3 };

export const GENOME_WIDE_P = 5e-8;
/** A score whose largest marker carries this share of its variance is flagged as dominated by one marker. */
export const DOMINANT_MARKER_SHARE = 0.8;
export const COVERAGE_FOR_FULL_EVIDENCE = 0.9;

/** The thresholds of the rule above, named so the docs, the code and the tests share them. */
export const EVIDENCE_RULE = {
  strongSample: 100_000,
  moderateSample: 10_000,
  strongGenomeWide: 10,
  strongGenomeWideUncurated: 20,
  moderateGenomeWide: 3,
  moderateMarkersWithoutP: 10,
  strongTopShare: 0.5,
  moderateTopShare: DOMINANT_MARKER_SHARE,
  strongVarianceExplained: 0.01,
} as const;

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
  /** Share of the trait's variance the source states the score explains; null when not stated. */
  varianceExplained?: number | null;
}

const people = (n: number) => `${n.toLocaleString('en-US')} people`;
const percent = (share: number) => `${Math.round(100 * share)} %`;

export function evidenceLabel(e: EvidenceInput): { label: EvidenceLabel; reasons: string[] } {
  const R = EVIDENCE_RULE;
  const n = e.sampleSize ?? 0;
  const gws = e.genomeWideMarkers;
  const ve = e.varianceExplained ?? null;
  if (gws === 0)
    return {
      label: 'suggestive',
      reasons: [`none of the ${e.markers} markers reaches genome-wide significance (p ≤ 5e-8)`],
    };
  const g = gws ?? 0;
  const strong =
    n >= R.strongSample &&
    g >= R.strongGenomeWide &&
    e.topMarkerShare <= R.strongTopShare &&
    !e.automatedBiobank &&
    (e.curated || g >= R.strongGenomeWideUncurated) &&
    (ve === null || ve >= R.strongVarianceExplained);
  if (strong)
    return { label: 'strong', reasons: [`${g} genome-wide significant markers from a study of ${people(n)}`] };

  // Why the label is not higher, each with its figure.
  const reasons: string[] = [];
  if (e.sampleSize === null) reasons.push('the study size is not known');
  else if (n < R.strongSample)
    reasons.push(
      `a study of ${people(n)} (strong needs ${R.strongSample.toLocaleString('en-US')}${n < R.moderateSample ? `, moderate ${R.moderateSample.toLocaleString('en-US')}` : ''})`,
    );
  if (gws === null)
    reasons.push(
      `the source gives no p-values, so markers at genome-wide significance (p ≤ 5e-8) cannot be counted (strong needs ${R.strongGenomeWide})`,
    );
  else if (g < R.strongGenomeWide)
    reasons.push(
      `${g} genome-wide significant ${g === 1 ? 'marker' : 'markers'} (strong needs ${R.strongGenomeWide}${g < R.moderateGenomeWide ? `, moderate ${R.moderateGenomeWide}` : ''})`,
    );
  else if (!e.curated && g < R.strongGenomeWideUncurated)
    reasons.push(
      `${g} genome-wide significant markers in a score generated automatically (strong needs curation or ${R.strongGenomeWideUncurated})`,
    );
  if (gws === null && e.markers < R.moderateMarkersWithoutP)
    reasons.push(`${e.markers} markers without p-values (moderate needs ${R.moderateMarkersWithoutP})`);
  if (e.topMarkerShare > R.strongTopShare)
    reasons.push(
      `one marker carries ${percent(e.topMarkerShare)} of the score's variance (strong needs at most ${percent(R.strongTopShare)}${e.topMarkerShare > R.moderateTopShare ? `, moderate ${percent(R.moderateTopShare)}` : ''})`,
    );
  if (e.automatedBiobank)
    reasons.push('an automated UK Biobank analysis without a peer-reviewed paper (at most moderate)');
  if (ve !== null && ve < R.strongVarianceExplained)
    reasons.push(`the score is stated to explain ${(100 * ve).toFixed(1)} % of the trait (strong needs 1 %)`);

  const enoughMarkers = gws === null ? e.markers >= R.moderateMarkersWithoutP : g >= R.moderateGenomeWide;
  if (e.sampleSize !== null && n >= R.moderateSample && enoughMarkers && e.topMarkerShare <= R.moderateTopShare)
    return { label: 'moderate', reasons };
  return { label: 'limited', reasons };
}

/** The label a result gets from its trait's label and the share of markers genotyped. */
export function resultEvidence(label: EvidenceLabel, coverage: number): EvidenceLabel {
  if (coverage >= COVERAGE_FOR_FULL_EVIDENCE || label === 'suggestive') return label;
  return label === 'strong' ? 'moderate' : 'limited';
}
