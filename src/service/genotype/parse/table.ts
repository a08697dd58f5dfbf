/**
 * Parses the data lines of tabular genotype files (every vendor format except VCF) on
 * bytes, following a TableLayout. One pass per line: split into fields, then parse the
 * rsID, chromosome, position and call fields that the layout names.
 */
import type { GenotypeCollector } from './collect.js';
import {
  CALL_BAD,
  RSID_NOT_RS,
  parseChrom,
  parseCombinedCall,
  parseRsid,
  parseSplitCall,
  parseUint,
} from './fields.js';
import type { TableLayout } from './layout.js';
import {
  SKIP_BAD_ALLELES,
  SKIP_BAD_CHROMOSOME,
  SKIP_BAD_POSITION,
  SKIP_BAD_RSID,
  SKIP_MALFORMED,
  SKIP_NON_RS_ID,
  type SkipCounter,
} from './stats.js';
import { Fields, SEP_ANY } from './tokenize.js';
import { INPUT_BYTES } from './wasm/core.js';

const HASH = 0x23;
const LF = 0x0a;
const CR = 0x0d;

export interface DataLineParser {
  /** Parses one non-empty line that is not a comment. */
  line: (buf: Uint8Array, start: number, end: number) => void;
  /** Parses every line of buf[start, end), which ends just after a line feed. */
  lines: (buf: Uint8Array, start: number, end: number) => void;
}

/** Every line of buf[start, end) to `line`, one by one (the general path). */
export function eachLine(p: DataLineParser, buf: Uint8Array, start: number, end: number): void {
  for (let s = start; s < end;) {
    let nl = buf.indexOf(LF, s);
    if (nl < 0 || nl >= end) nl = end;
    let e = nl;
    if (e > s && buf[e - 1] === CR) e--;
    if (e > s) p.line(buf, s, e);
    s = nl + 1;
  }
}

/**
 * Runs the WebAssembly loop over a chunk in windows of whole lines that fit its input.
 * `loop(s)` parses from s and returns where it stopped: at the window's end, at a full
 * collector (which then grows), or at a line it does not take, which the parser's general
 * path decides (and counts, if skipped) before the loop resumes after it.
 */
export function inLoopWindows(
  p: DataLineParser,
  out: GenotypeCollector,
  buf: Uint8Array,
  start: number,
  end: number,
  shortestLine: number,
  loop: (s: number) => number,
): void {
  let s = start;
  while (s < end) {
    let e = end;
    if (e - s > INPUT_BYTES) {
      e = buf.lastIndexOf(LF, s + INPUT_BYTES - 1) + 1;
      if (e <= s) {
        // One line longer than the window (at most MAX_LINE_BYTES): the general path.
        e = buf.indexOf(LF, s) + 1;
        eachLine(p, buf, s, e);
        s = e;
        continue;
      }
    }
    out.reserve(((e - s) / shortestLine + 1) | 0);
    out.core.load(buf, s, e);
    while (s < e) {
      const stop = loop(s);
      if (stop >= e) break;
      if (out.length >= out.limit) {
        out.reserve(((e - stop) / shortestLine + 1) | 0);
        s = stop;
        continue;
      }
      let nl = buf.indexOf(LF, stop);
      if (nl < 0 || nl >= e) nl = e - 1;
      let le = nl;
      if (le > stop && buf[le - 1] === CR) le--;
      if (le > stop) p.line(buf, stop, le);
      s = nl + 1;
    }
    s = e;
  }
}

/**
 * Fast path shapes: "rs CHR POS GT" (23andMe, FTDNA, MyHeritage, LivingDNA, …),
 * "rs CHR POS A1 A2" (AncestryDNA), or either one in a headerless spec-rules file.
 */
const FAST_NONE = 0;
const FAST_COMBINED = 1;
const FAST_SPLIT = 2;
const FAST_FLEXIBLE = 3;

export class TableParser implements DataLineParser {
  private readonly f = new Fields();
  private readonly maxFields: number;
  private readonly header: Uint8Array | null;

  constructor(
    private readonly layout: TableLayout,
    private readonly out: GenotypeCollector,
    private readonly skips: SkipCounter,
  ) {
    this.maxFields = layout.flexible ? 6 : Math.max(layout.rsid, layout.chrom, layout.pos, layout.gt, layout.a2) + 1;
    this.header = layout.headerFirstCell ? new TextEncoder().encode(layout.headerFirstCell) : null;
    const standard =
      layout.sep === SEP_ANY && layout.rsid === 0 && layout.chrom === 1 && layout.pos === 2 && layout.gt === 3;
    this.fast = layout.flexible
      ? FAST_FLEXIBLE
      : !standard
        ? FAST_NONE
        : layout.a2 === 4
          ? FAST_SPLIT
          : layout.a2 < 0
            ? FAST_COMBINED
            : FAST_NONE;
    // The line loop may skip "i123" lines itself only where line() would count them as
    // non_rs_id: a fixed layout (a flexible one calls a one-field line malformed) whose
    // header does not start with such a cell.
    this.skipInternalIds = !layout.flexible && !/^i\d+$/i.test(layout.headerFirstCell ?? '');
    out.lendReadBuffer();
  }

  /** Lines of the common shapes, by the loop in wasm/core.c (same numbers as its enum). */
  private readonly fast: number;
  private readonly skipInternalIds: boolean;
  /** Markers the WebAssembly loop took (the rest came through line()). */
  loopMarkers = 0;

  /**
   * All lines of a chunk: lines of the common shapes go through the WebAssembly line
   * loop (wasm/core.c), which writes straight into the collector's records; it stops at
   * any other line, which line() decides (and counts, if skipped), and then resumes.
   */
  lines(buf: Uint8Array, start: number, end: number): void {
    const mode = this.fast;
    if (mode === FAST_NONE) return eachLine(this, buf, start, end);
    const out = this.out;
    const core = out.core;
    // The shortest line the loop takes ("rs1 1 1 A\n") is 10 bytes.
    inLoopWindows(this, out, buf, start, end, 10, (s) => {
      const stop = core.parse(s, mode, this.skipInternalIds, out.length, out.limit);
      out.length += core.written;
      this.loopMarkers += core.written;
      if (core.internalIds > 0) this.skips.add(SKIP_NON_RS_ID, core.internalIds);
      return stop;
    });
  }

  line(buf: Uint8Array, s: number, e: number): void {
    if (buf[s] === HASH) return;
    const f = this.f;
    const n = f.split(buf, s, e, this.layout.sep, this.maxFields);
    if (n === 0) return;
    if (this.layout.flexible) this.flexible(buf, n);
    else this.fixed(buf, n);
  }

  private rsidOrSkip(buf: Uint8Array, col: number, n: number): number {
    const f = this.f;
    const rs = parseRsid(buf, f.starts[col], f.ends[col]);
    if (rs >= 0) return rs;
    if (this.isRepeatedHeader(buf, f.starts[0], f.ends[0])) return -1;
    if (n <= col) this.skips.addForeign(SKIP_MALFORMED);
    else if (rs !== RSID_NOT_RS) this.skips.add(SKIP_BAD_RSID);
    // "i123", "1:752566", "GSA-…": a marker without an rsID. A word without digits: not a genotype line.
    else if (hasDigit(buf, f.starts[col], f.ends[col])) this.skips.add(SKIP_NON_RS_ID);
    else this.skips.addForeign(SKIP_NON_RS_ID);
    return -1;
  }

  private fixed(buf: Uint8Array, n: number): void {
    const L = this.layout;
    const f = this.f;
    const starts = f.starts;
    const ends = f.ends;
    if (n <= L.rsid) {
      if (!this.isRepeatedHeader(buf, starts[0], ends[0])) this.skips.addForeign(SKIP_MALFORMED);
      return;
    }
    const rs = this.rsidOrSkip(buf, L.rsid, n);
    if (rs < 0) return;
    if (n <= L.gt) {
      this.skips.add(SKIP_MALFORMED);
      return;
    }
    let chrom = 0;
    if (L.chrom >= 0) {
      if (n <= L.chrom) return this.skips.add(SKIP_MALFORMED);
      chrom = parseChrom(buf, starts[L.chrom], ends[L.chrom]);
      if (chrom < 0) return this.skips.add(SKIP_BAD_CHROMOSOME);
    }
    let pos = 0;
    if (L.pos >= 0) {
      if (n <= L.pos) return this.skips.add(SKIP_MALFORMED);
      pos = parseUint(buf, starts[L.pos], ends[L.pos]);
      if (pos < 0) return this.skips.add(SKIP_BAD_POSITION);
    }
    let call: number;
    if (L.a2 >= 0 && n > L.a2) call = parseSplitCall(buf, starts[L.gt], ends[L.gt], starts[L.a2], ends[L.a2]);
    else call = parseCombinedCall(buf, starts[L.gt], ends[L.gt]);
    if (call === CALL_BAD) return this.skips.add(SKIP_BAD_ALLELES);
    this.out.add(rs, call, chrom, pos);
  }

  /**
   * rsID first; the rest by field count (spec rules 2, 4, 5, 8):
   *   rs GT | rs A1 A2 | rs CHR GT | rs POS GT | rs CHR POS GT | rs CHR A1 A2 | rs CHR POS A1 A2 [extra]
   */
  private flexible(buf: Uint8Array, n: number): void {
    if (n < 2) {
      if (!this.isRepeatedHeader(buf, this.f.starts[0], this.f.ends[0])) this.skips.addForeign(SKIP_MALFORMED);
      return;
    }
    const rs = this.rsidOrSkip(buf, 0, n);
    if (rs < 0) return;
    const s = this.f.starts;
    const e = this.f.ends;
    let chrom = 0;
    let pos = 0;
    let call: number;
    if (n === 2) {
      call = parseCombinedCall(buf, s[1], e[1]);
    } else if (n === 3) {
      call = parseSplitCall(buf, s[1], e[1], s[2], e[2]);
      if (call === CALL_BAD) {
        const where = chromOrPos(buf, s[1], e[1]);
        if (where === LOC_BAD) return this.skips.add(SKIP_MALFORMED);
        if (where >= 0) chrom = where;
        else pos = -where - 1;
        call = parseCombinedCall(buf, s[2], e[2]);
      }
    } else {
      chrom = parseChrom(buf, s[1], e[1]);
      const p = parseUint(buf, s[2], e[2]);
      if (n === 4 && e[2] - s[2] === 1 && e[3] - s[3] === 1) {
        // rs CHR|POS A1 A2, unless it reads as rs CHR POS GT (a one-digit position and a haploid call)
        const where = chromOrPos(buf, s[1], e[1]);
        call = parseSplitCall(buf, s[2], e[2], s[3], e[3]);
        if (call !== CALL_BAD && where !== LOC_BAD) {
          this.out.add(rs, call, where >= 0 ? where : 0, where >= 0 ? 0 : -where - 1);
          return;
        }
      }
      {
        if (chrom < 0) return this.skips.add(SKIP_BAD_CHROMOSOME);
        if (p < 0) return this.skips.add(SKIP_BAD_POSITION);
        pos = p;
        if (n >= 5 && e[3] - s[3] === 1 && e[4] - s[4] === 1) call = parseSplitCall(buf, s[3], e[3], s[4], e[4]);
        else call = parseCombinedCall(buf, s[3], e[3]);
      }
    }
    if (call === CALL_BAD) return this.skips.add(SKIP_BAD_ALLELES);
    this.out.add(rs, call, chrom, pos);
  }

  private isRepeatedHeader(buf: Uint8Array, s: number, e: number): boolean {
    const h = this.header;
    if (h === null || e - s !== h.length) return false;
    for (let i = 0; i < h.length; i++) if ((buf[s + i] | 0x20) !== (h[i] | 0x20)) return false;
    return true;
  }
}

const LOC_BAD = Number.MIN_SAFE_INTEGER;

function hasDigit(buf: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (buf[i] >= 0x30 && buf[i] <= 0x39) return true;
  return false;
}

/** A lone field between rsID and alleles: a chromosome (code >= 0) or a position (-(pos+1)). */
function chromOrPos(buf: Uint8Array, s: number, e: number): number {
  const c = parseChrom(buf, s, e);
  if (c >= 0) return c;
  const p = parseUint(buf, s, e);
  return p >= 0 ? -p - 1 : LOC_BAD;
}
