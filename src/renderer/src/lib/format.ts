/** Numbers, dates and labels the way people read them. */
import type { Profile } from '../../../shared/api.js';
import { POPULATION_NAMES as SHARED_POPULATION_NAMES } from '../../../shared/populations.js';
import { ETHNICITIES, GENDERS } from '../../../shared/profile-fields.js';
import { VENDOR_NAMES } from '../../../shared/vendors.js';

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export function formatInt(n: number): string {
  return integer.format(n);
}

export function formatPercent(fraction: number, digits = 0): string {
  return `${(fraction * 100).toFixed(digits)}%`;
}

export function ordinal(n: number): string {
  const r = Math.round(n);
  if (r % 100 >= 11 && r % 100 <= 13) return `${r}th`;
  return `${r}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[r % 10] ?? 'th'}`;
}

export function percentileText(p: number): string {
  return `${ordinal(Math.min(99, Math.max(1, p)))} percentile`;
}

export function formatDate(iso: string | undefined | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ''
    : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDateTime(iso: string | undefined | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function profileName(p: Pick<Profile, 'first_name' | 'last_name'>): string {
  return [p.first_name, p.last_name].filter(Boolean).join(' ').trim() || 'Unnamed profile';
}

export function initials(p: Pick<Profile, 'first_name' | 'last_name'>): string {
  const parts = [p.first_name, p.last_name].filter(Boolean);
  if (parts.length === 0) return '?';
  return parts
    .slice(0, 2)
    .map((s) => s.trim()[0]?.toUpperCase() ?? '')
    .join('');
}

export function genderLabel(g: number): string {
  return GENDERS[g] ?? 'Unknown';
}

export function ethnicityLabel(e: number): string {
  return ETHNICITIES[e] ?? 'Unknown';
}

/** One line under a profile's name: "Female · 36 · European (White)", known fields only. */
export function profileFacts(p: Profile): string {
  const facts: string[] = [];
  if (p.gender) facts.push(genderLabel(p.gender));
  if (p.age !== null) facts.push(`${p.age} years`);
  if (p.ethnicity) facts.push(ethnicityLabel(p.ethnicity));
  return facts.join(' · ');
}

export const POPULATION_NAMES: Record<string, string> = SHARED_POPULATION_NAMES;

export function populationName(code: string | undefined): string {
  return (code && POPULATION_NAMES[code]) || code || 'reference';
}

/** The vendor name the service reports (src/shared/vendors.ts), for a sentence. */
export function vendorName(vendor: unknown): string {
  return typeof vendor === 'string' && vendor && vendor !== VENDOR_NAMES.generic ? vendor : 'Unknown source';
}

/** Avatar colour from a stable hash of the id. */
export function avatarHue(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return h % 360;
}

export function firstSentence(text: string | undefined): string {
  if (!text) return '';
  const m = /^(.+?[.!?])(\s|$)/.exec(text.trim());
  return m ? m[1] : text.trim();
}

/**
 * A result's percentile in words, never past the scale: "beyond the 99.9th percentile"
 * for scores off the top, "below the 0.1st percentile" off the bottom.
 */
export function percentileWords(r: {
  percentile?: number | null;
  percentile_bound?: 'below_0.1' | 'above_99.9' | null;
}): string {
  if (r.percentile_bound === 'above_99.9') return 'beyond the 99.9th percentile';
  if (r.percentile_bound === 'below_0.1') return 'below the 0.1st percentile';
  if (typeof r.percentile !== 'number') return 'no percentile (no reference frequencies)';
  return `${percentileText(r.percentile)}`;
}

/**
 * A result's percentile as a sentence fragment for captions and exports: "63rd percentile:
 * higher than about 63 of 100 people …", "beyond the 99.9th percentile: higher than more
 * than 99.9 of 100 people …"; never "100 of 100" or "0 of 100".
 */
export function percentileSentence(percentile: number, bound: 'below_0.1' | 'above_99.9' | null | undefined): string {
  if (bound === 'above_99.9')
    return 'beyond the 99.9th percentile: higher than more than 99.9 of 100 people in the reference population';
  if (bound === 'below_0.1')
    return 'below the 0.1st percentile: lower than more than 99.9 of 100 people in the reference population';
  const p = Math.min(99, Math.max(1, Math.round(percentile)));
  return `${percentileText(p)}: higher than about ${p} of 100 people in the reference population`;
}

/** The big figure of a result: "62nd", ">99.9th", "<0.1st". */
export function percentileFigure(r: {
  percentile?: number | null;
  percentile_bound?: 'below_0.1' | 'above_99.9' | null;
}): string {
  if (r.percentile_bound === 'above_99.9') return '>99.9th';
  if (r.percentile_bound === 'below_0.1') return '<0.1st';
  return typeof r.percentile === 'number' ? ordinal(Math.min(99, Math.max(1, r.percentile))) : '—';
}

export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
