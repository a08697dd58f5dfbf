/** One profile's results as CSV (for spreadsheets) and JSON (for programs). */
import type {
  GenotypeMetadata,
  GenotypeSnp,
  PharmacogeneList,
  PharmacogeneResult,
  Profile,
  ProfileTrait,
} from '../../../shared/api.js';
import { ethnicityLabel, genderLabel, percentileSentence } from './format.js';
import { comparedWith } from './reference.js';

export interface ReportData {
  profile: Profile;
  genotype: GenotypeMetadata | undefined;
  results: ProfileTrait[];
  generatedAt: Date;
  appVersion?: string;
}

/** Reads the person's calls for rsIDs (the genotype look-up). */
export type SnpLookup = (rsids: string[]) => Promise<GenotypeSnp[]>;
/** rsIDs per look-up (the service's limit; they travel in the request body). */
const LOOKUP_CHUNK = 10_000;

async function genotypesOf(results: ProfileTrait[], lookup: SnpLookup): Promise<Map<string, string>> {
  const wanted = [...new Set(results.flatMap((r) => r.snps ?? []))];
  const calls = new Map<string, string>();
  for (let i = 0; i < wanted.length; i += LOOKUP_CHUNK) {
    for (const snp of await lookup(wanted.slice(i, i + LOOKUP_CHUNK))) calls.set(snp.rsid, snp.genotype);
  }
  return calls;
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
  // Values come from the API's JSON: strings as they are, booleans and objects as JSON.
  let s = typeof value === 'string' ? value : JSON.stringify(value);
  // A cell starting with = + - @ would run as a formula in a spreadsheet.
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const CSV_COLUMNS = [
  'trait_code',
  'trait_name',
  'category',
  'featured',
  'assessment_level',
  'level_label',
  'percentile',
  'coverage',
  'percentile_text',
  'population',
  'population_source',
  'reference',
  'score',
  'markers_total',
  'markers_observed',
  'markers_imputed',
  'evidence',
  'sample_size',
  'publication_year',
  'pmid',
  'citation',
  'genotypes',
  'recommendations',
  'computed_at',
] as const;

/**
 * One row per result: the result, its reference, how many of its markers were read
 * (observed) or filled with the population average (imputed: missing or not matching),
 * and the person's genotype at each marker ("rs123:AG rs456:--"; "rs789:?" when the file
 * lacks it). No pricing: that concerns API clients, not people.
 */
export async function resultsCsv(data: ReportData, lookup: SnpLookup): Promise<string> {
  const calls = await genotypesOf(data.results, lookup);
  const rows = orderedResults(data.results).map((r) => {
    const q = r.trait.quality;
    const total = r.evidence?.markers_total ?? q?.markers;
    const observed = r.evidence?.markers_used;
    const row: Record<(typeof CSV_COLUMNS)[number], unknown> = {
      trait_code: r.trait.code,
      trait_name: r.trait.name,
      category: r.trait.category ?? '',
      featured: r.trait.featured ? 'yes' : 'no',
      assessment_level: r.assessment_level,
      level_label: r.level_label,
      percentile: typeof r.percentile === 'number' ? Math.round(r.percentile * 10) / 10 : undefined,
      coverage: typeof r.coverage === 'number' ? Math.round(r.coverage * 1000) / 1000 : undefined,
      // Rebuilt from the figure so a result stored before the wording fix never says "100 of 100".
      percentile_text:
        typeof r.percentile === 'number' ? percentileSentence(r.percentile, r.percentile_bound) : r.percentile_text,
      population: r.population,
      population_source: r.population_source,
      reference: r.reference || r.population ? comparedWith(r) : undefined,
      score: r.score,
      markers_total: total,
      markers_observed: observed,
      markers_imputed: typeof total === 'number' && typeof observed === 'number' ? total - observed : undefined,
      evidence: r.evidence?.label ?? q?.evidence,
      sample_size: q?.sample_size ?? undefined,
      publication_year: q?.publication_year ?? undefined,
      pmid: q?.pmid ?? undefined,
      citation: q?.citation,
      genotypes: (r.snps ?? []).map((id) => `${id}:${calls.get(id) ?? '?'}`).join(' '),
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
    results: orderedResults(data.results),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const MEDICATION_CSV_COLUMNS = [
  'gene',
  'status',
  'diplotype',
  'candidates',
  'phenotype',
  'activity_score',
  'positions_read',
  'positions_missing',
  'positions_no_call',
  'alleles_unseen',
  'medicines',
  'definitions_version',
] as const;

/**
 * The medication card as CSV: one row per gene, with what could not be read and the
 * definitions' version; medicines as "name (PMID n)" joined by "; ".
 */
export function medicationCsv(results: PharmacogeneList): string {
  const positions = (list: PharmacogeneResult['positions']['read']) =>
    list.map((p) => p.rsid ?? `GRCh38:${p.grch38}`).join(' ');
  const rows = results.map((r) => {
    const row: Record<(typeof MEDICATION_CSV_COLUMNS)[number], unknown> = {
      gene: r.gene,
      status: r.status,
      diplotype: r.diplotype,
      candidates: r.candidates.join(' '),
      phenotype: r.phenotype,
      activity_score: r.activity_score,
      positions_read: positions(r.positions.read),
      positions_missing: positions(r.positions.missing),
      positions_no_call: positions(r.positions.no_call),
      alleles_unseen: r.alleles_unseen.join(' '),
      medicines: r.medicines.map((m) => `${m.medicine} (PMID ${m.pmid})`).join('; '),
      definitions_version: r.versions.definitions,
    };
    return MEDICATION_CSV_COLUMNS.map((c) => csvCell(row[c])).join(',');
  });
  return `\uFEFF${MEDICATION_CSV_COLUMNS.join(',')}\r\n${rows.join('\r\n')}\r\n`;
}
