/**
 * The line-level half of the parser: buffers the first lines until the format can be
 * detected, then parses every data line on bytes into a GenotypeCollector.
 */
import { GenotypeCollector } from './collect.js';
import { detect, noGenotypes, type Detection } from './detect.js';
import { fail } from './errors.js';
import type { LineSink } from './lines.js';
import { SKIP_LINE_TOO_LONG, SkipCounter } from './stats.js';
import { TableParser, type DataLineParser } from './table.js';
import { VcfParser } from './vcf.js';

/** Sample size for detection: enough data lines to infer columns, bounded in bytes. */
const SAMPLE_DATA_LINES = 300;
const SAMPLE_MAX_BYTES = 4 << 20;
/** A file that shows no usable genotype line in its first 32 MiB is not a genotype file. */
const GIVE_UP_BYTES = 32 << 20;

export const MAX_LINE_BYTES = 1 << 20;

export class TextGenotypeParser implements LineSink {
  readonly collector = new GenotypeCollector();
  readonly skips = new SkipCounter();
  detection: Detection | null = null;

  private sample: Uint8Array[] = [];
  private sampleBytes = 0;
  private sampleData = 0;
  private sawVcfMagic = false;
  private sawChromHeader = false;
  private impl: DataLineParser | null = null;
  private lineNo = 0;
  private bytesSeen = 0;

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
    if ((this.lineNo & 0xfff) === 0 && this.collector.length === 0 && this.bytesSeen > GIVE_UP_BYTES) noGenotypes();
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
    const copy = buf.slice(s, e);
    this.sample.push(copy);
    this.sampleBytes += copy.length + 1;
    if (copy.length > 0 && copy[0] !== 0x23) this.sampleData++;
    else if (copy.length > 1 && copy[0] === 0x23) {
      if (this.sample.length === 1 || !this.sawVcfMagic) this.sawVcfMagic ||= startsWithText(copy, '##fileformat=VCF');
      if (startsWithText(copy, '#CHROM')) this.sawChromHeader = true;
    }
    const vcfPending = this.sawVcfMagic && !this.sawChromHeader;
    if ((this.sampleData >= SAMPLE_DATA_LINES && !vcfPending) || this.sampleBytes >= SAMPLE_MAX_BYTES) this.decide();
  }

  private decide(): void {
    const sample = this.sample;
    this.sample = [];
    const decoder = new TextDecoder('utf-8');
    const text = sample.map((l) => decoder.decode(l));
    if (text.every((l) => l.trim().length === 0))
      fail('The file is empty (it has no text in it). Upload the raw data file from your testing company.');
    this.detection = detect(text);
    this.impl =
      this.detection.kind === 'vcf'
        ? new VcfParser(this.collector, this.skips)
        : new TableParser(this.detection.layout!, this.collector, this.skips);
    for (const l of sample) this.line(l, 0, l.length);
  }
}

function startsWithText(b: Uint8Array, prefix: string): boolean {
  if (b.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if ((b[i] | 0x20) !== (prefix.charCodeAt(i) | 0x20)) return false;
  return true;
}
