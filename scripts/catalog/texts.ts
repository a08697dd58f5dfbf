/**
 * Plain-language texts shared by the catalog: the recommendation for each assessment level
 * and the generated overviews of the GWAS and UK Biobank sets. Careful wording: a genetic
 * score from a few published variants explains little of any trait; no medical advice
 * beyond suggesting a professional.
 */
import type { Connotation } from '../../src/service/science/types.js';

export interface TextTrait {
  /** Lower-case phrase used inside sentences, e.g. "type 2 diabetes". */
  phrase: string;
  connotation: Connotation;
  /** True for diseases and conditions (changes the wording of the advice). */
  condition: boolean;
}

const LIMITS =
  'A score built from published genetic variants captures only a small part of what shapes this trait; ' +
  'lifestyle, environment, chance and variants not in the score usually matter more.';

/** Five recommendation texts, for levels 1 (lowest score) to 5 (highest). */
export function recommendations(t: TextTrait): [string, string, string, string, string] {
  const p = t.phrase;
  if (t.connotation === 'risky') {
    return [
      `Your genetic score for ${p} is among the lowest in the reference population. This does not mean you cannot develop ${p}. ${LIMITS} Keep to the usual health checks and talk to a doctor about any symptoms.`,
      `Your genetic score for ${p} is below average in the reference population. ${LIMITS} Keep to the usual health checks and talk to a doctor about any symptoms.`,
      `Your genetic score for ${p} is close to the average of the reference population. ${LIMITS} Family history and lifestyle are better guides; talk to a doctor if you have symptoms or concerns.`,
      `Your genetic score for ${p} is above average in the reference population. Most people with a score like this never develop ${p}. ${LIMITS} If ${p} runs in your family or you have concerns, talk to a doctor or a genetic counsellor.`,
      `Your genetic score for ${p} is among the highest in the reference population. This is not a diagnosis, and many people with a high score never develop ${p}. ${LIMITS} Consider discussing this result, your family history and any symptoms with a doctor or a genetic counsellor.`,
    ];
  }
  const tail =
    t.connotation === 'good'
      ? `${LIMITS} Treat this as a curiosity rather than a prediction.`
      : `${LIMITS} Treat this as a curiosity rather than a prediction; if the trait affects your health, talk to a professional.`;
  return [
    `Your genetic score for ${p} is among the lowest in the reference population. ${tail}`,
    `Your genetic score for ${p} is below average in the reference population. ${tail}`,
    `Your genetic score for ${p} is close to the average of the reference population. ${tail}`,
    `Your genetic score for ${p} is above average in the reference population. ${tail}`,
    `Your genetic score for ${p} is among the highest in the reference population. ${tail}`,
  ];
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

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
