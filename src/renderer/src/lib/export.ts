/** One profile's results as CSV (for spreadsheets) and JSON (for programs). */
import type { ClientTrait, GenotypeMetadata, Profile, ProfileTrait } from '../../../shared/api.js';
import { ethnicityLabel, genderLabel } from './format.js';

export interface ReportData {
  profile: Profile;
  genotype: GenotypeMetadata | undefined;
  results: ProfileTrait[];
  pricing: Record<string, ClientTrait['type']>;
  generatedAt: Date;
  appVersion?: string;
}

/** Results in reading order: featured traits first, then by category and name. */
export function orderedResults(results: ProfileTrait[]): ProfileTrait[] {
  return [...results].sort((a, b) => {
    const fa = a.trait.featured ? 0 : 1;
    const fb = b.trait.featured ? 0 : 1;
    if (fa !== fb) return fa - fb;
    return (a.trait.category ?? '').localeCompare(b.trait.category ?? '') || a.trait.name.localeCompare(b.trait.name);
  });
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let s = String(value);
  // A cell starting with = + - @ would run as a formula in a spreadsheet.
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const CSV_COLUMNS = [
  'trait_code',
  'trait_name',
  'category',
  'featured',
  'pricing',
  'assessment_level',
  'level_label',
  'percentile',
  'coverage',
  'population',
  'population_source',
  'score',
  'evidence',
  'sample_size',
  'publication_year',
  'pmid',
  'citation',
  'snps',
  'recommendations',
  'computed_at',
] as const;

export function resultsCsv(data: ReportData): string {
  const rows = orderedResults(data.results).map((r) => {
    const q = r.trait.quality;
    const row: Record<(typeof CSV_COLUMNS)[number], unknown> = {
      trait_code: r.trait.code,
      trait_name: r.trait.name,
      category: r.trait.category ?? '',
      featured: r.trait.featured ? 'yes' : 'no',
      pricing: data.pricing[r.trait.code] ?? '',
      assessment_level: r.assessment_level,
      level_label: r.level_label,
      percentile: typeof r.percentile === 'number' ? Math.round(r.percentile * 10) / 10 : undefined,
      coverage: typeof r.coverage === 'number' ? Math.round(r.coverage * 1000) / 1000 : undefined,
      population: r.population,
      population_source: r.population_source,
      score: r.score,
      evidence: q?.evidence,
      sample_size: q?.sample_size ?? undefined,
      publication_year: q?.publication_year ?? undefined,
      pmid: q?.pmid ?? undefined,
      citation: q?.citation,
      snps: (r.snps ?? []).join(' '),
      recommendations: r.recommendations,
      computed_at: r.computed_at,
    };
    return CSV_COLUMNS.map((c) => csvCell(row[c])).join(',');
  });
  // BOM so that spreadsheet programs read the file as UTF-8.
  return `\uFEFF${CSV_COLUMNS.join(',')}\r\n${rows.join('\r\n')}\r\n`;
}

export function resultsJson(data: ReportData): string {
  const { profile, genotype } = data;
  const doc = {
    generated_by: `Traitscope${data.appVersion ? ` ${data.appVersion}` : ''}`,
    generated_at: data.generatedAt.toISOString(),
    profile: {
      ...profile,
      gender_label: genderLabel(profile.gender),
      ethnicity_label: ethnicityLabel(profile.ethnicity),
    },
    genotype: genotype ?? {},
    results: orderedResults(data.results).map((r) => ({ ...r, pricing: data.pricing[r.trait.code] ?? null })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
