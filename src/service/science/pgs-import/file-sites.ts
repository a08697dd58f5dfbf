/**
 * A person's stored VCF read again for the sites a position-only score asks for. The VCF
 * parser keeps only the markers the position index knows (and lines with rsIDs), so a
 * whole-genome VCF without rsIDs (ID `.`, the usual sequencing delivery) holds most of a
 * genome-wide score's positions although its parsed genotype does not: this reads them
 * from the file itself. One pass over the file (plain, gzipped, BGZF, zip or tar.gz, with
 * the parser's own container and line stages), on bytes: only the lines at a wanted site
 * become strings. It runs where the import runs, in an engine worker
 * (processing/import-job.ts), never on the service's event loop.
 *
 * Each record at a wanted site becomes a call of single bases — a multi-allelic record is
 * read allele by allele (REF `T`, ALT `C,G`, `1/2` → `CG`), a called indel or symbolic
 * allele is no SNP call — with the set of letters the record names (REF and its ALTs), so
 * the score's alleles are checked against the record and not only against the call.
 */
import { ALLELE_FROM_BYTE, ALLELE_T, alleleFromLetter, makeCall } from '../../genotype/encoding.js';
import type { IndexedBuild } from '../../genotype/positions.js';
import { isZip, route, type ContainerContext } from '../../genotype/parse/containers.js';
import { LineSplitter, type LineSink } from '../../genotype/parse/lines.js';
import { parseChrom, parseUint } from '../../genotype/parse/fields.js';
import { openFileSource, readRange } from '../../genotype/parse/source.js';
import { TextDecoderStage } from '../../genotype/parse/text.js';
import { MAX_LINE_BYTES } from '../../genotype/parse/textparser.js';
import { chooseMember, listZip, zipMember } from '../../genotype/parse/zip.js';
import { DEFAULT_MAX_DECOMPRESSED_BYTES } from '../../genotype/parse/index.js';
import { matchAtGenotypeSite, siteKey, siteOfKey, type GenotypeSiteMatch } from './genotype-sites.js';
import { FILE_SITE_ID_BASE } from '../../../shared/marker-ids.js';

export interface FileSites {
  build: IndexedBuild;
  /** Per record read at a wanted site: its marker id (the line's rsID, else firstId + i), its call, and its letters. */
  rsids: Uint32Array;
  calls: Uint8Array;
  chroms: Uint8Array;
  positions: Uint32Array;
  /** Allele codes the record names (REF and every ALT of single bases) as bits 1 << code. */
  letters: Uint8Array;
  /** The records at each wanted site (key: siteKey(chrom, pos)). */
  rowsAt: Map<number, number[]>;
  /** Chromosomes the file has records for (a variants-only file says nothing of the others). */
  chromosomes: Set<number>;
  /** Wanted sites inside a gVCF reference block (past its first base), when blocks were looked for. */
  inReferenceBlock: Set<number>;
  /** Data lines read. */
  lines: number;
}

const TAB = 0x09;
const HASH = 0x23;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Reads the records at `wanted` sites (siteKey(chrom, pos) in the file's build `build`) from
 * the stored file at `path`; record i (ascending by chromosome and position) without an rsID
 * gets the id firstId + i. Throws an Error saying what was wrong when the file cannot be
 * read (gone, damaged, not a VCF).
 */
export async function readFileSites(
  path: string,
  build: IndexedBuild,
  wanted: Set<number>,
  firstId = FILE_SITE_ID_BASE,
  referenceBlocks = false,
): Promise<FileSites> {
  let src;
  try {
    src = await openFileSource(path);
  } catch (err) {
    throw new Error("The person's genotype file could not be opened again to read the score's positions from it.", {
      cause: err,
    });
  }
  const reader = new SiteReader(wanted, referenceBlocks);
  try {
    const text = new TextDecoderStage(new LineSplitter(reader, MAX_LINE_BYTES));
    const ctx: ContainerContext = {
      layers: [],
      maxDecompressedBytes: DEFAULT_MAX_DECOMPRESSED_BYTES,
      decompressed: 0,
      notes: [],
    };
    const head = await src.read(0, 4);
    if (isZip(head)) await route(zipMember(src, chooseMember(await listZip(src)), ctx), ctx, 1, text);
    else await route(readRange(src, 0, src.size), ctx, 0, text);
  } catch (err) {
    throw new Error(
      `The person's genotype file could not be read again for the score's positions (${(err as Error).message}).`,
      { cause: err },
    );
  } finally {
    await src.close().catch(() => undefined);
  }
  if (!reader.sawColumns)
    throw new Error(
      "The person's genotype file has no #CHROM line: it is not a VCF, so the score's positions cannot be read from it.",
    );
  return reader.result(build, firstId);
}

interface FileRecord {
  chrom: number;
  pos: number;
  rsid: number;
  call: number;
  letters: number;
}

/**
 * The line sink of the read: a wanted site's line is split into fields, every other line
 * only has its chromosome and position read.
 */
class SiteReader implements LineSink {
  sawColumns = false;
  private records: FileRecord[] = [];
  /** 1 for each chromosome code with a record (a byte per code: set on every line). */
  private chromosomes = new Uint8Array(256);
  private lineCount = 0;
  private readonly decoder = new TextDecoder('latin1');

  /** The wanted positions per chromosome code: positions fit a small integer, so a lookup allocates nothing. */
  private readonly wantedAt: Array<Set<number> | undefined> = [];
  /** The same positions sorted, for the ranges of gVCF reference blocks (only when blocks are looked for). */
  private readonly sortedAt: Array<Uint32Array | undefined> = [];
  private readonly inBlock = new Set<number>();

  constructor(
    wanted: Set<number>,
    private readonly referenceBlocks: boolean,
  ) {
    for (const key of wanted) {
      const [chrom, pos] = siteOfKey(key);
      (this.wantedAt[chrom] ??= new Set()).add(pos);
    }
    if (referenceBlocks)
      this.wantedAt.forEach((set, chrom) => {
        if (set) this.sortedAt[chrom] = Uint32Array.from(set).sort();
      });
  }

  lines(buf: Uint8Array, start: number, end: number): void {
    let s = start;
    while (s < end) {
      let e = buf.indexOf(LF, s);
      if (e < 0 || e > end) e = end;
      const next = e + 1;
      if (e > s && buf[e - 1] === CR) e--;
      this.line(buf, s, e);
      s = next;
    }
  }

  line(buf: Uint8Array, start: number, end: number): void {
    if (end <= start) return;
    if (buf[start] === HASH) {
      // "#CHROM": the column header of a VCF.
      if (end - start > 6 && buf[start + 1] === 0x43 && buf[start + 2] === 0x48) this.sawColumns = true;
      return;
    }
    this.lineCount++;
    const t1 = buf.indexOf(TAB, start);
    if (t1 < 0 || t1 >= end) return;
    const t2 = buf.indexOf(TAB, t1 + 1);
    if (t2 < 0 || t2 >= end) return;
    const chrom = parseChrom(buf, start, t1);
    const pos = parseUint(buf, t1 + 1, t2);
    if (chrom <= 0 || pos <= 0) return;
    this.chromosomes[chrom] = 1;
    if (this.referenceBlocks && this.sortedAt[chrom]) this.blockAt(buf, t2, end, chrom, pos);
    if (this.wantedAt[chrom]?.has(pos) !== true) return;
    const record = parseRecord(this.decoder.decode(buf.subarray(start, end)), chrom, pos);
    if (record) this.records.push(record);
  }

  /**
   * A gVCF reference block (ALT only `<NON_REF>` or `<*>`, INFO `END=`) from `pos` to END:
   * the wanted sites past its first base (the first is read as a record) are REF/REF, with
   * a REF the block does not give.
   */
  private blockAt(buf: Uint8Array, t2: number, end: number, chrom: number, pos: number): void {
    // Fields 3-8 (ID REF ALT QUAL FILTER INFO) as text, for the few lines whose ALT is symbolic.
    const t3 = buf.indexOf(TAB, t2 + 1);
    const t4 = t3 < 0 || t3 >= end ? -1 : buf.indexOf(TAB, t3 + 1);
    if (t4 < 0 || t4 >= end || buf[t4 + 1] !== 0x3c) return; // ALT does not start with "<"
    const fields = this.decoder.decode(buf.subarray(t4 + 1, end)).split('\t');
    if (fields[0] !== '<NON_REF>' && fields[0] !== '<*>') return;
    const m = /(?:^|;)END=(\d+)/.exec(fields[3] ?? '');
    if (!m) return;
    const last = Number(m[1]);
    const sorted = this.sortedAt[chrom]!;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] <= pos) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < sorted.length && sorted[i] <= last; i++) this.inBlock.add(siteKey(chrom, sorted[i]));
  }

  longLine(): void {
    // A line over 1 MiB is no record of a site a score names (the parser skips it too).
  }

  result(build: IndexedBuild, firstId: number): FileSites {
    const records = this.records.sort((a, b) => a.chrom - b.chrom || a.pos - b.pos);
    const n = records.length;
    const sites: FileSites = {
      build,
      rsids: new Uint32Array(n),
      calls: new Uint8Array(n),
      chroms: new Uint8Array(n),
      positions: new Uint32Array(n),
      letters: new Uint8Array(n),
      rowsAt: new Map(),
      chromosomes: new Set([...this.chromosomes.keys()].filter((c) => this.chromosomes[c] === 1)),
      inReferenceBlock: this.inBlock,
      lines: this.lineCount,
    };
    records.forEach((r, i) => {
      sites.rsids[i] = r.rsid > 0 ? r.rsid : firstId + i;
      sites.calls[i] = r.call;
      sites.chroms[i] = r.chrom;
      sites.positions[i] = r.pos;
      sites.letters[i] = r.letters;
      const key = siteKey(r.chrom, r.pos);
      const list = sites.rowsAt.get(key);
      if (list) list.push(i);
      else sites.rowsAt.set(key, [i]);
    });
    return sites;
  }
}

/** Allele code of a single-base allele (A, C, G, T), else 0 (indels, symbolic alleles, `*`). */
function base(allele: string): number {
  const code = allele.length === 1 ? ALLELE_FROM_BYTE[allele.charCodeAt(0)] : 0;
  return code <= ALLELE_T ? code : 0;
}

/**
 * A VCF record's first-sample call at a wanted site: null for a line too short to be one.
 * A no-call, or a called allele that is not a single base (indel, symbolic), gives call 0.
 */
function parseRecord(line: string, chrom: number, pos: number): FileRecord | null {
  const f = line.split('\t');
  if (f.length < 10) return null;
  const id = /^rs(\d+)$/i.exec(f[2].split(';')[0]);
  const alleles = [f[3], ...(f[4] === '.' ? [] : f[4].split(','))].map((a) => a.toUpperCase());
  let letters = 0;
  for (const a of alleles) {
    const code = base(a);
    if (code > 0) letters |= 1 << code;
  }
  const gtAt = f[8].split(':').indexOf('GT');
  const gt = gtAt < 0 ? '' : (f[9].split(':')[gtAt] ?? '');
  const codes = gt.split(/[/|]/).map((k) => (/^\d+$/.test(k) ? base(alleles[Number(k)] ?? '') : 0));
  const called = gt !== '' && codes.length <= 2 && codes.every((c) => c > 0);
  return {
    chrom,
    pos,
    rsid: id ? Number(id[1]) : 0,
    call: called ? makeCall(codes[0], codes[1] ?? 0) : 0,
    letters,
  };
}

/** How a VCF's unlisted sites were read (ParseSummary.site_reading; as_listed when not recorded). */
export type SiteReading = 'as_listed' | 'variants_only' | 'reference_blocks';

/**
 * The record of the person's file at (chrom, pos) whose letters are the score's alleles, on
 * either strand, matched as in the parsed genotype (genotype-sites.ts). A record naming
 * other letters (another variant at that position) is not used. A site the file does not
 * list is homozygous for the reference allele under the variants-only reading (on a
 * chromosome the file has records for) and inside a gVCF reference block: but a score's
 * letters do not say which of them is the reference, and a site no marker of Traitscope's
 * has no known REF, so it is left out with that reason. Under those readings a site the file
 * lists is left out too: it is listed where the person carries a variant (or, in a gVCF,
 * where a block happens to begin), so reading the listed ones alone would count the
 * variants and miss the reference calls.
 */
export function matchAtFileSite(
  sites: FileSites,
  reading: SiteReading,
  chrom: number,
  pos: number,
  effect: string,
  other: string,
): GenotypeSiteMatch {
  const key = siteKey(chrom, pos);
  const rows = sites.rowsAt.get(key);
  // A listed site of such a file is one-sided: there only where the person carries a variant.
  if (rows && reading !== 'as_listed') return { found: false, reason: 'listed_reference_unknown' };
  if (!rows) {
    const reference =
      reading === 'variants_only'
        ? sites.chromosomes.has(chrom)
        : reading === 'reference_blocks' && sites.inReferenceBlock.has(key);
    return { found: false, reason: reference ? 'unlisted_reference_unknown' : 'position_not_in_genotype' };
  }
  const usable = rows.filter((row) => namesAlleles(sites.letters[row], effect, other));
  if (usable.length === 0) return { found: false, reason: 'alleles_differ_from_genotype' };
  return matchAtGenotypeSite(
    { build: sites.build, rsids: sites.rsids, calls: sites.calls, rowsAt: new Map([[key, usable]]) },
    chrom,
    pos,
    effect,
    other,
  );
}

/**
 * The record's letters (bits of allele codes) hold the score's effect and other letters, on
 * one strand. A record with REF only (ALT `.`, a site read as the reference) names one letter:
 * the score's effect or other letter must be it.
 */
function namesAlleles(letters: number, effect: string, other: string): boolean {
  const has = (letter: string) => letter !== '' && (letters & (1 << alleleFromLetter(letter))) !== 0;
  const single = (letters & (letters - 1)) === 0;
  const comp = (letter: string) => COMPLEMENT_LETTER[letter] ?? '';
  if (single) return has(effect) || has(other) || has(comp(effect)) || has(comp(other));
  return (has(effect) && (other === '' || has(other))) || (has(comp(effect)) && (other === '' || has(comp(other))));
}

const COMPLEMENT_LETTER: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };
