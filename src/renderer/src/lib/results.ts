/**
 * The results of one profile as people read them: one row per phenotype (the group's
 * headline result, the other studies under it), sorted and filtered over the whole catalog.
 */
import type { ClientTrait, ProfileTrait, Trait, TraitStatus } from '../../../shared/api.js';
import { notability } from './notable.js';

export type StatusReason = NonNullable<ProfileTrait['status_reason']>;

/** One study of a phenotype for this person. */
export interface Study {
  trait: Trait;
  status: TraitStatus;
  result?: ProfileTrait;
  reason?: StatusReason;
}

/** One phenotype: the result people see first, and every study behind it. */
export interface PhenotypeRow {
  /** The group code (the headline trait's code). */
  key: string;
  /** The phenotype's name, without author or PMID. */
  name: string;
  category: string;
  featured: boolean;
  /** The study shown: the headline when it has a result, else the best study that has one, else the headline. */
  main: Study;
  /** The other studies of the phenotype, results first. */
  others: Study[];
  /** Searchable text, lower case. */
  haystack: string;
}

const EVIDENCE_RANK: Record<string, number> = { strong: 0, moderate: 1, limited: 2, suggestive: 3 };

export function evidenceLabel(s: Pick<Study, 'trait' | 'result'>): string {
  return s.result?.evidence?.label ?? s.trait.evidence?.label ?? s.trait.quality?.evidence ?? 'limited';
}

function byStrength(a: Study, b: Study): number {
  return (
    (EVIDENCE_RANK[evidenceLabel(a)] ?? 9) - (EVIDENCE_RANK[evidenceLabel(b)] ?? 9) ||
    (b.trait.quality?.markers ?? 0) - (a.trait.quality?.markers ?? 0)
  );
}

export interface TraitSnapshot {
  statuses: Record<string, TraitStatus>;
  results: Record<string, ProfileTrait>;
  reasons: Record<string, StatusReason>;
}

/** A phenotype of the catalog: what its rows share whoever the person is. */
interface Phenotype {
  key: string;
  name: string;
  category: string;
  featured: boolean;
  /** The group's headline study (or its first). */
  headline: Trait;
  traits: Trait[];
  haystack: string;
}

/** The catalog's phenotypes, worked out once per catalog: every row of every load reuses them. */
const phenotypesOf = new WeakMap<ClientTrait[], Phenotype[]>();

function phenotypes(catalog: ClientTrait[]): Phenotype[] {
  const known = phenotypesOf.get(catalog);
  if (known) return known;
  const groups = new Map<string, Trait[]>();
  for (const { trait } of catalog) {
    const code = trait.group?.code ?? trait.code;
    const list = groups.get(code);
    if (list) list.push(trait);
    else groups.set(code, [trait]);
  }
  const out: Phenotype[] = [];
  for (const [key, traits] of groups) {
    const headline = traits.find((t) => t.group?.headline) ?? traits.find((t) => t.code === key) ?? traits[0];
    const name = readableName(headline.group?.name ?? headline.name);
    out.push({
      key,
      name,
      category: headline.category || 'Other',
      featured: traits.some((t) => t.featured),
      headline,
      traits,
      haystack: [name, ...traits.map((t) => `${t.name} ${t.code} ${t.study_label ?? ''}`), headline.category ?? '']
        .join(' ')
        .toLowerCase(),
    });
  }
  phenotypesOf.set(catalog, out);
  return out;
}

/**
 * A phenotype name in a person's words: the UK Biobank's medication codes ("Medicine:
 * rosuvastatin") are whether people take the medicine, not a property of the medicine.
 */
export function readableName(name: string): string {
  const medicine = /^Medicine:\s*(.+)$/i.exec(name);
  return medicine ? `Taking ${medicine[1]} (reported medication use)` : name;
}

/** Rows for the catalog the client sees and a profile's statuses, results and reasons. */
export function phenotypeRows(catalog: ClientTrait[], data: TraitSnapshot): PhenotypeRow[] {
  return phenotypes(catalog).map(({ key, name, category, featured, headline, traits, haystack }) => {
    let main: Study | undefined;
    const studies = traits.map((trait): Study => {
      const result = data.results[trait.code];
      const status = data.statuses[trait.code] ?? 'unavailable';
      const study: Study = {
        trait,
        status: result ? 'computed' : status === 'computed' ? 'available' : status,
        result,
        reason: data.reasons[trait.code],
      };
      if (trait === headline) main = study;
      return study;
    });
    const head = main!;
    if (!head.result) main = studies.filter((s) => s.result).sort(byStrength)[0] ?? head;
    const others = studies
      .filter((s) => s !== main)
      .sort((a, b) => Number(!!b.result) - Number(!!a.result) || byStrength(a, b));
    return { key, name, category, featured, main: main!, others, haystack };
  });
}

// ---- What a row is about -----------------------------------------------------------------

/** Categories whose traits are diseases or conditions (docs/ui.md, "Filters"). */
const DISEASE_CATEGORIES = new Set([
  'Disease',
  'Cancer',
  'Autoimmune',
  'Cardiometabolic',
  'Neurological',
  'Psychiatric',
  'Digestive',
  'Kidney',
  'Eyes',
  'Allergy and respiratory',
]);
const PSYCHIATRIC =
  /schizo|bipolar|depress|autis|adhd|attention deficit|anorexia|anxiety|psychiatr|psychos|neurotic|suicid|obsessive|post-traumatic|ptsd|alcohol dependence|substance/i;
const CANCER = /cancer|carcinoma|melanoma|lymphoma|leuk(a)?emia|myeloma|glioma|tumou?r|neoplasm|sarcoma/i;

export function isPsychiatric(t: Trait): boolean {
  return t.category === 'Psychiatric' || PSYCHIATRIC.test(t.name);
}

export function isCancer(t: Trait): boolean {
  return t.category === 'Cancer' || CANCER.test(t.name);
}

/**
 * A disease, cancer or psychiatric result: what a person may prefer not to see, or not to
 * share. Risky traits in disease categories, every cancer and every psychiatric phenotype.
 */
export function isSensitive(t: Trait): boolean {
  let sensitive = sensitiveTraits.get(t);
  if (sensitive === undefined) {
    sensitive =
      isPsychiatric(t) || isCancer(t) || (t.connotation === 'risky' && DISEASE_CATEGORIES.has(t.category ?? ''));
    sensitiveTraits.set(t, sensitive);
  }
  return sensitive;
}

/** Worked out once per trait object: every list filter asks for each row. */
const sensitiveTraits = new WeakMap<Trait, boolean>();

// ---- Sorting and filtering ---------------------------------------------------------------

export type SortKey = 'notable' | 'percentile_high' | 'percentile_low' | 'evidence' | 'name';
export type ShowKey = 'results' | 'unavailable' | 'all';

export interface RowFilter {
  query: string;
  show: ShowKey;
  evidence: string[];
  hideSensitive: boolean;
  category: string;
}

export function rowMatches(row: PhenotypeRow, f: RowFilter, terms: string[]): boolean {
  const has = !!row.main.result;
  if (f.show === 'results' && !has) return false;
  if (f.show === 'unavailable' && has) return false;
  if (f.evidence.length > 0 && !f.evidence.includes(evidenceLabel(row.main))) return false;
  if (f.hideSensitive && isSensitive(row.main.trait)) return false;
  if (f.category && row.category !== f.category) return false;
  return terms.every((t) => row.haystack.includes(t));
}

// One collator for every comparison: localeCompare sets one up per call.
const collator = new Intl.Collator();
const byName = (a: PhenotypeRow, b: PhenotypeRow) => collator.compare(a.name, b.name);
const pct = (r: PhenotypeRow) => r.main.result?.percentile ?? undefined;

export function sortRows(rows: PhenotypeRow[], key: SortKey): PhenotypeRow[] {
  const out = [...rows];
  switch (key) {
    case 'name':
      return out.sort(byName);
    case 'evidence':
      return out.sort((a, b) => byStrength(a.main, b.main) || byName(a, b));
    case 'percentile_high':
    case 'percentile_low': {
      const sign = key === 'percentile_high' ? -1 : 1;
      return out.sort((a, b) => {
        const pa = pct(a);
        const pb = pct(b);
        if (pa === undefined || pb === undefined)
          return (pa === undefined ? 1 : 0) - (pb === undefined ? 1 : 0) || byName(a, b);
        return sign * (pa - pb) || byName(a, b);
      });
    }
    case 'notable': {
      const notabilities = new Map(out.map((r) => [r, r.main.result ? notability(r.main.result) : -1]));
      return out.sort(
        (a, b) =>
          notabilities.get(b)! - notabilities.get(a)! || Number(b.featured) - Number(a.featured) || byName(a, b),
      );
    }
  }
}

export function categoriesOf(rows: PhenotypeRow[]): string[] {
  return [...new Set(rows.map((r) => r.category))].sort((a, b) =>
    a === 'Other' ? 1 : b === 'Other' ? -1 : collator.compare(a, b),
  );
}
