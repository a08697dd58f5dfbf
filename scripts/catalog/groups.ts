/**
 * One answer per phenotype: traits that score the same phenotype (the same source trait
 * name, e.g. the 20 LDL cholesterol studies) form a group, and one of them is the
 * headline result. Rule (docs/science.md, "Phenotype groups"), first difference wins:
 *  1. curated (featured) before generated;
 *  2. higher evidence label (strong > moderate > limited > suggestive);
 *  3. more markers at genome-wide significance;
 *  4. larger sample size;
 *  5. more recent publication;
 *  6. code, alphabetically (a stable tie-break).
 */
import type { CatalogTrait } from '../../src/service/science/format.js';
import { EVIDENCE_RANK } from '../../src/service/science/evidence.js';

/** The phenotype a source trait name describes: lower case, no "[PMID …]" tags, single spaces. */
export function phenotypeKey(sourceTrait: string): string {
  return sourceTrait
    .toLowerCase()
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/[^a-z0-9()+/,.'-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function compareForHeadline(a: CatalogTrait, b: CatalogTrait): number {
  return (
    Number(b.featured) - Number(a.featured) ||
    EVIDENCE_RANK[b.evidence.label] - EVIDENCE_RANK[a.evidence.label] ||
    (b.evidence.genome_wide_markers ?? 0) - (a.evidence.genome_wide_markers ?? 0) ||
    (b.quality.sample_size ?? 0) - (a.quality.sample_size ?? 0) ||
    (b.quality.publication_year ?? 0) - (a.quality.publication_year ?? 0) ||
    a.code.localeCompare(b.code)
  );
}

/**
 * Sets `group` on every trait. `keyOf` gives a trait's phenotype key; a group's name is
 * its featured member's name when it has one, else the headline's name.
 */
export function assignGroups(
  traits: CatalogTrait[],
  keyOf: (t: CatalogTrait) => string,
): { groups: number; multi: number; largest: Array<[string, number]> } {
  const byKey = new Map<string, CatalogTrait[]>();
  for (const t of traits) {
    const k = keyOf(t);
    const list = byKey.get(k);
    if (list) list.push(t);
    else byKey.set(k, [t]);
  }
  let multi = 0;
  for (const members of byKey.values()) {
    members.sort(compareForHeadline);
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
