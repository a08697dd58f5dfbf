/**
 * The shipped drug–gene table (resources/pharmacogenes/pharmacogenes.json.gz), built by
 * scripts/pharmacogenes/build.ts from PharmCAT's allele definitions and phenotype mappings
 * (CPIC and PharmVar data, ../shared/data/pharmcat). docs/pharmacogenes.md explains it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const PHARMACOGENE_FILE = join('pharmacogenes', 'pharmacogenes.json.gz');
export const PHARMACOGENE_FORMAT = 1;

/** One defining position of a gene. Bases are on the GRCh38 forward strand, as in the definitions. */
export interface PharmacogeneSite {
  /** Numeric part of the rsID, null where the position has none. */
  rsid: number | null;
  /** 1-based GRCh38 position (the definitions' own). */
  pos38: number;
  /** 1-based GRCh37 position lifted with UCSC's hg38ToHg19 chain; null when it does not lift. */
  pos37: number | null;
  /** The GRCh37 forward strand is the GRCh38 minus strand here (bases complement). */
  minus37: boolean;
  ref: string;
  alts: string[];
}

export interface PharmacogeneAllele {
  /** The definitions' name, e.g. "*2", "c.1905+1G>A (*2A)", "rs9923231 variant (T)". */
  name: string;
  /** The name results use: a sub-allele (e.g. SLCO1B1 *45.001) reports as its allele (*45). */
  reportAs: string;
  /** The base (or IUPAC code, or indel string) this allele carries at each site; never null. */
  bases: string[];
  reference: boolean;
  /** CPIC allele function, e.g. "No function"; null where the mapping gives none. */
  function: string | null;
  activity: string | null;
}

export interface PharmacogenePhenotype {
  /** The diplotype as the phenotype mapping spells it, e.g. "*1/*2". */
  diplotype: string;
  /** The mapping's gene result, e.g. "Intermediate Metabolizer", "-1639 AG". */
  phenotype: string;
  activityScore: string | null;
}

export interface PharmacogeneDefinition {
  gene: string;
  /** Chromosome code as in the genotype encoding (1–22). */
  chrom: number;
  /** Version of the definitions (PharmCAT's CPIC/PharmVar snapshot) and of the phenotype mapping. */
  definitionVersion: string;
  phenotypeVersion: string | null;
  modificationDate: string;
  sites: PharmacogeneSite[];
  alleles: PharmacogeneAllele[];
  /** Phenotype per diplotype; the key is the two reportAs names in definition order joined by "/". */
  phenotypes: Record<string, PharmacogenePhenotype>;
  /** A deliberate exception to calling (CYP2D6): the plain-words reason it is never called. */
  notDeterminableReason: string | null;
}

export interface PharmacogeneFile {
  format: number;
  source: string;
  genes: PharmacogeneDefinition[];
}

export function readPharmacogeneFile(resourcesDir: string): PharmacogeneFile {
  const path = join(resourcesDir, PHARMACOGENE_FILE);
  let file: PharmacogeneFile;
  try {
    file = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as PharmacogeneFile;
  } catch (err) {
    throw new Error(
      `Cannot read the drug–gene table at ${path} (${(err as Error).message}). Rebuild it with: npm run build:pharmacogenes`,
      { cause: err },
    );
  }
  if (file.format !== PHARMACOGENE_FORMAT)
    throw new Error(
      `The drug–gene table at ${path} has format ${file.format}, this version reads format ${PHARMACOGENE_FORMAT}. Rebuild it with: npm run build:pharmacogenes`,
    );
  return file;
}
