/**
 * Builds the shipped drug–gene table from PharmCAT's allele definitions and phenotype
 * mappings (CPIC and PharmVar data in ../shared/data/pharmcat).
 *
 *   npm run build:pharmacogenes [-- --data <dir>] [--out <resources dir>]
 *
 * Writes resources/pharmacogenes/pharmacogenes.json.gz (deterministic: same input, same
 * bytes): per gene its defining positions (GRCh38 from the definitions, GRCh37 lifted with
 * UCSC's hg38ToHg19 chain), rsIDs, ref/alts, named alleles with the base each carries at
 * every position (a null in the definitions is the reference allele's base), CPIC function
 * and activity value, diplotype → phenotype and activity score, and the versions.
 * Structural-variant alleles and alleles the exemptions tell to ignore are left out.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  PHARMACOGENE_FILE,
  PHARMACOGENE_FORMAT,
  type PharmacogeneAllele,
  type PharmacogeneDefinition,
  type PharmacogeneFile,
  type PharmacogenePhenotype,
} from '../../src/service/science/pharmacogenes/table.js';
import { liftPositions } from './chain.js';

/** The genes Traitscope reports, in the order results list them. */
export const PHARMACOGENES = [
  'CYP2C19',
  'CYP2C9',
  'VKORC1',
  'CYP4F2',
  'SLCO1B1',
  'TPMT',
  'NUDT15',
  'DPYD',
  'CYP3A5',
  'CYP3A4',
  'UGT1A1',
  'CYP2B6',
  'IFNL3',
  'ABCG2',
  'NAT2',
  'CYP2D6',
] as const;

const CYP2D6_REASON =
  'A consumer chip cannot tell CYP2D6 results: many of its alleles are deletions of the whole gene, extra copies of it, or hybrids with the neighbouring CYP2D7 gene, and a chip reads single letters, not how many copies of a gene there are. A clinical CYP2D6 test is needed.';

interface SourceVariant {
  position: number;
  rsid: string | null;
  ref: string;
  alts: string[];
}
interface SourceAllele {
  name: string;
  alleles: (string | null)[];
  reference: boolean;
  structuralVariant: boolean;
}
interface SourceDefinition {
  gene: string;
  chromosome: string;
  version: string;
  modificationDate: string;
  genomeBuild: string;
  variants: SourceVariant[];
  namedAlleles: SourceAllele[];
  suballelesMap?: Record<string, string>;
}
interface SourcePhenotype {
  version: string;
  namedAlleles: { name: string; activityValue: string | null; functionValue: string | null }[];
  diplotypes: {
    generesult: string;
    diplotype: string;
    diplotypekey: Record<string, number>;
    activityScore: string | null;
  }[];
}
interface SourceExemption {
  ignoredAlleles?: string[];
}

function readGzJson<T>(path: string): T {
  return JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as T;
}

function readOptional<T>(path: string): T | null {
  try {
    return readGzJson<T>(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export function buildPharmacogeneTable(dataDir: string): PharmacogeneFile {
  const pharmcat = join(dataDir, 'pharmcat');
  const chain = join(dataDir, 'liftover', 'hg38ToHg19.over.chain.gz');
  const exemptions = readGzJson<Record<string, SourceExemption>>(join(pharmcat, 'alleles', 'exemptions.json.gz'));
  const source = readFileSync(join(pharmcat, 'SOURCE.txt'), 'utf8').split('\n')[0].replace(/^#\s*/, '');
  const genes: PharmacogeneDefinition[] = [];
  for (const gene of PHARMACOGENES) {
    const def = readGzJson<SourceDefinition>(join(pharmcat, 'alleles', `${gene}_translation.json.gz`));
    const phen = readOptional<SourcePhenotype>(join(pharmcat, 'phenotype', `${gene}.json.gz`));
    if (!def.genomeBuild.startsWith('GRCh38'))
      throw new Error(`${gene}: definitions are on ${def.genomeBuild}, the build expects GRCh38.`);
    const chrom = Number(def.chromosome.replace(/^chr/, ''));
    if (!Number.isInteger(chrom) || chrom < 1 || chrom > 22)
      throw new Error(`${gene}: chromosome ${def.chromosome} is not an autosome; the caller reads autosomes only.`);
    const lifted = liftPositions(
      chain,
      def.chromosome,
      def.variants.map((v) => v.position),
    );
    const sites = def.variants.map((v) => {
      const l = lifted.get(v.position);
      return {
        rsid: v.rsid ? Number(v.rsid.replace(/^rs/, '')) : null,
        pos38: v.position,
        pos37: l?.pos ?? null,
        minus37: l?.minus ?? false,
        ref: v.ref,
        alts: [...v.alts],
      };
    });
    const reference = def.namedAlleles.find((a) => a.reference);
    if (!reference) throw new Error(`${gene}: no reference allele in the definitions.`);
    const ignored = new Set(exemptions[gene]?.ignoredAlleles ?? []);
    const functions = new Map((phen?.namedAlleles ?? []).map((a) => [a.name, a]));
    const subAlleles = def.suballelesMap ?? {};
    const alleles: PharmacogeneAllele[] = def.namedAlleles
      .filter((a) => !a.structuralVariant && !ignored.has(a.name))
      .map((a) => {
        const reportAs = subAlleles[a.name] ?? a.name;
        const fn = functions.get(reportAs);
        return {
          name: a.name,
          reportAs,
          bases: a.alleles.map((b, i) => b ?? reference.alleles[i] ?? def.variants[i].ref),
          reference: a.reference,
          function: fn?.functionValue ?? null,
          activity: fn?.activityValue ?? null,
        };
      });
    const order = new Map<string, number>();
    alleles.forEach((a, i) => {
      if (!order.has(a.reportAs)) order.set(a.reportAs, i);
    });
    const phenotypes: Record<string, PharmacogenePhenotype> = {};
    for (const d of phen?.diplotypes ?? []) {
      const names = Object.entries(d.diplotypekey).flatMap(([n, count]) => Array<string>(count).fill(n));
      if (names.length !== 2 || names.some((n) => !order.has(n))) continue;
      names.sort((x, y) => order.get(x)! - order.get(y)!);
      phenotypes[names.join('/')] = { diplotype: d.diplotype, phenotype: d.generesult, activityScore: d.activityScore };
    }
    genes.push({
      gene,
      chrom,
      definitionVersion: def.version,
      phenotypeVersion: phen?.version ?? null,
      modificationDate: def.modificationDate,
      sites,
      alleles,
      phenotypes,
      notDeterminableReason: gene === 'CYP2D6' ? CYP2D6_REASON : null,
    });
  }
  return { format: PHARMACOGENE_FORMAT, source, genes };
}

function main(): void {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] ? resolve(args[i + 1]) : fallback;
  };
  const dataDir = option('--data', resolve(root, '..', 'shared', 'data'));
  const outDir = option('--out', join(root, 'resources'));
  const table = buildPharmacogeneTable(dataDir);
  const out = join(outDir, PHARMACOGENE_FILE);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, gzipSync(JSON.stringify(table), { level: 9 }));
  for (const g of table.genes) {
    const unlifted = g.sites.filter((s) => s.pos37 === null).length;
    const minus = g.sites.filter((s) => s.minus37).length;
    console.log(
      `${g.gene}: ${g.sites.length} positions (${unlifted} not lifted to GRCh37, ${minus} on the other strand there), ${g.alleles.length} alleles, ${Object.keys(g.phenotypes).length} diplotype phenotypes`,
    );
  }
  console.log(`Wrote ${out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
