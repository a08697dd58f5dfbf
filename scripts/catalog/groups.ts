/**
 * One answer per phenotype: traits that score the same phenotype (the same source trait
 * name, or names synonymous per synonyms.json, e.g. the 20 LDL cholesterol studies) form a
 * group, and one of them is the headline result: its best-informed member. Rule
 * (docs/science.md, section 7), first difference wins:
 *  1. larger predictive power computed from the score itself (information.ts: what it
 *     explains × the share of its markers kept); a study whose power cannot be computed comes
 *     last; a featured study whose power is at least CURATED_POWER_SHARE of the best goes first;
 *  2. higher evidence label (strong > moderate > limited > suggestive);
 *  3. more markers at genome-wide significance;
 *  4. larger sample size;
 *  5. more recent publication;
 *  6. code, alphabetically (a stable tie-break).
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

/** A featured member heads its group while its predictive power is at least this share of the best member's. */
export const CURATED_POWER_SHARE = 0.5;

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
 * power (null when it cannot be computed); a group's name is its headline's name.
 */
export function assignGroups(
  traits: CatalogTrait[],
  keyOf: (t: CatalogTrait) => string,
  powerOf: (t: CatalogTrait) => number | null,
): { groups: number; multi: number; largest: Array<[string, number]> } {
  const power = new Map(traits.map((t) => [t, powerOf(t) ?? -1]));
  const byKey = new Map<string, CatalogTrait[]>();
  for (const t of traits) {
    const k = keyOf(t);
    const list = byKey.get(k);
    if (list) list.push(t);
    else byKey.set(k, [t]);
  }
  let multi = 0;
  for (const members of byKey.values()) {
    members.sort((a, b) => compareForHeadline(a, b, power));
    // A curated study stays the headline while it explains at least CURATED_POWER_SHARE of the
    // best member's figure: computed figures carry the winner's curse (worst in small studies),
    // and curation checked what the study contains (the Alzheimer's headline keeps APOE ε4).
    const best = power.get(members[0])!;
    const curated = members.find((t) => t.featured && power.get(t)! >= CURATED_POWER_SHARE * best && best > 0);
    if (curated) {
      members.splice(members.indexOf(curated), 1);
      members.unshift(curated);
    }
    const headline = members[0];
    if (members.length > 1) multi++;
    for (const t of members) {
      t.group = { code: headline.code, name: headline.name, size: members.length, headline: t === headline };
    }
  }
  const largest = [...byKey.values()]
    .sort((a, b) => b.length - a.length)
    .slice(0, 10)
    .map((m): [string, number] => [m[0].name, m.length]);
  return { groups: byKey.size, multi, largest };
}
