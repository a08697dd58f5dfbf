/**
 * Where the rsID, chromosome, position and alleles sit in a tabular genotype file: from a
 * column header when the file has one, otherwise inferred from the data lines themselves.
 */
import { SEP_ANY, SEP_TAB } from './tokenize.js';

export interface TableLayout {
  /** Column indices; -1 when absent. With a2 >= 0 the alleles are split over gt and a2. */
  rsid: number;
  chrom: number;
  pos: number;
  gt: number;
  a2: number;
  /**
   * No header and rsID first: each line is read by its own field count, as the spec's
   * rules allow (CHR and POS optional, alleles combined or split).
   */
  flexible: boolean;
  sep: Uint8Array;
  /** Lowercased first cell of the column header, to recognise repeated header lines. */
  headerFirstCell: string | null;
  /** Human note on the choice (e.g. which allele strand columns were used). */
  note: string | null;
}

type Role = 'rsid' | 'snpname' | 'other' | 'chrom' | 'pos' | 'gt' | 'a1' | 'a2';

function normalise(cell: string): string {
  return cell.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const ROLE_BY_NAME: Record<string, Role> = {
  rsid: 'rsid',
  rs: 'rsid',
  rsnumber: 'rsid',
  rsids: 'rsid',
  dbsnp: 'rsid',
  dbsnpid: 'rsid',
  // Illumina's "SNP Name" beats a bare "SNP", which in Illumina reports holds "[A/G]".
  snpname: 'snpname',
  snp: 'other',
  snpid: 'other',
  marker: 'other',
  markerid: 'other',
  markername: 'other',
  name: 'other',
  id: 'other',
  variantid: 'other',
  chromosome: 'chrom',
  chr: 'chrom',
  chrom: 'chrom',
  chromosomename: 'chrom',
  position: 'pos',
  pos: 'pos',
  bp: 'pos',
  basepair: 'pos',
  basepairposition: 'pos',
  physicalposition: 'pos',
  coordinate: 'pos',
  genotype: 'gt',
  genotypes: 'gt',
  result: 'gt',
  call: 'gt',
  gt: 'gt',
  alleles: 'gt',
  allele1: 'a1',
  a1: 'a1',
  allelea: 'a1',
  allele2: 'a2',
  a2: 'a2',
  alleleb: 'a2',
};

/** Illumina allele columns by strand, best first: plus (reference) strand, forward, top. */
const STRANDED = ['plus', 'forward', 'top'];

/**
 * Maps a column-header line to a layout, or null when the line is not a header (it has
 * no rsID column, or one of its cells is itself an rsID).
 */
export function layoutFromHeader(line: string, fromComment = false): TableLayout | null {
  const text = line.replace(/^#+\s*/, '');
  const tabOnly = text.includes('\t') && /[^\t ] [^\t ]/.test(text.replace(/^\s+|\s+$/g, ''));
  const cells = (tabOnly ? text.split('\t') : text.split(/[\s,;"']+/))
    .map((c) => c.trim())
    .filter((c) => c.length > 0 || tabOnly);
  if (cells.some((c) => /^rs\d+$/i.test(c.replace(/["']/g, '')))) return null;
  const idx: Partial<Record<Role, number>> = {};
  const stranded: Record<string, { a1?: number; a2?: number }> = {};
  cells.forEach((cell, i) => {
    const n = normalise(cell);
    const role = ROLE_BY_NAME[n];
    if (role && idx[role] === undefined) idx[role] = i;
    const m = /^allele([12])(plus|forward|top|ab|design)$/.exec(n);
    if (m) {
      const s = (stranded[m[2]] ??= {});
      if (m[1] === '1') s.a1 = i;
      else s.a2 = i;
    }
  });
  const rsid = idx.rsid ?? idx.snpname ?? idx.other;
  if (rsid === undefined) return null;
  // A comment line is only a column header if it reads like one, not like prose that
  // happens to contain "name" or "chr".
  if (fromComment) {
    const named = cells.filter((c) => ROLE_BY_NAME[normalise(c)] !== undefined).length;
    if (named < 2 || named * 3 < cells.length * 2) return null;
  }
  let a1 = idx.a1;
  let a2 = idx.a2;
  let note: string | null = null;
  if (a1 === undefined || a2 === undefined) {
    for (const strand of STRANDED) {
      const s = stranded[strand];
      if (s?.a1 !== undefined && s.a2 !== undefined) {
        a1 = s.a1;
        a2 = s.a2;
        note = `Alleles were read from the "${strand}" strand columns.`;
        break;
      }
    }
  }
  let gt: number;
  let second = -1;
  if (idx.gt !== undefined) gt = idx.gt;
  else if (a1 !== undefined && a2 !== undefined) {
    gt = a1;
    second = a2;
  } else if (a1 !== undefined) gt = a1;
  else return null;
  return {
    rsid,
    chrom: idx.chrom ?? -1,
    pos: idx.pos ?? -1,
    gt,
    a2: second,
    flexible: false,
    sep: tabOnly ? SEP_TAB : SEP_ANY,
    headerFirstCell: (cells[0] ?? '').toLowerCase(),
    note,
  };
}

const RS_CELL = /^(rs|i)\d+$/i;
const CHROM_CELL = /^(chr)?([0-9]{1,2}|x|y|xy|mt|m|par)$/i;
const INT_CELL = /^\d+$/;
const ALLELE_CELL = /^[acgtdi0\-.n?]$/i;
const GENO_CELL = /^[acgtdi0\-.n?]{2}$/i;

/**
 * Infers the layout of a file without a column header from sample data lines. When the
 * rsID is the first column (the spec's shape), lines are read flexibly one by one;
 * otherwise (e.g. PLINK transposed text: chromosome, rsID, cM, position, alleles) a fixed
 * layout is chosen by majority over the sample.
 */
export function inferLayout(sample: string[]): TableLayout | null {
  const rows = sample.map((l) => l.split(/[\s,;"']+/).filter((c) => c.length > 0)).filter((r) => r.length >= 2);
  if (rows.length === 0) return null;
  const width = Math.max(...rows.map((r) => r.length));
  const votes = (col: number, re: RegExp) => rows.filter((r) => col < r.length && re.test(r[col])).length;
  let rsid = -1;
  for (let c = 0; c < width && rsid < 0; c++) if (votes(c, RS_CELL) * 2 >= rows.length) rsid = c;
  if (rsid < 0) {
    for (let c = 0; c < width && rsid < 0; c++) if (votes(c, /^rs\d+/i) > 0) rsid = c;
  }
  if (rsid < 0) return null;
  const base = { sep: SEP_ANY, headerFirstCell: null, note: null };
  if (rsid === 0) return { rsid: 0, chrom: -1, pos: -1, gt: -1, a2: -1, flexible: true, ...base };
  const majority = (c: number, re: RegExp) => votes(c, re) * 2 > rows.length;
  let gt = -1;
  let a2 = -1;
  for (let c = rsid + 1; c < width && gt < 0; c++) {
    if (majority(c, GENO_CELL)) gt = c;
    else if (majority(c, ALLELE_CELL) && majority(c + 1, ALLELE_CELL)) {
      gt = c;
      a2 = c + 1;
    }
  }
  if (gt < 0) return null;
  let chrom = -1;
  let pos = -1;
  for (let c = 0; c < gt; c++) {
    if (c === rsid) continue;
    if (chrom < 0 && majority(c, CHROM_CELL)) chrom = c;
    else if (majority(c, INT_CELL)) pos = c;
  }
  return { rsid, chrom, pos, gt, a2, flexible: false, ...base };
}
