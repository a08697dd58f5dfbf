/**
 * Citation consistency of the source tables (build-time curation QC). A study's PMID is
 * stated three times: as the suffix of its study_id, in the trait overview and on every
 * SNP row. Where the overview disagrees with both others, the overview is wrong (in the
 * 2021-01-28 tables two depression studies of Howard et al., PMID 29662059, and the
 * diverticular-disease study of Maguire et al., PMID 30177863, have their overview PMIDs
 * swapped) and the PMID of the suffix and the rows is used. Any other disagreement stops
 * the build: a result must never cite the wrong paper.
 */
import type { Row } from './read.js';

export interface CitationCheck {
  /** study_id → the PMID to cite. */
  pmid: Map<string, string>;
  corrected: Array<{ study_id: string; overview_pmid: string; pmid: string }>;
  violations: string[];
}

export function checkCitations(overview: Map<string, Row>, rowsByStudy: Map<string, Row[]>): CitationCheck {
  const pmid = new Map<string, string>();
  const corrected: CitationCheck['corrected'] = [];
  const violations: string[] = [];
  for (const [studyId, o] of overview) {
    const suffix = /_(\d{6,9})$/.exec(studyId)?.[1] ?? null;
    const fromRows = [...new Set((rowsByStudy.get(studyId) ?? []).map((r) => r.pmid).filter(Boolean))];
    const stated = o.pmid || null;
    if (fromRows.length > 1) {
      violations.push(`${studyId}: SNP rows cite several PMIDs (${fromRows.join(', ')})`);
      continue;
    }
    const rowPmid = fromRows[0] ?? null;
    const agree = [suffix, rowPmid].filter((x): x is string => x !== null);
    if (agree.length === 2 && agree[0] !== agree[1]) {
      violations.push(`${studyId}: study_id suffix ${suffix} and SNP rows (${rowPmid}) disagree`);
      continue;
    }
    const evidence = agree[0] ?? null;
    if (evidence && stated && evidence !== stated) {
      if (agree.length < 2) {
        violations.push(
          `${studyId}: overview PMID ${stated} disagrees with ${suffix ? 'study_id suffix' : 'SNP rows'} ${evidence}, and nothing else decides`,
        );
        continue;
      }
      corrected.push({ study_id: studyId, overview_pmid: stated, pmid: evidence });
      pmid.set(studyId, evidence);
      continue;
    }
    const chosen = stated ?? evidence;
    if (chosen) pmid.set(studyId, chosen);
  }
  return { pmid, corrected, violations };
}
