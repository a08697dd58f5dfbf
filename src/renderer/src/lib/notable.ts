/**
 * How much a result tells, and which results are notable (docs/ui.md, "Notable results";
 * docs/science.md, "What a result means").
 *
 * - How much this tells you follows what the score can explain: its share of the trait's
 *   variance v (the result's `meaning`, else the catalog's figure) times the share of its
 *   markers read: I = coverage × √(v / 0.1), at most 1. A risk the score moves by less than
 *   one percentage point tells very little, whatever v says. Unknown v: very little.
 * - Notability is the absolute difference from average in percentage points: for a risk,
 *   |yours − average|; for a measurement, how much the score changes the chance of being
 *   among the tenth of people furthest out on its side (an expected shift of Δ trait SDs with
 *   the spread s people with that score still have: 100 × (1 − Φ((1.2816 − |Δ|) / s)) − 10).
 *   A score that explains little shifts the trait little, so it cannot lead.
 * - Notable results: those moving a chance by at least one point, by notability; then results
 *   without absolute terms whose odds differ from average by at least a quarter, by odds; at
 *   most 10, one per phenotype. A rank alone (how extreme the percentile is) never qualifies.
 */
import type { ProfileTrait } from '../../../shared/api.js';
import { normalCdf } from '../../../shared/normal.js';

export const NOTABLE_LIMIT = 10;
/** Percentage points a result must move to be notable. */
export const NOTABLE_MIN_POINTS = 1;
/** Odds ratio against an average score (either way) for a result without absolute terms to be listed. */
const NOTABLE_MIN_ODDS = 1.25;
/** The 90th percentile of the standard normal: the edge of the tenth of people furthest out. */
const Z_TENTH = 1.2815515655446004;

/** The share of the trait's variance the score explains, where known. */
export function varianceExplained(r: ProfileTrait): number | null {
  return (
    r.meaning?.variance_explained ??
    r.evidence?.variance_explained?.value ??
    r.trait.evidence?.variance_explained?.value ??
    null
  );
}

/**
 * How far from average the result is, in percentage points of a chance (see the module
 * comment), or null when the result has no absolute terms.
 */
export function pointsFromAverage(r: ProfileTrait): number | null {
  const m = r.meaning;
  if (!m || typeof m.yours !== 'number' || typeof m.average !== 'number') return null;
  if (m.kind === 'risk') return Math.abs(m.yours - m.average);
  if (m.kind === 'value' && typeof m.spread === 'number' && m.spread > 0)
    return Math.max(0, 100 * (1 - normalCdf((Z_TENTH - Math.abs(m.yours)) / m.spread)) - 10);
  return null;
}

/** How much this result tells you, 0…1. */
export function informativeness(r: ProfileTrait): number {
  const coverage = Math.max(0, Math.min(1, r.evidence?.coverage ?? r.coverage ?? 1));
  const v = varianceExplained(r);
  const explained = typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.min(1, Math.sqrt(v / 0.1)) : 0.1;
  const tiny = r.meaning?.kind === 'risk' && (pointsFromAverage(r) ?? 0) < NOTABLE_MIN_POINTS;
  return Math.min(coverage * explained, tiny ? 0.1 : 1);
}

/** Notability: points from average, or 0 for a result without absolute terms. */
export function notability(r: ProfileTrait): number {
  return pointsFromAverage(r) ?? 0;
}

/** Odds against an average score, as a distance (|ln OR|), for results without absolute terms. */
function oddsDistance(r: ProfileTrait): number {
  const odds = r.meaning?.odds_vs_average;
  return typeof odds === 'number' && odds > 0 ? Math.abs(Math.log(odds)) : 0;
}

/** Words and steps (1–4) for the "how much this tells you" meter. */
export function informativenessLevel(i: number): { step: 1 | 2 | 3 | 4; label: string } {
  if (i >= 0.7) return { step: 4, label: 'More than most results' };
  if (i >= 0.3) return { step: 3, label: 'Some' };
  if (i >= 0.14) return { step: 2, label: 'A little' };
  return { step: 1, label: 'Very little' };
}

export interface Candidate {
  result: ProfileTrait;
  featured: boolean;
}

/**
 * The notable results among one result per phenotype (the caller leaves out what the person
 * chose not to see), in the order the summary and the report's first page show them.
 */
export function notableResults<T extends Candidate>(candidates: T[], limit = NOTABLE_LIMIT): T[] {
  const absolute: Array<{ c: T; n: number }> = [];
  const relative: Array<{ c: T; n: number }> = [];
  for (const c of candidates) {
    if (typeof c.result.percentile !== 'number') continue;
    const points = pointsFromAverage(c.result);
    if (points !== null) {
      if (points >= NOTABLE_MIN_POINTS) absolute.push({ c, n: points });
    } else if (oddsDistance(c.result) >= Math.log(NOTABLE_MIN_ODDS)) relative.push({ c, n: oddsDistance(c.result) });
  }
  const byN = (a: { c: T; n: number }, b: { c: T; n: number }) =>
    b.n - a.n || a.c.result.trait.code.localeCompare(b.c.result.trait.code);
  absolute.sort(byN);
  relative.sort(byN);
  return [...absolute, ...relative].slice(0, limit).map(({ c }) => c);
}
