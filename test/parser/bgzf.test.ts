/**
 * BGZF (bgzip'd VCFs, members of at most 64 KiB) goes through the same zlib stream as any
 * gzip file of many members: read alike, the same damage refused with the same sentence, a
 * bomb stopped at the same caps, whoever wrote the members. Each BGZF file is
 * compared with the same members written without the BC subfield (test/support/bgzf.ts):
 * the same bytes for zlib, read on the plain gzip path.
 *
 * The sequencing VCF is built once per file and form (lazily, so each test still runs
 * alone). `npm test` builds it from 36,000 lines instead of 90,000 (test/support/science-scale.ts):
 * still above 1.5 MiB, so dozens of members, more than one 1 MiB inflate chunk, and past
 * the 1.5 MiB cap of the maxDecompressedBytes test.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGenotypeBytes, parseGenotypeSource, type ParseOptions } from '../../src/service/genotype/parse/index.js';
import { arrivingFile } from '../../src/service/processing/arriving-file.js';
import type { ParseResult } from '../../src/service/genotype/types.js';
import { bgzf, bgzfForms, bgzfMemberLength, gzipBlocks } from '../support/bgzf.js';
import {
  catalogMarkers,
  chipMarkers,
  combine,
  FINDING_CALLS,
  markersOf,
  positionIndex,
  vendorFile,
  wholeGenomeVcf,
  type Marker,
} from '../support/genotypes.js';
import { concat } from '../fixtures/genotypes/wrap.js';
import { scienceSize } from '../support/science-scale.js';
import { enc } from './helpers.js';

const MiB = 1024 * 1024;

/** The genotype's columns as one digest and the summary (parse time left out). */
function comparable(r: ParseResult): unknown {
  if (!r.ok) return r.reason;
  const g = r.genotype;
  const digest = createHash('sha256');
  for (const column of [g.rsids, g.positions, g.calls, g.chroms])
    digest.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
  return { markers: g.rsids.length, digest: digest.digest('hex'), summary: { ...r.summary, parse_ms: 0 } };
}

/** The members of `text`, as BGZF and as plain gzip members of the same data. */
const bothForms = bgzfForms;

async function parsedAlike(files: { bgzf: Uint8Array; plain: Uint8Array }, options?: ParseOptions): Promise<unknown> {
  const fromBgzf = comparable(await parseGenotypeBytes(files.bgzf, options));
  expect(fromBgzf).toEqual(comparable(await parseGenotypeBytes(files.plain, options)));
  return fromBgzf;
}

/** Offsets of the members of a gzip file written by test/support/bgzf.ts. */
function memberOffsets(file: Uint8Array): number[] {
  const offsets: number[] = [];
  for (let at = 0; at < file.length;) {
    offsets.push(at);
    const length = bgzfMemberLength(file, at);
    if (length === null || length < 0) throw new Error('not a BGZF member');
    at += length;
  }
  return offsets;
}

/** A whole-genome VCF's text, with or without rsIDs, and its two gzip forms; each built once, when first asked for. */
const vcfCache = new Map<'none' | 'rsid', { text: Uint8Array; forms?: { bgzf: Uint8Array; plain: Uint8Array } }>();
let personCache: Marker[] | undefined;
function vcfEntry(ids: 'none' | 'rsid') {
  let entry = vcfCache.get(ids);
  if (!entry) {
    const person = (personCache ??= combine([markersOf(FINDING_CALLS), catalogMarkers(3, { traits: 'all' })]));
    entry = { text: enc([...wholeGenomeVcf(person, scienceSize(36_000, 90_000), 5, { build: 38, ids })].join('')) };
    vcfCache.set(ids, entry);
  }
  return entry;
}
const vcf = (ids: 'none' | 'rsid') => vcfEntry(ids).text;
const vcfForms = (ids: 'none' | 'rsid') => {
  const entry = vcfEntry(ids);
  // Deflated at level 1, the fastest: zlib reads any level alike, and these members are only read.
  return (entry.forms ??= bothForms(entry.text, { level: 1 }));
};
/** More than one 1 MiB inflate chunk and the 1.5 MiB cap below: 1.5 MiB at the quick size, 4 MiB at full size. */
const VCF_AT_LEAST = scienceSize(1.5, 4) * MiB;

describe('BGZF and plain gzip of the same text read alike', () => {
  for (const ids of ['none', 'rsid'] as const)
    it(`a sequencing VCF of many members (${ids === 'none' ? 'no rsIDs' : 'rsIDs'}): BGZF, its members as plain gzip, one gzip member`, async () => {
      const text = vcf(ids);
      expect(text.length).toBeGreaterThan(VCF_AT_LEAST); // many members, more than one inflate chunk
      const options = { positionIndex: positionIndex() };
      const read = (await parsedAlike(vcfForms(ids), options)) as { summary: { container: string } };
      expect(read.summary.container).toBe('gzip');
      expect(read).toEqual(comparable(await parseGenotypeBytes(gzipSync(text, { level: 1 }), options)));
      const plain = comparable(await parseGenotypeBytes(text, options)) as { summary: object };
      expect(read).toEqual({ ...plain, summary: { ...plain.summary, container: 'gzip' } });
    });

  it('a chip file, in members of any size', async () => {
    const text = enc(vendorFile('23andme', chipMarkers(40_000, 9), 'full'));
    const whole = comparable(await parseGenotypeBytes(gzipSync(text)));
    for (const blockText of [1000, 4093, 0xff00])
      expect(await parsedAlike(bothForms(text, { blockText }))).toEqual(whole);
  });

  it('BGZF members followed by a plain gzip member, or by zeros, read as the whole text', async () => {
    const text = enc(vendorFile('23andme', chipMarkers(20_000, 4), 'full'));
    const half = text.lastIndexOf(0x0a, text.length >> 1) + 1;
    const whole = comparable(await parseGenotypeBytes(gzipSync(text)));
    const mixed = concat(bgzf(text.subarray(0, half)), gzipSync(text.subarray(half)));
    expect(comparable(await parseGenotypeBytes(mixed))).toEqual(whole);
    expect(comparable(await parseGenotypeBytes(concat(bgzf(text), new Uint8Array(300))))).toEqual(whole);
  });

  it('a BGZF tar.gz reads its member', async () => {
    const text = enc(vendorFile('23andme', chipMarkers(5_000, 2), 'full'));
    const header = new Uint8Array(512);
    header.set(enc('genome.txt'));
    header.set(enc('0000644\0'), 100);
    header.set(enc(`${text.length.toString(8).padStart(11, '0')}\0`), 124);
    header.set(enc('        '), 148);
    header[156] = 0x30;
    header.set(enc('ustar\u000000'), 257);
    let sum = 0;
    for (const b of header) sum += b;
    header.set(enc(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
    const tar = concat(header, text, new Uint8Array((512 - (text.length % 512)) % 512), new Uint8Array(1024));
    const r = await parsedAlike(bothForms(tar));
    expect(r).toMatchObject({ summary: { container: 'tar.gz' } });
  });
});

describe('damaged BGZF is refused as damaged plain gzip is', () => {
  const text = enc(vendorFile('23andme', chipMarkers(30_000, 6), 'full'));
  const files = bothForms(text);
  const bgzfOffsets = memberOffsets(files.bgzf);
  const plainOffsets: number[] = [];
  for (let at = 0, i = 0; i < bgzfOffsets.length; i++) {
    plainOffsets.push(at);
    at += (bgzfOffsets[i + 1] ?? files.bgzf.length) - bgzfOffsets[i] - 8; // the plain member lacks XLEN and BC (8 bytes)
  }
  /** Both forms with `change` applied `fromEnd` bytes before the end of member `k`. */
  const damaged = (k: number, fromEnd: number, change: (b: Uint8Array, at: number) => void) => {
    const out = { bgzf: files.bgzf.slice(), plain: files.plain.slice() };
    const end = (offsets: number[], file: Uint8Array) => offsets[k + 1] ?? file.length;
    change(out.bgzf, end(bgzfOffsets, files.bgzf) - fromEnd);
    change(out.plain, end(plainOffsets, files.plain) - fromEnd);
    return out;
  };

  it('a member whose CRC-32 does not match', async () => {
    const files = damaged(7, 8, (b, at) => (b[at] ^= 0x01));
    expect(await parsedAlike(files)).toBe(
      'The gzip data is corrupt (incorrect data check). Download the file again and upload it unchanged.',
    );
  });

  it('a member whose deflate data is damaged', async () => {
    const files = damaged(5, 400, (b, at) => (b[at] ^= 0x5a));
    expect(await parsedAlike(files)).toMatch(/^The gzip data is corrupt \(.+\)\. Download the file again/);
  });

  it('a member that states less text than it holds, and one that states more', async () => {
    // ISIZE of a full member is 0xff00: its second byte 0x10 states 4,096 bytes, its first 0x10 states 16 more.
    for (const fromEnd of [3, 4])
      expect(await parsedAlike(damaged(3, fromEnd, (b, at) => (b[at] = 0x10)))).toBe(
        'The gzip data is corrupt (incorrect length check). Download the file again and upload it unchanged.',
      );
  });

  it('a file cut inside a member, and one cut inside a header', async () => {
    const k = 9;
    const cut = (offsets: number[], file: Uint8Array, by: number) => file.subarray(0, offsets[k] + by);
    for (const by of [5, 14, 300])
      expect(
        await parsedAlike({ bgzf: cut(bgzfOffsets, files.bgzf, by), plain: cut(plainOffsets, files.plain, by) }),
      ).toMatch(/^The gzip file is truncated/);
  });

  it('mutated BGZF members: refused with the sentence of the plain form whenever it is refused, else read alike', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: bgzfOffsets.length - 2 }),
        fc.nat({ max: 5000 }),
        fc.integer({ min: 1, max: 255 }),
        async (k, back, value) => {
          const size = bgzfOffsets[k + 1] - bgzfOffsets[k] - 18; // the plain member's data and trailer
          const files = damaged(k, 1 + (back % size), (b, at) => (b[at] ^= value));
          const [fromBgzf, fromPlain] = [await parseGenotypeBytes(files.bgzf), await parseGenotypeBytes(files.plain)];
          if (fromBgzf.ok || fromPlain.ok) expect(comparable(fromBgzf)).toEqual(comparable(fromPlain));
          else {
            // Damage inside a member is called corrupt, or a cut file when zlib read on into the
            // next members and ran out of file; the BC subfield changes neither.
            expect(fromPlain.reason).toMatch(/^The gzip (data is corrupt|file is truncated)/);
            expect(fromBgzf.reason).toBe(fromPlain.reason);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('the parser answers whatever BGZF-looking bytes it is given', () => {
  it('mutations anywhere in a small BGZF file, headers and stated lengths included', async () => {
    const file = bgzf(enc(vendorFile('23andme', chipMarkers(3_000, 8), 'full')), { blockText: 4000 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.nat(),
        async (flips, cut) => {
          const b = file.slice(0, file.length - (cut % 64));
          for (const f of flips) b[f.at % b.length] = f.value;
          const r = await parseGenotypeBytes(b);
          // A refusal says what was wrong; "an unexpected error" would be a bug of the reader.
          if (!r.ok) expect(r.reason).toMatch(/^(?!.*unexpected error)[A-Z].{20,}[.)]$/s);
          else expect(r.genotype.rsids.length).toBe(r.summary.snp_count);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('a BGZF bomb is stopped at the caps', () => {
  /** Members of 64 KiB of one repeated genotype line: about 300-fold. */
  function bombMembers(text: number): Uint8Array {
    const line = enc('rs123\t1\t1000\tAA\n');
    const block = new Uint8Array(0xff00);
    for (let i = 0; i + line.length <= block.length; i += line.length) block.set(line, i);
    const member = [...gzipBlocks([block], { level: 9 })][0];
    const end = [...gzipBlocks([])][0];
    const count = Math.ceil(text / block.length);
    const out = new Uint8Array(member.length * count + end.length);
    for (let i = 0; i < count; i++) out.set(member, i * member.length);
    out.set(end, member.length * count);
    return out;
  }

  it('refuses 1 GiB stated by members 200-fold smaller as a decompression bomb', async () => {
    const bomb = bombMembers(1024 * MiB);
    expect(bomb.length * 200).toBeLessThan(1024 * MiB);
    const r = await parseGenotypeBytes(bomb);
    expect(r.ok ? 'read' : r.reason).toMatch(/expands more than 200-fold.*decompression bomb/);
  });

  it('refuses text beyond maxDecompressedBytes with the sentence plain gzip gets', async () => {
    expect(vcf('none').length).toBeGreaterThan(1.5 * MiB);
    const reason = await parsedAlike(vcfForms('none'), {
      positionIndex: positionIndex(),
      maxDecompressedBytes: 1.5 * MiB,
    });
    // A file already read as a VCF is not a bomb: the refusal says what it is.
    expect(reason).toMatch(/^This VCF holds more than 1\.5 MiB of text, more than the VCF of one person's variants/);
  });
});

describe('an upload parsed while it arrives (processing/arriving-file.ts)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'traitscope-bgzf-arriving-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Parses `bytes` through an arriving file written 300 KiB at a time, each piece announced as the service does. */
  async function parseArriving(bytes: Uint8Array, name: string): Promise<ParseResult> {
    const path = join(dir, name);
    const arriving = arrivingFile(path, bytes.length);
    const file = await open(path, 'w');
    const parsing = parseGenotypeSource(arriving.source, { positionIndex: positionIndex() });
    for (let at = 0; at < bytes.length; at += 300 << 10) {
      const piece = bytes.subarray(at, Math.min(bytes.length, at + (300 << 10)));
      await file.write(piece, 0, piece.length, at);
      arriving.signal({ written: at + piece.length });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await file.close();
    arriving.signal({ end: 'recorded' });
    try {
      return await parsing;
    } finally {
      await arriving.source.close();
    }
  }

  it('plain text, BGZF and its members as plain gzip parse as the finished file', async () => {
    const text = vcf('none');
    const options = { positionIndex: positionIndex() };
    const expected = comparable(await parseGenotypeBytes(text, options)) as { summary: object };
    expect(comparable(await parseArriving(text, 'upload.vcf'))).toEqual(expected);
    const asGzip = { ...expected, summary: { ...expected.summary, container: 'gzip' } };
    const files = vcfForms('none');
    expect(comparable(await parseArriving(files.bgzf, 'upload.bgzf.vcf.gz'))).toEqual(asGzip);
    expect(comparable(await parseArriving(files.plain, 'upload.members.vcf.gz'))).toEqual(asGzip);
  });
});
