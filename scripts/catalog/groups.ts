/**
 * One answer per phenotype: traits that score the same phenotype (the same source trait
 * name, or names synonymous per synonyms.json, e.g. the 20 LDL cholesterol studies) form a
 * group, and one of them is the headline result: its best-informed member. Rule
 * (docs/science.md, section 7), first difference wins:
 *  1. larger predictive power (information.ts, headlinePower: what the score explains once
 *     corrected for the winner's curse × the share of its markers kept); a study whose power
 *     cannot be computed comes last;
 *  2. higher evidence label (strong > moderate > limited > suggestive);
 *  3. more markers at genome-wide significance;
 *  4. larger sample size;
 *  5. more recent publication;
 *  6. code, alphabetically (a stable tie-break).
 * The only other way to head a group is a row of headline-exceptions.json, which names the
 * phenotype, the headline and why; the build report counts them.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { CatalogTrait } from '../../src/service/science/format.js';
import { EVIDENCE_RANK } from '../../src/service/science/evidence.js';
import { issuesOf, rowName } from './exceptions.js';

const synonymSchema = z
  .object({
    /** The phenotype key the group takes (phenotypeKey of a source trait name). */
    phenotype: z.string().min(1),
    /** Phenotype keys of other source trait names that score the same phenotype. */
    synonyms: z.array(z.string().min(1)).min(1),
    /** Why these are one phenotype (and what was deliberately left out). */
    why: z.string().min(20),
  })
  .strict();

export type SynonymRow = z.infer<typeof synonymSchema>;

/** Synonym rows of a data file, or an error naming the row; a key may belong to one row only. */
export function parseSynonyms(text: string, file: string): SynonymRow[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of {phenotype, synonyms, why} rows`);
  const seen = new Set<string>();
  return raw.map((row: unknown, i) => {
    const r = synonymSchema.safeParse(row);
    if (!r.success) throw new Error(`${file}, ${rowName(row, i)}: ${issuesOf(r.error)}`);
    for (const k of [r.data.phenotype, ...r.data.synonyms]) {
      if (k !== phenotypeKey(k))
        throw new Error(`${file}, ${rowName(row, i)}: "${k}" is not a phenotype key (write "${phenotypeKey(k)}")`);
      if (seen.has(k)) throw new Error(`${file}, ${rowName(row, i)}: "${k}" appears in two rows`);
      seen.add(k);
    }
    return r.data;
  });
}

const SYNONYMS = parseSynonyms(
  readFileSync(new URL('./synonyms.json', import.meta.url), 'utf8'),
  'scripts/catalog/synonyms.json',
);
const SYNONYM_OF = new Map(SYNONYMS.flatMap((r) => r.synonyms.map((k) => [k, r.phenotype] as const)));

/** The group key of a phenotype key: the phenotype it is a synonym of, else itself. */
export function groupKeyOf(key: string, synonymOf: Map<string, string> = SYNONYM_OF): string {
  return synonymOf.get(key) ?? key;
}

/** The phenotype a source trait name describes: lower case, no "[PMID …]" tags, single spaces. */
export function phenotypeKey(sourceTrait: string): string {
  return sourceTrait
    .toLowerCase()
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/[^a-z0-9()+/,.'-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const headlineExceptionSchema = z
  .object({
    /** The group key (phenotypeKey of the phenotype the group takes). */
    phenotype: z.string().min(1),
    /** The trait code that heads the group instead of its best-informed member. */
    headline: z.string().regex(/^[a-z0-9_]+$/),
    /** Why the measure's choice would mislead here, with the figures that show it. */
    why: z.string().min(40),
  })
  .strict();

export type HeadlineException = z.infer<typeof headlineExceptionSchema>;

/** Headline exception rows of a data file, or an error naming the row; one row per phenotype. */
export function parseHeadlineExceptions(text: string, file: string): HeadlineException[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of {phenotype, headline, why} rows`);
  const seen = new Set<string>();
  return raw.map((row: unknown, i) => {
    const r = headlineExceptionSchema.safeParse(row);
    if (!r.success) throw new Error(`${file}, ${rowName(row, i)}: ${issuesOf(r.error)}`);
    if (seen.has(r.data.phenotype)) throw new Error(`${file}, ${rowName(row, i)}: phenotype appears in two rows`);
    seen.add(r.data.phenotype);
    return r.data;
  });
}

export const HEADLINE_EXCEPTIONS = parseHeadlineExceptions(
  readFileSync(new URL('./headline-exceptions.json', import.meta.url), 'utf8'),
  'scripts/catalog/headline-exceptions.json',
);

/** What assignGroups reports: group counts, and how often the headline is the best-informed member. */
export interface GroupingReport {
  groups: number;
  multi: number;
  largest: Array<[string, number]>;
  /** Multi-study groups headed by their member of largest power (where no member's power is computable, the tie-breaks pick it). */
  best_informed: number;
  /** best_informed / multi. */
  best_informed_share: number;
  /** Groups headed by an exception row instead, with both members' power. */
  exceptions: Array<{
    phenotype: string;
    headline: string;
    headline_power: number | null;
    best_informed: string;
    best_power: number | null;
    why: string;
  }>;
}

function compareForHeadline(a: CatalogTrait, b: CatalogTrait, power: Map<CatalogTrait, number>): number {
  return (
    power.get(b)! - power.get(a)! ||
    EVIDENCE_RANK[b.evidence.label] - EVIDENCE_RANK[a.evidence.label] ||
    (b.evidence.genome_wide_markers ?? 0) - (a.evidence.genome_wide_markers ?? 0) ||
    (b.quality.sample_size ?? 0) - (a.quality.sample_size ?? 0) ||
    (b.quality.publication_year ?? 0) - (a.quality.publication_year ?? 0) ||
    a.code.localeCompare(b.code)
  );
}

/**
 * Sets `group` on every trait. `keyOf` gives a trait's group key, `powerOf` its predictive
 * power (null when it cannot be computed); a group's name is its headline's name. An exception
 * whose phenotype or headline is not in the catalog stops the build: a stale row must go.
 */
export function assignGroups(
  traits: CatalogTrait[],
  keyOf: (t: CatalogTrait) => string,
  powerOf: (t: CatalogTrait) => number | null,
  exceptions: HeadlineException[] = HEADLINE_EXCEPTIONS,
): GroupingReport {
  const power = new Map(traits.map((t) => [t, powerOf(t) ?? -1]));
  const byKey = new Map<string, CatalogTrait[]>();
  for (const t of traits) {
    const k = keyOf(t);
    const list = byKey.get(k);
    if (list) list.push(t);
    else byKey.set(k, [t]);
  }
  const shown = (t: CatalogTrait) => (power.get(t)! < 0 ? null : Number(power.get(t)!.toPrecision(3)));
  const report: GroupingReport['exceptions'] = [];
  for (const x of exceptions) {
    const members = byKey.get(x.phenotype);
    if (!members)
      throw new Error(
        `headline-exceptions.json: no group "${x.phenotype}" in the catalog; fix the key or remove the row`,
      );
    const head = members.find((t) => t.code === x.headline);
    if (!head)
      throw new Error(
        `headline-exceptions.json: "${x.headline}" is not a member of "${x.phenotype}" (members: ${members.map((t) => t.code).join(', ')})`,
      );
  }
  const excepted = new Map(exceptions.map((x) => [x.phenotype, x]));
  let multi = 0;
  let best = 0;
  for (const [key, members] of byKey) {
    members.sort((a, b) => compareForHeadline(a, b, power));
    const x = excepted.get(key);
    if (x) {
      const head = members.find((t) => t.code === x.headline)!;
      report.push({
        phenotype: key,
        headline: head.code,
        headline_power: shown(head),
        best_informed: members[0].code,
        best_power: shown(members[0]),
        why: x.why,
      });
      members.splice(members.indexOf(head), 1);
      members.unshift(head);
    }
    const headline = members[0];
    if (members.length > 1) {
      multi++;
      if (power.get(headline)! >= Math.max(...members.map((t) => power.get(t)!))) best++;
    }
    for (const t of members) {
      t.group = { code: headline.code, name: headline.name, size: members.length, headline: t === headline };
      t.headline_power = shown(t);
    }
  }
  const largest = [...byKey.values()]
    .sort((a, b) => b.length - a.length)
    .slice(0, 10)
    .map((m): [string, number] => [m[0].name, m.length]);
  return {
    groups: byKey.size,
    multi,
    largest,
    best_informed: best,
    best_informed_share: multi ? Number((best / multi).toFixed(4)) : 1,
    exceptions: report,
  };
}
