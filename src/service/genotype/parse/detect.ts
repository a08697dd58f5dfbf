/**
 * Decides what kind of genotype text a file holds, from its first lines: VCF or a
 * tabular vendor export, which vendor, where the columns are, and any build the header
 * names. Works on a bounded sample of lines as strings; the data lines themselves are
 * parsed later on bytes.
 */
import { buildFromHeader, type Build } from './build.js';
import { fail } from './errors.js';
import { inferLayout, layoutFromHeader, type TableLayout } from './layout.js';
import { refuseNonGenotypeHeader } from './nongenome.js';
import { MAX_FIELDS } from './tokenize.js';
import { VENDOR_NAMES } from '../../../shared/vendors.js';
import { detectVendor } from './vendors.js';

export interface Detection {
  kind: 'table' | 'vcf';
  format: string;
  vendor: string;
  layout: TableLayout | null;
  headerBuild: Build | null;
  /** A gVCF: the header declares the <NON_REF> allele of reference blocks (VCF only). */
  gvcf: boolean;
  /**
   * The header declares INFO's END: a record with no ALT (".") may be a reference block
   * over POS–END, as Illumina's Strelka and Isaac gVCFs write them (VCF only).
   */
  endDeclared: boolean;
  /** The sequencing service or variant caller named in a VCF header, for the notes; null when none. */
  sequencingSource: string | null;
  /** A VCF's sample names, and which of them is read (0: the first). */
  samples: string[];
  sampleColumn: number;
  /** Lines at the start of the file that are preamble, not data (Illumina [Header] block). */
  preambleLines: number;
  notes: string[];
}

/** The last VCF sample a line is split far enough to read (tokenize.ts MAX_FIELDS, less the nine fixed columns). */
const MAX_VCF_SAMPLE_COLUMN = MAX_FIELDS - 10;

/** A VCF's sample names as the notes list them: the first four, quoted. */
function sampleNames(samples: string[]): string {
  return (
    samples
      .slice(0, 4)
      .map((n) => `"${n}"`)
      .join(', ') + (samples.length > 4 ? ', …' : '')
  );
}

/** The refusal of a sample a VCF does not have (here, and by the API when the file's samples are known). */
export function unknownSampleText(name: string, samples: string[]): string {
  return `This VCF file has no sample named "${name}": its ${samples.length === 1 ? 'sample is' : `${samples.length} samples are`} ${sampleNames(samples)}. Choose one of them.`;
}

/** `vcfSample`: the sample of a VCF of several people to read, by name (default: the first). */
export function detect(lines: string[], vcfSample?: string): Detection {
  const notes: string[] = [];
  const firstContent = lines.findIndex((l) => l.trim().length > 0);
  if (firstContent < 0) noGenotypes();

  // VCF: a ##fileformat=VCF line or a #CHROM header.
  const chromLine = lines.find((l) => /^#CHROM\b/i.test(l));
  if (/^##fileformat=vcf/i.test(lines[firstContent]) || chromLine) {
    if (!chromLine)
      fail(
        'This VCF file has no "#CHROM" column header line, so its sample columns cannot be found. Export the VCF again with its full header.',
      );
    const cols = chromLine.split('\t');
    const samples = cols.slice(9).filter((c) => c.length > 0);
    if (samples.length === 0)
      fail(
        "This VCF file has no sample column, so it holds no one's genotypes (it lists sites only). Export a VCF that includes your sample.",
      );
    const sampleColumn = vcfSample === undefined ? 0 : samples.indexOf(vcfSample);
    const names = sampleNames(samples);
    if (sampleColumn < 0) fail(unknownSampleText(vcfSample!, samples));
    if (sampleColumn > MAX_VCF_SAMPLE_COLUMN)
      fail(
        `"${vcfSample}" is sample ${sampleColumn + 1} of this VCF; Traitscope reads one of its first ${MAX_VCF_SAMPLE_COLUMN + 1}. ` +
          `Extract that sample (bcftools view -s "${vcfSample}" your-file.vcf.gz -Oz -o one-sample.vcf.gz) and upload that.`,
      );
    if (samples.length > 1)
      notes.push(
        vcfSample === undefined
          ? `The VCF file holds ${samples.length} samples (${names}); the first sample, "${samples[0]}", was read, and the results are that person's. ` +
              'If they are someone else’s, choose the profile’s sample (or extract it: bcftools view -s NAME your-file.vcf.gz -Oz -o one-sample.vcf.gz).'
          : `The VCF file holds ${samples.length} samples (${names}); "${samples[sampleColumn]}" was read, as chosen.`,
      );
    const header = lines.filter((l) => l.startsWith('##')).join('\n');
    return {
      kind: 'vcf',
      format: 'vcf',
      vendor: vcfVendor(header),
      layout: null,
      headerBuild: buildFromHeader(header),
      gvcf: /^##(ALT=<ID=NON_REF\b|GVCFBlock)/im.test(header),
      endDeclared: /^##INFO=<ID=END,/im.test(header),
      sequencingSource: sequencingSource(header),
      samples,
      sampleColumn,
      preambleLines: 0,
      notes,
    };
  }

  // Illumina report ([Header] ... [Data]): the line after [Data] is the column header.
  let preambleLines = 0;
  if (/^\s*\[header\]/i.test(lines[firstContent])) {
    const dataAt = lines.findIndex((l) => /^\s*\[data\]/i.test(l));
    if (dataAt >= 0) preambleLines = dataAt + 1;
  }

  const comments: string[] = [];
  let firstData = -1;
  for (let i = preambleLines; i < lines.length; i++) {
    const l = lines[i];
    if (l.trim().length === 0) continue;
    if (l.startsWith('#')) {
      comments.push(l);
      continue;
    }
    firstData = i;
    break;
  }
  const preamble = lines.slice(0, preambleLines).join('\n');
  const headerText = preamble + '\n' + comments.join('\n');
  const firstLine = firstData >= 0 ? lines[firstData] : '';
  refuseNonGenotypeHeader(comments, firstLine);

  // A column header: the first non-comment line, or else the last comment line (23andMe's "# rsid chromosome ...").
  let layout: TableLayout | null = null;
  let columnsLine = '';
  if (firstData >= 0) {
    layout = layoutFromHeader(firstLine);
    if (layout) columnsLine = firstLine;
  }
  if (!layout && comments.length > 0) {
    const last = comments[comments.length - 1];
    layout = layoutFromHeader(last, true);
    if (layout) columnsLine = last;
  }
  const dataLines = lines.slice(Math.max(firstData, 0)).filter((l) => l.trim().length > 0 && !l.startsWith('#'));
  if (!layout) {
    // A first line that names an rsID column but whose other columns are not recognised
    // (e.g. "génotype" in latin-1) is still a header: infer columns from the lines below it.
    const headerLike = firstData >= 0 && looksLikeHeader(firstLine);
    layout = inferLayout((headerLike ? dataLines.slice(1) : dataLines).slice(0, 200));
    if (!layout) noGenotypes();
    if (headerLike)
      layout.headerFirstCell = firstLine
        .split(/[\s,;"']+/)
        .filter((c) => c.length > 0)[0]
        .toLowerCase();
  }
  if (layout.note) notes.push(layout.note);

  const vendor =
    detectVendor(headerText + '\n' + firstLine, columnsLine) ??
    // PLINK transposed text: chromosome, rsID, cM, position, alleles.
    (layout.rsid === 1 && layout.chrom === 0
      ? { format: 'plink', vendor: VENDOR_NAMES.plink }
      : { format: 'generic', vendor: VENDOR_NAMES.generic });
  return {
    kind: 'table',
    format: vendor.format,
    vendor: vendor.vendor,
    layout,
    headerBuild: buildFromHeader(headerText),
    gvcf: false,
    endDeclared: false,
    sequencingSource: null,
    samples: [],
    sampleColumn: 0,
    preambleLines,
    notes,
  };
}

/** Whole-genome services and callers whose VCFs list variants only (the contents decide; this names them). */
function sequencingSource(header: string): string | null {
  if (/nebula/i.test(header)) return 'Nebula Genomics';
  if (/dante/i.test(header)) return 'Dante Labs';
  if (/HaplotypeCaller/.test(header)) return 'GATK HaplotypeCaller';
  if (/DeepVariant/i.test(header)) return 'DeepVariant';
  if (/DRAGEN/i.test(header)) return 'Illumina DRAGEN';
  return null;
}

function vcfVendor(header: string): string {
  const v = detectVendor(header, '');
  return v ? v.vendor : VENDOR_NAMES.generic;
}

export function noGenotypes(): never {
  fail(
    'No genotype lines found: expected rsid, chromosome, position and genotype columns. ' +
      'Is this the raw data download from your testing company?',
  );
}

function looksLikeHeader(line: string): boolean {
  const first = line.split(/[\s,;"']+/).filter((c) => c.length > 0)[0] ?? '';
  return /^(rsid|rs|snp|snpid|snpname|name|id|marker|markername|rsnumber)$/i.test(first.replace(/[^a-z0-9]/gi, ''));
}
