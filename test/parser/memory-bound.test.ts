/**
 * Parse memory is bounded by construction, whatever the line count or compression ratio:
 * marker records never grow past maxMarkers + 1 (the file is refused instead), and every
 * other buffer has a fixed size. These tests check the bound on the buffers themselves;
 * the resident memory of real worst cases is measured by the parse benchmark (bench/parse.bench.ts).
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_MARKERS, GenotypeCollector, parseMemoryBound } from '../../src/service/genotype/parse/collect.js';
import { ParseError } from '../../src/service/genotype/parse/errors.js';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { LineSplitter } from '../../src/service/genotype/parse/lines.js';
import { TextDecoderStage } from '../../src/service/genotype/parse/text.js';
import { MAX_LINE_BYTES, TextGenotypeParser } from '../../src/service/genotype/parse/textparser.js';
import { RECORD_BYTES } from '../../src/service/genotype/parse/wasm/core.js';
import { enc } from './helpers.js';

const MiB = 1 << 20;

/** Feeds text to a parser in 1 MiB chunks as the real pipeline does; returns the parser and what it threw. */
function feed(
  maxMarkers: number,
  lines: number,
  line: (i: number) => string,
): { parser: TextGenotypeParser; error: unknown } {
  const parser = new TextGenotypeParser(maxMarkers);
  const stage = new TextDecoderStage(new LineSplitter(parser, MAX_LINE_BYTES));
  try {
    let chunk = '';
    for (let i = 0; i < lines; i++) {
      chunk += line(i);
      if (chunk.length >= MiB) {
        stage.push(enc(chunk));
        chunk = '';
      }
    }
    stage.push(enc(chunk));
    stage.end();
    parser.finish();
    return { parser, error: null };
  } catch (error) {
    return { parser, error };
  }
}

describe('parse memory', () => {
  it('is at most 400 MiB at the default marker limit', () => {
    expect(DEFAULT_MAX_MARKERS).toBe(10_000_000);
    expect(parseMemoryBound()).toBeLessThanOrEqual(400 * MiB);
  });

  it('records never grow past the marker limit, however many short lines arrive', () => {
    const max = 200_000;
    // The shortest lines a marker can come from ("rs1 A"): the worst case for records per byte.
    const { parser, error } = feed(max, 600_000, (i) => `rs${i + 1} A\n`);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as Error).message).toMatch(/more than 200,000 genotype markers/);
    const core = parser.collector.core;
    expect(core.capacity).toBeLessThanOrEqual(max + 1 + 65536 / RECORD_BYTES);
    expect(core.memoryBytes).toBeLessThanOrEqual(parseMemoryBound(max));
  });

  it('a file just under the limit parses, with the sort inside the bound', () => {
    const max = 50_000;
    const collector = new GenotypeCollector(max);
    for (let i = 0; i < max; i++) collector.add(max - i, 0x11, 1, i);
    const core = collector.core;
    const { genotype } = collector.finish();
    expect(genotype.rsids.length).toBe(max);
    expect(core.memoryBytes).toBeLessThanOrEqual(parseMemoryBound(max));
    const more = new GenotypeCollector(max);
    expect(() => {
      for (let i = 0; i < 2 * max; i++) more.add(i + 1, 0x11, 1, i);
    }).toThrow(/more than 50,000 genotype markers/);
    expect(more.core.memoryBytes).toBeLessThanOrEqual(parseMemoryBound(max));
  });

  it('a gzip of millions of short lines is refused at the limit, not after reading them all', async () => {
    const text = enc('rs7 A\n'.repeat(3_000_000)); // 18 MiB of text, 3 million markers
    const r = await parseGenotypeBytes(gzipSync(text), { maxMarkers: 100_000 });
    expect(r.ok).toBe(false);
    // One line repeated: refused at the limit, and the message says what the file is.
    if (!r.ok) expect(r.reason).toMatch(/one genotype line repeated more than 100,000 times/);
  });
});
