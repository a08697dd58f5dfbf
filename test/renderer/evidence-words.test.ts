/**
 * Words that match the numbers (docs/science.md §6): over the whole shipped catalog, every
 * evidence label follows the documented rule from the figures shown beside it, and the
 * sentence the UI shows under the label names only those figures.
 */
import { describe, expect, it } from 'vitest';
import { evidenceWords } from '../../src/renderer/src/lib/evidence-words.js';
import { EVIDENCE_RULE as R, evidenceLabel } from '../../src/service/science/evidence.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

const catalog = shippedCatalog().traits;
const UKB = /UK Biobank/;

/** The figures the evidence card shows beside the label, as the words would print them. */
function shownFigures(t: (typeof catalog)[number]): Set<string> {
  const e = t.evidence;
  const figures = new Set<string>([String(t.quality.markers)]);
  if (t.quality.sample_size !== null) figures.add(t.quality.sample_size.toLocaleString('en-US'));
  if (e.genome_wide_markers !== null) figures.add(String(e.genome_wide_markers));
  figures.add(String(Math.round(100 * e.top_marker_share)));
  if (e.variance_explained) figures.add((100 * e.variance_explained.value).toFixed(1));
  return figures;
}

/** The thresholds the rule names, which the words may also quote. */
const thresholds = new Set(
  ['100,000', '10,000', '10', '20', '3', '50', '80', '1', '8', '5'].concat(
    Object.values(R).map((v) => (v < 1 ? String(Math.round(100 * v)) : v.toLocaleString('en-US'))),
  ),
);

describe('evidence words over the whole catalog', () => {
  it('has the catalog to check', () => expect(catalog.length).toBeGreaterThan(1500));

  it("gives every trait the label the documented rule gives its facts, and the rule's reasons", () => {
    const wrong: string[] = [];
    for (const t of catalog) {
      if (t.source.dataset.startsWith('PGS')) continue;
      const expected = evidenceLabel({
        markers: t.quality.markers,
        sampleSize: t.quality.sample_size,
        genomeWideMarkers: t.evidence.genome_wide_markers,
        topMarkerShare: t.evidence.top_marker_share,
        curated: t.evidence.curated,
        automatedBiobank: UKB.test(t.source.dataset),
        varianceExplained: t.evidence.variance_explained?.value ?? null,
      });
      // top_marker_share is rounded to 4 places in the catalog: compare labels, then reasons' facts.
      if (expected.label !== t.evidence.label || expected.label !== t.quality.evidence)
        wrong.push(`${t.code}: ${t.evidence.label}, rule says ${expected.label}`);
    }
    expect(wrong).toEqual([]);
  });

  it('never labels a large study with many significant markers as limited for its size', () => {
    for (const t of catalog) {
      const n = t.quality.sample_size ?? 0;
      const g = t.evidence.genome_wide_markers;
      const words = evidenceWords(t.evidence.label, t.evidence.reasons);
      if (n >= R.moderateSample) expect(words, t.code).not.toMatch(/small stud|study size is not known/i);
      if (n >= R.strongSample && t.evidence.label !== 'strong')
        expect(words, t.code).not.toMatch(/a study of [\d,]+ people \(strong needs/);
      if (t.evidence.label === 'strong') {
        expect(n, t.code).toBeGreaterThanOrEqual(R.strongSample);
        expect(g ?? 0, t.code).toBeGreaterThanOrEqual(R.strongGenomeWide);
        expect(t.evidence.top_marker_share, t.code).toBeLessThanOrEqual(R.strongTopShare);
      }
      if (t.evidence.label === 'moderate') {
        expect(n, t.code).toBeGreaterThanOrEqual(R.moderateSample);
        expect(t.evidence.top_marker_share, t.code).toBeLessThanOrEqual(R.moderateTopShare);
      }
      if (t.evidence.label === 'suggestive') expect(g, t.code).toBe(0);
    }
  });

  it('words quote only the figures shown beside the label, or the rule’s thresholds', () => {
    const wrong: string[] = [];
    for (const t of catalog) {
      const words = evidenceWords(t.evidence.label, t.evidence.reasons);
      if (t.evidence.label !== 'strong') expect(words.length, t.code).toBeGreaterThan(0);
      const allowed = shownFigures(t);
      for (const figure of words.replace(/p ≤ 5e-8/g, '').match(/\d[\d,.]*\d|\d/g) ?? [])
        if (!allowed.has(figure) && !thresholds.has(figure)) wrong.push(`${t.code}: "${figure}" in "${words}"`);
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  });

  it('rates Height, from 456,837 people and 97 markers, by its facts', () => {
    const height = catalog.find((t) => t.code === 'height')!;
    expect(height.quality.sample_size).toBe(456_837);
    expect(height.evidence.label).toBe('moderate');
    const words = evidenceWords(height.evidence.label, height.evidence.reasons);
    expect(words).toMatch(/no p-values/);
    expect(words).not.toMatch(/small|limited/i);
  });
});
