/**
 * How much a result tells, and which results are notable (docs/ui.md, "Notable results").
 *
 * - Distance from average: d = |percentile − 50| / 50 (1 beyond the 0.1st or 99.9th).
 * - How much this tells you: I = evidence × coverage × explained, where evidence is
 *   strong 1, moderate 0.7, limited 0.45, suggestive 0.25; coverage is the share of the
 *   score's markers read; explained is 0.35 + 0.65·√(v / 0.1) (at most 1) for a published
 *   share of variance v, and 0.35 when nobody published one.
 * - Notability: d² × I. Results in the average band (30th–70th percentile) are never notable.
 * - Notable results: featured traits whose notability reaches 0.08 first, then the rest, each
 *   by notability; at most 10, one per phenotype.
 */
import type { ProfileTrait } from '../../../shared/api.js';

const EVIDENCE_WEIGHT: Record<string, number> = { strong: 1, moderate: 0.7, limited: 0.45, suggestive: 0.25 };
export const NOTABLE_LIMIT = 10;
const FEATURED_FLOOR = 0.08;

export function distanceFromAverage(r: ProfileTrait): number {
  if (r.percentile_bound) return 1;
  return typeof r.percentile === 'number' ? Math.min(1, Math.abs(r.percentile - 50) / 50) : 0;
}

function explainedFactor(v: number | null | undefined): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) return 0.35;
  return Math.min(1, 0.35 + 0.65 * Math.sqrt(v / 0.1));
}

export function varianceExplained(r: ProfileTrait): number | null {
  return r.evidence?.variance_explained?.value ?? r.trait.evidence?.variance_explained?.value ?? null;
}

/** How much this result tells you, 0…1. */
export function informativeness(r: ProfileTrait): number {
  const label = r.evidence?.label ?? r.trait.evidence?.label ?? 'limited';
  const coverage = r.evidence?.coverage ?? r.coverage ?? 1;
  return (EVIDENCE_WEIGHT[label] ?? 0.45) * Math.max(0, Math.min(1, coverage)) * explainedFactor(varianceExplained(r));
}

export function notability(r: ProfileTrait): number {
  const d = distanceFromAverage(r);
  return d * d * informativeness(r);
}

export function inAverageBand(r: ProfileTrait): boolean {
  return !r.percentile_bound && typeof r.percentile === 'number' && r.percentile >= 30 && r.percentile <= 70;
}

/** Words and steps (1–4) for the "how much this tells you" meter. */
export function informativenessLevel(i: number): { step: 1 | 2 | 3 | 4; label: string } {
  if (i >= 0.6) return { step: 4, label: 'More than most results' };
  if (i >= 0.35) return { step: 3, label: 'Some' };
  if (i >= 0.18) return { step: 2, label: 'A little' };
  return { step: 1, label: 'Very little' };
}

export interface Candidate {
  result: ProfileTrait;
  featured: boolean;
}

/** The notable results among one result per phenotype (the caller leaves out what the person chose not to see). */
export function notableResults<T extends Candidate>(candidates: T[], limit = NOTABLE_LIMIT): T[] {
  const scored = candidates
    .filter((c) => typeof c.result.percentile === 'number' && !inAverageBand(c.result))
    .map((c) => ({ c, n: notability(c.result) }))
    .filter(({ n }) => n > 0);
  scored.sort((a, b) => {
    const fa = a.c.featured && a.n >= FEATURED_FLOOR ? 1 : 0;
    const fb = b.c.featured && b.n >= FEATURED_FLOOR ? 1 : 0;
    return fb - fa || b.n - a.n;
  });
  return scored.slice(0, limit).map(({ c }) => c);
}
