/**
 * The line-level half of the parser: buffers the first lines until the format can be
 * detected, then parses every data line on bytes into a GenotypeCollector.
 */
import { DEFAULT_MAX_MARKERS, GenotypeCollector } from './collect.js';
import { detect, noGenotypes, type Detection } from './detect.js';
import { fail } from './errors.js';
import type { LineSink } from './lines.js';
import { SKIP_LINE_TOO_LONG, SkipCounter } from './stats.js';
import { TableParser, type DataLineParser } from './table.js';
import type { PositionIndex } from '../positions.js';
import { SiteMatcher } from './sites.js';
import { VcfParser } from './vcf.js';

/** Sample size for detection: enough data lines to infer columns, bounded in bytes. */
const SAMPLE_DATA_LINES = 300;
const SAMPLE_MAX_BYTES = 4 << 20;
/** A file that shows no usable genotype line in its first 32 MiB is not a genotype file. */
const GIVE_UP_BYTES = 32 << 20;

export const MAX_LINE_BYTES = 1 << 20;
export { DEFAULT_MAX_MARKERS };

export class TextGenotypeParser implements LineSink {
  readonly collector: GenotypeCollector;
  readonly skips = new SkipCounter();
  detection: Detection | null = null;
  /** A VCF's sites looked up by position (when a position index was given). */
  sites: SiteMatcher | null = null;

  /** The sampled lines, each followed by '\n', in one growing buffer. */
  private sample = new Uint8Array(1 << 16);
  private sampleBytes = 0;
  private sampleData = 0;
  private sawVcfMagic = false;
  private sawChromHeader = false;
  private impl: DataLineParser | null = null;
  private lineNo = 0;
  private bytesSeen = 0;

  /** Most markers the file may have: each one is held in memory until the sort. */
  constructor(
    private readonly maxMarkers = DEFAULT_MAX_MARKERS,
    private readonly positionIndex: PositionIndex | (() => PositionIndex) | null = null,
    /** A VCF's sample to read, by name (default: the first). */
    private readonly vcfSample?: string,
  ) {
    this.collector = new GenotypeCollector(maxMarkers);
  }

  /** VCF records without a GT field (0 for other files). */
  get vcfLinesWithoutGt(): number {
    return this.impl instanceof VcfParser ? this.impl.linesWithoutGt : 0;
  }

  /** Room for the markers a text of this many bytes may hold (~25 bytes a line), so the arrays rarely grow. */
  expectTextBytes(bytes: number): void {
    this.collector.reserve(Math.min(Math.ceil(bytes / 24), 2_000_000));
  }

  line(buf: Uint8Array, s: number, e: number): void {
    if (this.impl === null) {
      this.buffer(buf, s, e);
      return;
    }
    this.lineNo++;
    if (e === s) return;
    if (this.lineNo <= this.detection!.preambleLines) return;
    this.impl.line(buf, s, e);
    this.bytesSeen += e - s + 1;
    if ((this.lineNo & 0xfff) === 0) this.checkProgress();
  }

  lines(buf: Uint8Array, s: number, e: number): void {
    // While sampling for detection, or inside a preamble: line by line, until the
    // format is known; the rest of the range then goes to the parser in one call.
    while (s < e && (this.impl === null || this.lineNo <= this.detection!.preambleLines)) {
      const nl = buf.indexOf(0x0a, s);
      let le = nl;
      if (le > s && buf[le - 1] === 0x0d) le--;
      this.line(buf, s, le);
      s = nl + 1;
    }
    if (s >= e) return;
    this.impl!.lines(buf, s, e);
    this.bytesSeen += e - s;
    this.checkProgress();
  }

  /** No genotype line in the first 32 MiB, or more markers than we hold: refuse the file. */
  private checkProgress(): void {
    const n = this.collector.length;
    if (n === 0 && (this.sites === null || this.sites.sitesRead === 0) && this.bytesSeen > GIVE_UP_BYTES) noGenotypes();
    if (n > this.maxMarkers) this.collector.refuseTooMany();
  }

  longLine(): void {
    if (this.collector.length === 0)
      fail(
        `This file has a line longer than ${MAX_LINE_BYTES >> 20} MiB before any genotype line, so it is not a genotype text file. ` +
          'Upload the raw data download from your testing company.',
      );
    this.lineNo++;
    this.skips.add(SKIP_LINE_TOO_LONG);
  }

  /** Call after the last line; detects the format now if the file was shorter than the sample. */
  finish(): void {
    if (this.impl === null) this.decide();
  }

  private buffer(buf: Uint8Array, s: number, e: number): void {
    const need = this.sampleBytes + (e - s) + 1;
    if (need > this.sample.length) {
      const bigger = new Uint8Array(Math.max(need, this.sample.length * 2));
      bigger.set(this.sample.subarray(0, this.sampleBytes));
      this.sample = bigger;
    }
    this.sample.set(buf.subarray(s, e), this.sampleBytes);
    this.sample[need - 1] = 0x0a;
    this.sampleBytes = need;
    if (e > s && buf[s] !== 0x23) this.sampleData++;
    else if (e - s > 1) {
      const line = buf.subarray(s, e);
      if (!this.sawVcfMagic) this.sawVcfMagic = startsWithText(line, '##fileformat=VCF');
      if (startsWithText(line, '#CHROM')) this.sawChromHeader = true;
    }
    const vcfPending = this.sawVcfMagic && !this.sawChromHeader;
    if ((this.sampleData >= SAMPLE_DATA_LINES && !vcfPending) || this.sampleBytes >= SAMPLE_MAX_BYTES) this.decide();
  }

  private decide(): void {
    const sample = this.sample.subarray(0, this.sampleBytes);
    this.sample = new Uint8Array(0);
    if (this.sampleData === 0 && !sample.some((b) => b !== 0x0a && b !== 0x20 && b !== 0x09))
      fail('The file is empty (it has no text in it). Upload the raw data file from your testing company.');
    const text = new TextDecoder('utf-8').decode(sample).split('\n');
    text.pop(); // the buffer ends with the last line's '\n'
    if (text.every((l) => l.trim().length === 0))
      fail('The file is empty (it has no text in it). Upload the raw data file from your testing company.');
    this.detection = detect(text, this.vcfSample);
    if (this.detection.kind === 'vcf' && this.positionIndex) {
      const index = typeof this.positionIndex === 'function' ? this.positionIndex() : this.positionIndex;
      this.sites = new SiteMatcher(index, this.detection.headerBuild, this.detection.gvcf, this.detection.endDeclared);
    }
    this.impl =
      this.detection.kind === 'vcf'
        ? new VcfParser(this.collector, this.skips, this.sites, this.detection.sampleColumn)
        : new TableParser(this.detection.layout!, this.collector, this.skips);
    for (let s = 0; s < sample.length;) {
      const nl = sample.indexOf(0x0a, s);
      this.line(sample, s, nl);
      s = nl + 1;
    }
  }
}

function startsWithText(b: Uint8Array, prefix: string): boolean {
  if (b.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if ((b[i] | 0x20) !== (prefix.charCodeAt(i) | 0x20)) return false;
  return true;
}
