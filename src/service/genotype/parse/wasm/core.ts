/**
 * The WebAssembly core (core.c) and the memory it works in: lookup tables, an input
 * window for text, and the growing array of 12-byte marker records (rsID, position,
 * call << 8 | chromosome) that the collector fills and finish() sorts.
 *
 * One core per parse, reused by the next parse on the same thread once the previous one
 * has finished (its memory is already mapped): a wasm memory cannot shrink, and the
 * finished genotype is copied out into ordinary typed arrays, so nothing outlives it.
 */
import { ALLELE_FROM_BYTE } from '../../encoding.js';
import { callFromPair, callFromSingle, parseChrom } from '../fields.js';
import type { SexEvidence } from '../sex.js';
import { SEP_ANY } from '../tokenize.js';
import type { Genotype } from '../../types.js';
import { CORE_WASM_BASE64 } from './core-wasm.js';

/** What a parse collected: the sorted, deduplicated genotype and what deduplication found. */
export interface Collected {
  genotype: Genotype;
  /**
   * Extra occurrences of an rsID, rsIDs whose called occurrences disagree, and records read
   * into the call of their site's first record (a multi-allelic site written one ALT a line:
   * split-sites.ts), which are neither.
   */
  duplicates: number;
  conflicting: number;
  merged: number;
  /** Kept markers without a call, and the sex evidence (sex.ts) of the kept markers. */
  noCalls: number;
  sex: SexEvidence;
}

interface Exports {
  parse_lines: (
    tables: number,
    buf: number,
    start: number,
    end: number,
    mode: number,
    skipInternal: number,
    rec: number,
    cap: number,
    stats: number,
  ) => number;
  parse_vcf_lines: (
    tables: number,
    buf: number,
    start: number,
    end: number,
    rec: number,
    cap: number,
    state: number,
  ) => number;
  finish: (a: number, b: number, n: number, counts: number, stats: number) => number;
  __heap_base: WebAssembly.Global;
}

const PAGE = 65536;
/** Bytes of text the core parses per call; the TypeScript side cuts text at line ends to fit. */
export const INPUT_BYTES = 1 << 20;
const TABLES_BYTES = 256 + 256 + 256 + 65536 + 2 * 256 + 2 * 65536 + 256;
const BASE_TABLE_AT = TABLES_BYTES - 256;
/** core.c's vcf_state_t: counters (words 0-7), settings from byte 32, last keys at 64, chromosomes seen at 80, site entries at 112. */
const VCF_STATE_BYTES = 120;
const VCF_CHROM_SEEN_AT = 80;
const VCF_ENTRY_AT = 112;
/** Site entries (core.c's ENTRY_WORDS words each) the VCF loop may write per call: a 1 MiB window holds far fewer records at markers. */
const VCF_ENTRY_CAP = 4096;
export const VCF_ENTRY_WORDS = 3;
const VCF_ENTRIES_BYTES = VCF_ENTRY_CAP * VCF_ENTRY_WORDS * 4;
/** What parse_vcf_lines counted in its last call: word offsets into vcf_state_t. */
export const VCF_RECORDS = 0;
export const VCF_LINES = 1;
export const VCF_SITES = 2;
export const VCF_UNUSED = 3;
export const VCF_HOM_REF = 4;
export const VCF_VARIANT = 5;
export const VCF_NON_RS = 6;
export const VCF_ENTRIES = 7;
const POS_SCALE = 2 ** 32;
const STATS_BYTES = 64;
/** core.c's sort: LSD histograms (TOP_AT words), TOP_RADIX bucket bounds, the rsIDs' top-16-bit histogram. */
const COUNTS_BYTES = (4 * 2048 + 2048 + 65536) * 4;
export const RECORD_WORDS = 3;
export const RECORD_BYTES = RECORD_WORDS * 4;

let compiled: WebAssembly.Module | null = null;
let tableBytes: Uint8Array | null = null;
let idle: ParseCore | null = null;
let sortWarmed = false;

/** A parse growing past this many records warms the sort first (warmSort): a large file's. */
const WARM_SORT_FROM = 1 << 19;
/** Records of the warm-up sort: above core.c's BUCKETED_FROM (65,536), so the large-input sort runs. */
const WARM_SORT_RECORDS = 70_000;

/**
 * V8 runs a new WebAssembly module's functions in its baseline tier until they have run
 * long enough to be optimized, and finish() runs once per parse: a thread's first large file
 * (and so every file of a process started for one, engine-process.ts) would be sorted wholly
 * in the baseline tier, about twice as slowly. So, once per thread, when a parse grows past
 * WARM_SORT_FROM records, generated records are sorted in an instance of their own (the
 * module's code, optimized or not, is shared by its instances): the sort is optimized, in
 * the background, long before the file's own sort runs. Small files never pay for it.
 */
function warmSort(module: WebAssembly.Module): void {
  sortWarmed = true;
  const n = WARM_SORT_RECORDS;
  // The stack's pages (core.c's __heap_base is after them), the counters and two copies of the records.
  const memory = new WebAssembly.Memory({ initial: 32 + Math.ceil((COUNTS_BYTES + 2 * n * RECORD_BYTES) / PAGE) });
  const x = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Exports;
  const countsAt = ((x.__heap_base.value as number) + 63) & ~63;
  const statsAt = countsAt + COUNTS_BYTES;
  const a = statsAt + STATS_BYTES;
  const b = a + n * RECORD_BYTES;
  const r = new Uint32Array(memory.buffer, a, n * RECORD_WORDS);
  for (let i = 0, j = 0; i < n; i++, j += RECORD_WORDS) {
    r[j] = Math.imul(i + 1, 2654435761) >>> 1 || 1; // scrambled, never 0
    r[j + 1] = i;
    r[j + 2] = (0x12 << 8) | 1;
  }
  x.finish(a, b, n, countsAt, statsAt);
}

/** The lookup tables of core.c's tables_t, computed by the TypeScript field parsers. */
function tables(): Uint8Array {
  if (tableBytes) return tableBytes;
  const t = new Uint8Array(TABLES_BYTES);
  const view = new DataView(t.buffer);
  const stop = SEP_ANY.slice();
  stop[0x0a] = 1;
  t.set(SEP_ANY, 0);
  t.set(stop, 256);
  const one = new Uint8Array(1);
  const two = new Uint8Array(2);
  for (let a = 0; a < 256; a++) {
    one[0] = a;
    t[512 + a] = parseChrom(one, 0, 1) & 0xff; // -1 → 0xff, read back as int8
    for (let b = 0; b < 256; b++) {
      two[0] = a;
      two[1] = b;
      t[768 + ((a << 8) | b)] = parseChrom(two, 0, 2) & 0xff;
    }
  }
  const single = 768 + 65536;
  for (let a = 0; a < 256; a++) view.setInt16(single + 2 * a, callFromSingle(a), true);
  const pair = single + 512;
  for (let a = 0; a < 256; a++)
    for (let b = 0; b < 256; b++) view.setInt16(pair + 2 * ((a << 8) | b), callFromPair(a, b), true);
  for (let a = 0; a < 256; a++) {
    const code = ALLELE_FROM_BYTE[a];
    t[BASE_TABLE_AT + a] = code >= 1 && code <= 4 ? code : 0;
  }
  tableBytes = t;
  return t;
}

/** Drops the idle core, so its memory can be reclaimed (a thread that parses once has no use for it). */
export function releaseIdleCore(): void {
  idle = null;
}

export class ParseCore {
  private readonly memory: WebAssembly.Memory;
  private readonly x: Exports;
  private readonly tablesAt: number;
  private readonly statsAt: number;
  private readonly countsAt: number;
  private readonly inputAt: number;
  private readonly vcfStateAt: number;
  private readonly vcfEntriesAt: number;
  /** Where records start: right after the input window, or after a VCF's index keys (startVcf). */
  private readonly recordsBase: number;
  private recordsAt: number;
  /** The text offsets that the input window holds, and where the loops read them (the input window, or text lent into it). */
  private windowStart = 0;
  private windowEnd = 0;
  private windowAt = 0;
  /** Text is being read into the input window (lendWindow): the memory must not grow, which would move it. */
  private lent = false;
  /** Windows parsed where they were read, without a copy (tests). */
  inPlaceWindows = 0;
  /** Records that fit before the memory must grow. */
  capacity = 0;
  /** The records, RECORD_WORDS words each; replaced whenever the memory grows. */
  records!: Uint32Array;
  private bytes!: Uint8Array;
  private words!: Uint32Array;

  /** A core for one parse: the idle one of this thread, or a new one. Call release() after. */
  static acquire(): ParseCore {
    const core = idle ?? new ParseCore();
    idle = null;
    core.lent = false;
    if (core.recordsAt !== core.recordsBase) {
      core.recordsAt = core.recordsBase;
      core.views();
    }
    return core;
  }

  release(): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- parks this core for the thread's next parse
    idle = this;
  }

  private constructor() {
    compiled ??= new WebAssembly.Module(Buffer.from(CORE_WASM_BASE64, 'base64'));
    // Room for the stack (core.c declares 2 pages), tables and input window; records grow it.
    this.memory = new WebAssembly.Memory({ initial: 32 });
    this.x = new WebAssembly.Instance(compiled, { env: { memory: this.memory } }).exports as unknown as Exports;
    let at = this.x.__heap_base.value as number;
    const take = (bytes: number) => {
      const start = (at + 63) & ~63;
      at = start + bytes;
      return start;
    };
    this.tablesAt = take(TABLES_BYTES);
    this.statsAt = take(STATS_BYTES);
    this.countsAt = take(COUNTS_BYTES);
    this.inputAt = take(INPUT_BYTES + 64);
    this.vcfStateAt = take(VCF_STATE_BYTES);
    this.vcfEntriesAt = take(VCF_ENTRIES_BYTES);
    this.recordsBase = take(0);
    this.recordsAt = this.recordsBase;
    this.grow(this.recordsAt);
    this.bytes.set(tables(), this.tablesAt);
  }

  /** Makes room for `n` records in all, growing by half at a time but never past `limit` records. */
  reserve(n: number, limit = Infinity): void {
    if (n <= this.capacity) return;
    if (!sortWarmed && n >= WARM_SORT_FROM) warmSort(compiled!);
    const want = Math.min(Math.max(n, Math.ceil(this.capacity * 1.5), 1 << 14), Math.max(n, limit));
    this.grow(this.recordsAt + want * RECORD_BYTES);
  }

  /** Bytes of the core's memory: tables, input window and records (and, while finishing, the sort's copy). */
  get memoryBytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Bytes a core takes before any record: stack, tables, statistics, sort counters, input window. */
  static fixedBytes(): number {
    return (
      64 * PAGE + TABLES_BYTES + STATS_BYTES + COUNTS_BYTES + INPUT_BYTES + VCF_STATE_BYTES + VCF_ENTRIES_BYTES + 7 * 64
    );
  }

  /** Grows the memory to at least `bytes` and remakes the views (growing detaches the old ones). */
  private grow(bytes: number): void {
    const pages = Math.ceil(bytes / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) {
      if (this.lent) throw new Error('The parser needed more memory while reading text into its input window.');
      this.memory.grow(pages);
    }
    this.views();
  }

  private views(): void {
    const buf = this.memory.buffer;
    this.bytes = new Uint8Array(buf);
    this.words = new Uint32Array(buf);
    this.capacity = Math.floor((buf.byteLength - this.recordsAt) / (RECORD_WORDS * 4));
    this.records = new Uint32Array(buf, this.recordsAt, this.capacity * RECORD_WORDS);
  }

  /**
   * The first `bytes` of the input window, for text read straight into it (source.ts
   * ReadLender): load() then parses it where it is. Until endLending(), the memory must not
   * grow (growing detaches the view): the caller reserves the records first.
   */
  lendWindow(bytes: number): Uint8Array {
    this.lent = true;
    return this.bytes.subarray(this.inputAt, this.inputAt + Math.min(bytes, INPUT_BYTES));
  }

  endLending(): void {
    this.lent = false;
  }

  /**
   * Readies text[start, end) (whole lines, at most INPUT_BYTES) for the loops: parsed where
   * it is when it was lent into the input window, else copied there.
   */
  load(text: Uint8Array, start: number, end: number): void {
    this.windowStart = start;
    this.windowEnd = end;
    if (text.buffer === this.bytes.buffer && text.byteOffset >= this.inputAt) {
      // Lent text ends within the window, whose padding the loops' 16-byte loads may read; the
      // lines end with a line feed, so no scan runs past it.
      if (text[end - 1] !== 0x0a) throw new Error('Text lent to the parser must be cut at a line end.');
      this.windowAt = text.byteOffset + start;
      this.inPlaceWindows++;
      return;
    }
    this.windowAt = this.inputAt;
    this.bytes.set(text.subarray(start, end), this.inputAt);
    this.bytes[this.inputAt + (end - start)] = 0x0a; // a sentinel: no scan runs past the window
  }

  /**
   * Parses the loaded text from offset `from` (a line start) with the line loop, writing
   * records from record `at` on, up to `limit` records (at most the capacity). Returns where it stopped, as an
   * offset into the text; `written` and `internalIds` tell what it did.
   */
  parse(from: number, mode: number, skipInternal: boolean, at: number, limit = this.capacity): number {
    const stop = this.x.parse_lines(
      this.tablesAt,
      this.windowAt,
      from - this.windowStart,
      this.windowEnd - this.windowStart,
      mode,
      skipInternal ? 1 : 0,
      this.recordsAt + at * RECORD_WORDS * 4,
      Math.min(limit, this.capacity) - at,
      this.statsAt,
    );
    return stop + this.windowStart;
  }

  /**
   * Readies the VCF loop for a new file: `withSites`, lines are also read as sites with the
   * position index's keys (chromosome · 2³² + position, ascending, one list per build the file
   * may be in) laid out before the records; `blocksWithoutAlt`, records without ALT go to the
   * TypeScript reader, which reads those with an INFO END as reference blocks. Only before
   * any record is written.
   */
  startVcf(withSites: boolean, keyLists: readonly Float64Array[], blocksWithoutAlt = false, sampleColumn = 0): void {
    const total = keyLists.reduce((sum, k) => sum + k.length, 0);
    const keysAt = (this.recordsBase + 7) & ~7;
    this.recordsAt = (keysAt + total * 8 + 63) & ~63;
    this.grow(this.recordsAt);
    const w = this.words;
    const s = this.vcfStateAt >>> 2;
    w.fill(0, s, s + VCF_STATE_BYTES / 4);
    // Bit 0: read lines as sites; bit 1: a record without ALT may be a reference block; bits
    // 8-15: the sample column read (core.c).
    w[s + 8] = (withSites ? 1 : 0) | (withSites && blocksWithoutAlt ? 2 : 0) | (sampleColumn << 8);
    w[s + 9] = keyLists.length;
    w[s + VCF_ENTRY_AT / 4] = this.vcfEntriesAt;
    w[s + VCF_ENTRY_AT / 4 + 1] = VCF_ENTRY_CAP;
    let at = keysAt;
    keyLists.forEach((keys, b) => {
      w[s + 10 + b] = at;
      w[s + 12 + b] = keys.length;
      for (let j = 0, o = at >>> 2; j < keys.length; j++, o += 2) {
        const lo = keys[j] % POS_SCALE;
        w[o] = lo;
        w[o + 1] = (keys[j] - lo) / POS_SCALE;
      }
      at += keys.length * 8;
    });
  }

  /**
   * The VCF loop looks sites up in one build from now on: the `kept`-th of startVcf's key
   * lists, its cursor where it is (vcf_state_t's words: builds 9, keys 10-11, counts 12-13,
   * cursors 14-15, last keys 16-19). Between parseVcf calls.
   */
  keepVcfBuild(kept: number): void {
    const w = this.words;
    const s = this.vcfStateAt >>> 2;
    if (kept === 1) {
      w[s + 10] = w[s + 11];
      w[s + 12] = w[s + 13];
      w[s + 14] = w[s + 15];
      w[s + 16] = w[s + 18];
      w[s + 17] = w[s + 19];
    }
    w[s + 9] = 1;
  }

  /**
   * Parses the loaded text from offset `from` (a line start) with the VCF loop, writing
   * records from record `at` on, up to `limit` records. Returns where it stopped, as an
   * offset into the text; vcfCount() tells what it did.
   */
  parseVcf(from: number, at: number, limit = this.capacity): number {
    const stop = this.x.parse_vcf_lines(
      this.tablesAt,
      this.windowAt,
      from - this.windowStart,
      this.windowEnd - this.windowStart,
      this.recordsAt + at * RECORD_WORDS * 4,
      Math.min(limit, this.capacity) - at,
      this.vcfStateAt,
    );
    return stop + this.windowStart;
  }

  /** A count of the last parseVcf call (VCF_RECORDS, VCF_LINES, …). */
  vcfCount(which: number): number {
    return this.words[(this.vcfStateAt >>> 2) + which];
  }

  /**
   * The site entries of the last parseVcf call (vcfCount(VCF_ENTRIES) of them, VCF_ENTRY_WORDS
   * words each, core.c's layout); valid until the next call.
   */
  get vcfEntries(): Uint32Array {
    return this.words.subarray(this.vcfEntriesAt >>> 2, (this.vcfEntriesAt >>> 2) + VCF_ENTRY_CAP * VCF_ENTRY_WORDS);
  }

  /** 1 for each chromosome code the VCF loop read a site on (since startVcf). */
  get vcfChromSeen(): Uint8Array {
    return this.bytes.subarray(this.vcfStateAt + VCF_CHROM_SEEN_AT, this.vcfStateAt + VCF_STATE_BYTES);
  }

  get written(): number {
    return this.words[this.statsAt >>> 2];
  }

  get internalIds(): number {
    return this.words[(this.statsAt >>> 2) + 1];
  }

  /**
   * Sorts the first n records, applies the duplicate rule and returns the kept markers as
   * new typed arrays.
   */
  finish(n: number): Collected {
    // The sort needs room for a second copy of the records, just after the first.
    const scratch = this.recordsAt + Math.max(n, 1) * RECORD_WORDS * 4;
    const needed = scratch + Math.max(n, 1) * RECORD_WORDS * 4;
    if (needed > this.memory.buffer.byteLength) this.grow(needed);
    const base = this.x.finish(this.recordsAt, scratch, n, this.countsAt, this.statsAt);
    const buf = this.memory.buffer;
    const s = this.statsAt >>> 2;
    const m = this.words[s + 2];
    return {
      genotype: {
        rsids: new Uint32Array(buf, base, m).slice(),
        positions: new Uint32Array(buf, base + 4 * n, m).slice(),
        calls: new Uint8Array(buf, base + 8 * n, m).slice(),
        chroms: new Uint8Array(buf, base + 9 * n, m).slice(),
      },
      duplicates: this.words[s + 3],
      conflicting: this.words[s + 4],
      merged: this.words[s + 10],
      noCalls: this.words[s + 5],
      sex: {
        xCalled: this.words[s + 6],
        xHet: this.words[s + 7],
        yMarkers: this.words[s + 8],
        yCalled: this.words[s + 9],
      },
    };
  }
}
