/**
 * Accumulates parsed markers in file order, then produces the sorted, deduplicated
 * columnar Genotype. The markers live as 12-byte records in the WebAssembly core's memory
 * (wasm/core.ts), where the line loop writes them directly and the sort runs.
 *
 * Duplicate rule: when an rsID appears more than once, the first occurrence that carries a
 * call wins; if none carries a call, the marker is stored as a no-call. Every extra
 * occurrence counts as one duplicate; occurrences whose calls disagree (ignoring allele
 * order) are also counted as conflicting. One exception: a VCF record at the same position,
 * with the same single-base REF, as the occurrence kept is another ALT of the same site
 * (a multi-allelic site written one ALT a line), and is read into its call
 * (split-sites.ts mergeSplitCalls) instead, counted as merged.
 */
import { fail } from './errors.js';
import { READ_NOW_BYTES, type ReadLender } from './source.js';
import { ParseCore, RECORD_BYTES, RECORD_WORDS, type Collected } from './wasm/core.js';

/**
 * 10 million markers. Array exports have under 2 million, whole-genome VCFs about 5
 * million; imputed VCFs (tens of millions) are refused. With this limit a parse stays
 * under 400 MiB whatever the input (see parseMemoryBound and docs/security.md).
 */
export const DEFAULT_MAX_MARKERS = 10_000_000;

/**
 * Memory a parse may hold besides the markers: read, inflate and line buffers, the detection
 * sample and its strings, the zip directory, a VCF's copy of the position index's keys
 * in the core (8 bytes a placed marker and build: at most 1.1 MiB for the 72,398 markers of the index),
 * and, once per thread, the warm-up sort's own memory (core.ts warmSort: under 4 MiB).
 */
export const PARSE_BUFFER_BYTES = 48 << 20;

/**
 * The most memory a parse can hold for `maxMarkers`: each marker is a 12-byte record, the
 * sort needs a second copy, and the finished genotype is 10 bytes a marker; the records
 * never grow past maxMarkers + 1 (the collector refuses the file instead).
 */
export function parseMemoryBound(maxMarkers = DEFAULT_MAX_MARKERS): number {
  return ParseCore.fixedBytes() + (maxMarkers + 1) * 2 * RECORD_BYTES + maxMarkers * 10 + PARSE_BUFFER_BYTES;
}

/** At most this many different lines making up a file over the marker limit: a repeated file. */
const REPEATED_AT_MOST = 1000;

export function tooManyMarkers(maxMarkers: number): never {
  fail(
    `This file has more than ${maxMarkers.toLocaleString('en-US')} genotype markers, more than Traitscope reads: ` +
      'every marker is held in memory while the file is read. Upload the raw data from a genotyping test, or a VCF ' +
      `with at most ${maxMarkers.toLocaleString('en-US')} variants (for example one chromosome set or the variants of a panel).`,
  );
}

export class GenotypeCollector {
  readonly core = ParseCore.acquire();
  /** Markers collected so far. */
  length = 0;
  private handedBack = false;

  /** Refuses the file (ParseError) rather than hold more than maxMarkers markers. */
  constructor(readonly maxMarkers = DEFAULT_MAX_MARKERS) {}

  /** The line parser is set up: plain text may be read straight into the core's input window. */
  private lending = false;

  /**
   * Lends the core's input window to readRange (source.ts), once a line parser reads the
   * text (lendReadBuffer): each piece is parsed where it was read. Every record a piece
   * could hold (a line of two bytes at least) is reserved before it is read, so the core's
   * memory does not grow, and move the piece, while the piece is parsed.
   */
  readonly reader: ReadLender = {
    lend: () => {
      if (!this.lending) return null;
      this.core.endLending();
      this.reserve(READ_NOW_BYTES / 2 + 2);
      return this.core.lendWindow(READ_NOW_BYTES);
    },
    done: () => this.core.endLending(),
  };

  /** Called by a line parser once set up (a VCF's index keys laid out): from then on only reserve() grows the core. */
  lendReadBuffer(): void {
    this.lending = true;
  }

  /** Records that may be written before reserve() must be asked (it refuses the file past maxMarkers). */
  get limit(): number {
    return Math.min(this.core.capacity, this.maxMarkers + 1);
  }

  /** `snvRef`: the allele code of a VCF SNV record's REF (0 for other lines), for the exception above. */
  add(rsid: number, call: number, chrom: number, position: number, snvRef = 0): void {
    const i = this.length;
    if (i >= this.limit) this.reserve(1);
    const r = this.core.records;
    const j = i * RECORD_WORDS;
    r[j] = rsid;
    r[j + 1] = position;
    r[j + 2] = (snvRef << 16) | (call << 8) | chrom;
    this.length = i + 1;
  }

  /**
   * Makes room for `more` markers (sized from the file, so the records rarely move), but
   * never for more than maxMarkers + 1: a file that fills that is refused.
   */
  reserve(more: number): void {
    if (this.length > this.maxMarkers) this.refuseTooMany();
    this.core.reserve(Math.min(this.length + more, this.maxMarkers + 1), this.maxMarkers + 1);
  }

  /**
   * Refuses a file with more than maxMarkers markers, saying what it is when its lines are
   * a few repeated over and over (a padded or generated file), not a genome that is too big.
   */
  refuseTooMany(): never {
    const r = this.core.records;
    const n = Math.min(this.length, this.limit);
    let same = true;
    for (let j = RECORD_WORDS; j < n * RECORD_WORDS && same; j += RECORD_WORDS)
      same = r[j] === r[0] && r[j + 1] === r[1] && r[j + 2] === r[2];
    const count = this.maxMarkers.toLocaleString('en-US');
    if (same)
      fail(
        `This file is one genotype line repeated more than ${count} times, not a genotype download (a person's raw data lists each marker once). ` +
          'Upload the raw data file from your testing company as you downloaded it.',
      );
    const distinct = new Set<string>();
    for (let j = 0; j < n * RECORD_WORDS && distinct.size <= REPEATED_AT_MOST; j += RECORD_WORDS)
      distinct.add(`${r[j]},${r[j + 1]},${r[j + 2]}`);
    if (distinct.size <= REPEATED_AT_MOST)
      fail(
        `This file repeats the same ${distinct.size.toLocaleString('en-US')} genotype lines over and over (more than ${count} lines in all), so it is not a genotype download (a person's raw data lists each marker once). ` +
          'Upload the raw data file from your testing company as you downloaded it.',
      );
    tooManyMarkers(this.maxMarkers);
  }

  /** Marker i as [rsid, snvRef << 16 | call << 8 | chrom, position] (tests). */
  at(i: number): [number, number, number] {
    const r = this.core.records;
    const j = i * RECORD_WORDS;
    return [r[j], r[j + 2], r[j + 1]];
  }

  /** Call once: sorts and deduplicates, and hands the core to the next parse. */
  finish(): Collected {
    if (this.length > this.maxMarkers) this.refuseTooMany();
    const collected = this.core.finish(this.length);
    this.handBack();
    return collected;
  }

  /**
   * Hands the core to the next parse, once: finish() does, and so must a parse that ended
   * without it (a refused or failed file). Otherwise every refused file left its WebAssembly
   * memory to the garbage collector and the next parse compiled a new instance.
   */
  handBack(): void {
    if (this.handedBack) return;
    this.handedBack = true;
    this.core.release();
  }
}
