/**
 * A plain file is read at once into the parser's input window (source.ts readRange with a
 * lender, wasm/core.ts); bytes in memory and compressed files get a fresh buffer per chunk.
 * Both must parse alike: the same genotype and summary from a file on disk as from its
 * bytes, for files of many read chunks, so no chunk is overwritten or moved while it is
 * still being parsed.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGenotypeBytes, parseGenotypeFile } from '../../src/service/genotype/parse/index.js';
import { READ_CHUNK, READ_NOW_BYTES } from '../../src/service/genotype/parse/source.js';
import { ParseCore } from '../../src/service/genotype/parse/wasm/core.js';
import type { ParseResult } from '../../src/service/genotype/types.js';
import {
  catalogMarkers,
  chipMarkers,
  combine,
  FINDING_CALLS,
  markersOf,
  positionIndex,
  vendorFile,
  wholeGenomeVcf,
} from '../support/genotypes.js';
import { enc } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'traitscope-read-buffers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Windows this thread's parse core has parsed where they were read (the core is reused by the next parse). */
function inPlaceWindows(): number {
  const core = ParseCore.acquire();
  const n = core.inPlaceWindows;
  core.release();
  return n;
}

/** The genotype's columns as one digest (row strings of ~100k markers cost seconds to compare) and the summary. */
function comparable(r: ParseResult): unknown {
  if (!r.ok) return r.reason;
  const g = r.genotype;
  const digest = createHash('sha256');
  for (const column of [g.rsids, g.positions, g.calls, g.chroms])
    digest.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
  return { markers: g.rsids.length, digest: digest.digest('hex'), summary: { ...r.summary, parse_ms: 0 } };
}

describe('reading a plain file through buffers that take turns', () => {
  const person = combine([markersOf(FINDING_CALLS), catalogMarkers(3, { traits: 'all' })]);

  // Lines enough for more than three read chunks (rsIDs make the lines longer).
  for (const [ids, lines] of [
    ['none', 68_000],
    ['rsid', 56_000],
  ] as const)
    it(`parses a sequencing VCF of many read chunks (${ids === 'none' ? 'no rsIDs' : 'rsIDs'}) as its bytes parse`, async () => {
      const bytes = enc([...wholeGenomeVcf(person, lines, 5, { build: 38, ids })].join(''));
      expect(bytes.length).toBeGreaterThan(3 * READ_CHUNK);
      const path = join(dir, `wgs-${ids}.vcf`);
      await writeFile(path, bytes);
      const options = { positionIndex: positionIndex() };
      const before = inPlaceWindows();
      const fromFile = await parseGenotypeFile(path, options);
      expect(fromFile.ok).toBe(true);
      // Read straight into the input window, piece by piece, after the header.
      expect(inPlaceWindows() - before).toBeGreaterThan(bytes.length / READ_NOW_BYTES - 3);
      expect(comparable(fromFile)).toEqual(comparable(await parseGenotypeBytes(bytes, options)));
      // The same text gzipped (fresh buffers, inflated by zlib) reads alike too.
      const gz = join(dir, `wgs-${ids}.vcf.gz`);
      await writeFile(gz, gzipSync(bytes, { level: 1 })); // the fastest level: any gzip will do
      const fromGzip = comparable(await parseGenotypeFile(gz, options)) as { summary: { container: string } };
      expect({ ...fromGzip, summary: { ...fromGzip.summary, container: 'plain' } }).toEqual(comparable(fromFile));
    });

  it('parses a VCF whose header spans several read pieces as its bytes parse', async () => {
    // The format is known only after the header: the pieces before it are read into the reader's own buffer.
    const text = [...wholeGenomeVcf(person, 20_000, 6, { build: 38, ids: 'rsid' })].join('');
    const contigs = Array.from({ length: 8000 }, (_, i) => `##contig=<ID=chrUn_decoy${i},length=${1000 + i}>\n`).join(
      '',
    );
    const bytes = enc(text.replace('##source=', `${contigs}##source=`));
    expect(Buffer.from(bytes).indexOf('#CHROM')).toBeGreaterThan(2 * READ_NOW_BYTES);
    const path = join(dir, 'wgs-long-header.vcf');
    await writeFile(path, bytes);
    const options = { positionIndex: positionIndex() };
    const fromFile = await parseGenotypeFile(path, options);
    expect(fromFile.ok).toBe(true);
    expect(comparable(fromFile)).toEqual(comparable(await parseGenotypeBytes(bytes, options)));
  });

  it('parses a chip file of many read chunks as its bytes parse', async () => {
    const bytes = enc(vendorFile('23andme', chipMarkers(150_000, 9), 'full'));
    expect(bytes.length).toBeGreaterThan(3 * READ_CHUNK);
    const path = join(dir, 'chip.txt');
    await writeFile(path, bytes);
    const before = inPlaceWindows();
    const fromFile = await parseGenotypeFile(path);
    expect(fromFile.ok).toBe(true);
    expect(inPlaceWindows() - before).toBeGreaterThan(bytes.length / READ_NOW_BYTES - 3);
    expect(comparable(fromFile)).toEqual(comparable(await parseGenotypeBytes(bytes)));
  });
});
