/**
 * The reference population a result was compared with, in words, and what a change of
 * reference did to the results.
 */
import type { ProfileTrait } from '../../../shared/api.js';
import type { Population } from '../../../shared/populations.js';
import { formatInt, formatPercent, POPULATION_NAMES } from './format.js';

export type Reference = NonNullable<ProfileTrait['reference']>;
export type Mixture = Record<Population, number>;

/** Ethnicity codes of the API (1–5) for each super-population. */
export const ETHNICITY_OF: Record<Population, number> = { EUR: 1, AMR: 2, AFR: 3, EAS: 4, SAS: 5 };

const SOURCE_WORD: Record<string, string> = {
  ethnicity: 'chosen by you',
  inferred: 'estimated from your DNA',
  assumed: 'assumed',
};

export function sourceWord(source: string | undefined): string {
  return (source && SOURCE_WORD[source]) || source || '';
}

/** "European (EUR)", or "Mixed: 60 % African, 40 % European" for a mixture. */
export function referenceName(
  ref: Pick<Reference, 'population' | 'label' | 'weights'> | undefined,
  fallback?: string,
): string {
  if (!ref) return fallback ? `${POPULATION_NAMES[fallback] ?? fallback} (${fallback})` : 'the reference population';
  if (ref.population !== 'MIXED')
    return ref.label || `${POPULATION_NAMES[ref.population] ?? ref.population} (${ref.population})`;
  return `mixed: ${mixtureText(ref.weights)}`;
}

export function mixtureText(weights: Partial<Record<string, number>>): string {
  return Object.entries(weights)
    .filter(([, v]) => (v ?? 0) > 0.005)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([k, v]) => `${formatPercent(v ?? 0)} ${POPULATION_NAMES[k] ?? k}`)
    .join(', ');
}

/** "European (EUR), assumed": what every result row and the report say. */
export function comparedWith(r: Pick<ProfileTrait, 'reference' | 'population' | 'population_source'>): string {
  const name = referenceName(r.reference, r.population);
  const source = sourceWord(r.reference?.source ?? r.population_source);
  return source ? `${name}, ${source}` : name;
}

/** The reference most results of a list use (they share one per profile). */
export function commonReference(results: ProfileTrait[]): Reference | undefined {
  for (const r of results) if (r.reference) return r.reference;
  return undefined;
}

/** How many results differ between two snapshots (new percentile, level or result), by code. */
export function changedResults(
  before: Record<string, ProfileTrait>,
  after: Record<string, ProfileTrait>,
): { changed: number; levels: number } {
  let changed = 0;
  let levels = 0;
  const codes = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const code of codes) {
    const a = before[code];
    const b = after[code];
    if (!a || !b) {
      changed++;
      continue;
    }
    const moved =
      Math.abs((a.percentile ?? 0) - (b.percentile ?? 0)) >= 0.05 ||
      a.assessment_level !== b.assessment_level ||
      a.percentile_bound !== b.percentile_bound;
    if (moved) changed++;
    if (a.assessment_level !== b.assessment_level) levels++;
  }
  return { changed, levels };
}

/** "Recalculated against the African reference: 1,430 results changed (212 to another level)." */
export function recalculatedText(name: string, diff: { changed: number; levels: number }): string {
  const n = diff.changed;
  const what = n === 0 ? 'no result changed' : `${formatInt(n)} ${n === 1 ? 'result' : 'results'} changed`;
  const levels = diff.levels > 0 ? ` (${formatInt(diff.levels)} moved to another level)` : '';
  return `Recalculated against the ${name} reference: ${what}${levels}.`;
}
