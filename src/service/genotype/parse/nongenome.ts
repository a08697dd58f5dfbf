/**
 * Files that parse as tables of rsIDs and alleles but are not one person's genotypes:
 * GWAS summary statistics (`SNP CHR BP A1 A2 BETA SE P`), polygenic score files, variant
 * lists (PLINK .bim, `rsid chr pos ref alt`), and text that merely mentions rsIDs (source
 * code, web pages, documents). Read as genomes they would fabricate calls — every variant
 * list reads as a heterozygous call at every marker — so they are refused with a reason.
 *
 * Two checks: the column header, before any data line is read, and the content, once the
 * file has been read.
 */
import { fail } from './errors.js';

const UPLOAD_GENOME = 'Upload the raw data download from your testing company instead.';

function normalise(cell: string): string {
  return cell.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Column names only statistics and score files have. One of these is enough. */
const STATS_STRONG = new Set([
  'beta',
  'pval',
  'pvalue',
  'logp',
  'log10p',
  'mlog10p',
  'neglog10pval',
  'oddsratio',
  'zscore',
  'stderr',
  'standarderror',
  'effectallele',
  'otherallele',
  'noneffectallele',
  'effectweight',
  'effectalleleweight',
]);
/** Short or generic names: two of these make a statistics table. */
const STATS_WEAK = new Set([
  'b',
  'se',
  'p',
  'or',
  'z',
  'hr',
  'eaf',
  'af',
  'maf',
  'freq',
  'frq',
  'freq1',
  'info',
  'n',
  'ncase',
  'ncases',
  'ncontrol',
  'ncontrols',
  'neff',
  'weight',
  'weights',
  'effect',
  'tstat',
  'chisq',
  'direction',
  'hetp',
  'i2',
]);
const SCORE_NAMES = new Set(['effectweight', 'effectalleleweight', 'weight', 'weights']);
const VARIANT_ALLELES = new Set(['ref', 'alt', 'refallele', 'altallele', 'reference', 'alternate', 'alternative']);
/** Names of marker and location columns, shared by genotype and statistics tables. */
const LOCATION_NAMES = new Set([
  'rsid',
  'rs',
  'snp',
  'snpid',
  'snpname',
  'id',
  'marker',
  'markername',
  'name',
  'variantid',
  'variant',
  'hmrsid',
  'chr',
  'chrom',
  'chromosome',
  'chrname',
  'hmchr',
  'bp',
  'pos',
  'position',
  'chrposition',
  'basepairlocation',
  'hmpos',
  'cm',
  'samplesize',
  'effectallelefrequency',
  'allelefrequencyeffect',
  'ci',
  'lowerci',
  'upperci',
  'locusname',
]);
const GENOTYPE_NAMES = new Set([
  'genotype',
  'genotypes',
  'result',
  'call',
  'gt',
  'alleles',
  'allele1',
  'allele2',
  'a1',
  'a2',
  'allelea',
  'alleleb',
]);

/** Header cells, split as layout.ts does: tab-separated headers may have spaces inside cells ("B Allele Freq"). */
function cellsOf(line: string): string[] {
  const text = line.replace(/^#+\s*/, '').trim();
  return text
    .split(text.includes('\t') ? /\t+/ : /[\s,;"']+/)
    .map((c) => c.replace(/["']/g, '').trim())
    .filter((c) => c.length > 0);
}

/**
 * Refuses the file when its comments or column header show it is not a genotype file.
 * `comments` are the comment lines before the first data line, `firstLine` that line.
 */
export function refuseNonGenotypeHeader(comments: string[], firstLine: string): void {
  if (comments.some((c) => /^#+\s*(PGS CATALOG SCORING FILE|pgs_id=)/i.test(c))) {
    fail(
      "This is a PGS Catalog scoring file: it lists variants with effect weights, not a person's genotypes. " +
        `To add it as a trait, import it under Settings (or POST /api/app/traits/). ${UPLOAD_GENOME}`,
    );
  }
  const candidates = [firstLine, comments[comments.length - 1] ?? ''];
  for (const line of candidates) {
    const cells = cellsOf(line);
    if (cells.length < 3) continue;
    const names = cells.map(normalise);
    // A column header, not prose that happens to contain "or" or "effect": mostly known column names.
    const known = names.filter(
      (n) =>
        STATS_STRONG.has(n) ||
        STATS_WEAK.has(n) ||
        LOCATION_NAMES.has(n) ||
        GENOTYPE_NAMES.has(n) ||
        VARIANT_ALLELES.has(n),
    );
    if (known.length * 2 < names.length) continue;
    const strong = cells.filter((_c, i) => STATS_STRONG.has(names[i]));
    const weak = cells.filter((_c, i) => STATS_WEAK.has(names[i]));
    if (strong.length > 0 || weak.length >= 2) {
      const shown = [...strong, ...weak].slice(0, 4).join(', ');
      if (names.some((n) => SCORE_NAMES.has(n)))
        fail(
          `This is a score file: it lists variants with effect weights (columns ${shown}), not a person's genotypes. ` +
            `To add a PGS Catalog score as a trait, import it under Settings (or POST /api/app/traits/). ${UPLOAD_GENOME}`,
        );
      fail(
        `This looks like GWAS summary statistics (columns ${shown}): it lists the effects of variants in a study, not a person's genotypes. ${UPLOAD_GENOME}`,
      );
    }
    if (names.some((n) => VARIANT_ALLELES.has(n)) && !names.some((n) => GENOTYPE_NAMES.has(n))) {
      fail(
        `This is a list of variants (columns ${cells.filter((_c, i) => VARIANT_ALLELES.has(names[i])).join(', ')}) without anyone's genotype. ${UPLOAD_GENOME}`,
      );
    }
  }
}

export interface ContentFacts {
  /** Data lines read into markers (before duplicates were resolved). */
  linesRead: number;
  /** Data lines skipped, and of them those that are not genotype lines at all. */
  skipped: number;
  foreign: number;
  /** The kept markers' calls (allele1 << 4 | allele2; 0 = no call). */
  calls: Uint8Array;
}

/** Enough called markers to tell a genome's heterozygosity from a variant list's. */
const MIN_CALLS_FOR_HETEROZYGOSITY = 50;
/**
 * A person is heterozygous at a minority of array markers (about 30%) and at about 60-70%
 * of the sites of a variants-only VCF. A list of variants names two different alleles at
 * every one.
 */
const MAX_HETEROZYGOUS_SHARE = 0.95;
/** Lines that are not genotype lines at all may be up to half of a file (comment-like trailers). */
const MAX_FOREIGN_SHARE = 0.5;

/** Refuses a file whose lines or calls show it is not one person's genotypes. */
export function refuseNonGenotypeContent(f: ContentFacts): void {
  const lines = f.linesRead + f.skipped;
  if (lines >= 10 && f.foreign > lines * MAX_FOREIGN_SHARE) {
    fail(
      `Only ${f.linesRead.toLocaleString('en-US')} of ${lines.toLocaleString('en-US')} lines of this file read as genotypes; ` +
        `${f.foreign.toLocaleString('en-US')} are not genotype lines at all (it may be a document, a web page or program code that mentions rsIDs). ${UPLOAD_GENOME}`,
    );
  }
  const variantList = heterozygousNearlyEverywhere(f.calls);
  if (variantList) {
    fail(
      `Every marker in this file names two different alleles (${variantList.heterozygous.toLocaleString('en-US')} of ${variantList.diploidCalls.toLocaleString('en-US')}), ` +
        "which no person's genotype does: it looks like a list of variants (a PLINK .bim file, summary statistics or a score file), not raw genotype data. " +
        UPLOAD_GENOME,
    );
  }
}

/**
 * The two-allele calls and the heterozygous ones among them when at least
 * MAX_HETEROZYGOUS_SHARE of them are heterozygous (and there are enough), else null.
 *
 * The scan stops once the homozygous calls seen rule that out even if every call left were
 * heterozygous: a genome's do within its first tenth or so, and this runs on every file on
 * the way to its first result (a full pass over 960k calls took ~9 ms). Stopping needs a
 * margin of one call over the exact bound, so rounding can never stop it where the final
 * test would have refused.
 */
export function heterozygousNearlyEverywhere(calls: Uint8Array): { diploidCalls: number; heterozygous: number } | null {
  // At most this many homozygous calls per heterozygous one (het >= share × all ⟺ hom <= het × allowed).
  const allowed = (1 - MAX_HETEROZYGOUS_SHARE) / MAX_HETEROZYGOUS_SHARE;
  let diploidCalls = 0;
  let heterozygous = 0;
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i];
    const a2 = c & 15;
    if (a2 === 0) continue;
    diploidCalls++;
    if (c >> 4 !== a2) heterozygous++;
    else if (diploidCalls - heterozygous > (heterozygous + calls.length - 1 - i) * allowed + 1) return null;
  }
  return diploidCalls >= MIN_CALLS_FOR_HETEROZYGOSITY && heterozygous >= diploidCalls * MAX_HETEROZYGOUS_SHARE
    ? { diploidCalls, heterozygous }
    : null;
}

/** rsIDs given twice with different calls: a few are a chip's repeated probes; this many are two people. */
const MIN_CONFLICTS_FOR_TWO_PEOPLE = 100;
const MAX_CONFLICTING_SHARE = 0.02;

/** Refuses a file in which many markers are given twice with different calls (two people's data in one file). */
export function refuseTwoPeople(conflicting: number, markers: number): void {
  if (conflicting >= MIN_CONFLICTS_FOR_TWO_PEOPLE && conflicting > markers * MAX_CONFLICTING_SHARE)
    fail(
      `${conflicting.toLocaleString('en-US')} of this file's ${markers.toLocaleString('en-US')} markers appear more than once with different genotypes: ` +
        "it looks like two people's raw data in one file, and one person's genotype cannot be told from it. " +
        'Upload one raw data download, as your testing company delivered it.',
    );
}
