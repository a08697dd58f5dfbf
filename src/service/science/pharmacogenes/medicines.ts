/**
 * What a drug–gene result means for medicines (resources/pharmacogenes/medicines.json): per
 * gene and phenotype, the medicines with CPIC guidance it affects, one plain sentence each
 * with the guideline's PubMed id, and the cautions that go with every result.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PharmacogeneCall } from './call.js';

export const MEDICINES_FILE = join('pharmacogenes', 'medicines.json');

interface MedicineRule {
  /** Matches a result whose phenotype (all candidates agreeing) is one of these. */
  phenotypes?: string[];
  /** For genes without a phenotype mapping: matches a called diplotype carrying one of these alleles. */
  alleles?: string[];
  medicine: string;
  text: string;
  pmid: string;
}

export interface MedicineFile {
  always: string;
  chip_caution: { text: string; pmid: string; citation: string };
  guidelines: Record<string, string>;
  genes: Record<string, MedicineRule[]>;
}

export interface MedicineNote {
  medicine: string;
  text: string;
  pmid: string;
  guideline: string;
}

export function readMedicineFile(resourcesDir: string): MedicineFile {
  const path = join(resourcesDir, MEDICINES_FILE);
  let file: MedicineFile;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as MedicineFile;
  } catch (err) {
    throw new Error(`Cannot read the medicine notes at ${path} (${(err as Error).message}).`, { cause: err });
  }
  for (const [gene, rules] of Object.entries(file.genes))
    for (const rule of rules)
      if (!file.guidelines[rule.pmid])
        throw new Error(
          `${path}: ${gene} ${rule.medicine} cites PMID ${rule.pmid}, which is not among its guidelines.`,
        );
  return file;
}

/**
 * The medicine notes for one result. Only a phenotype every candidate agrees on (or, for
 * genes without a phenotype mapping, a called diplotype) selects notes: an uncertain result
 * says nothing about medicines.
 */
export function medicinesFor(file: MedicineFile, call: PharmacogeneCall): MedicineNote[] {
  const rules = file.genes[call.gene] ?? [];
  const carried = call.status === 'called' && call.diplotype ? call.alleles_not_ruled_out : [];
  return rules
    .filter(
      (r) =>
        (call.phenotype !== null && r.phenotypes?.includes(call.phenotype)) ||
        r.alleles?.some((a) => carried.includes(a)),
    )
    .map((r) => ({ medicine: r.medicine, text: r.text, pmid: r.pmid, guideline: file.guidelines[r.pmid] }));
}
