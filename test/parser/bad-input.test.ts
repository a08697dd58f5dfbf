/**
 * Files that are not genotype data, or are hostile, are refused with a sentence, after
 * reading no more than they must. How long that takes and how much memory it costs is
 * measured by `npm run bench` (bench/hostile.bench.ts), not asserted here.
 */
import { readFileSync } from 'node:fs';
import { open, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseGenotypeBytes,
  parseGenotypeFile,
  parseGenotypeSource,
  type ByteSource,
} from '../../src/service/genotype/parse/index.js';
import { gzipMembers, nativeZip, plainFixture } from '../fixtures/genotypes/wrap.js';
import { enc } from './helpers.js';

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

/** A source of `size` bytes produced on demand, so gigabyte inputs cost no disk or memory. */
function syntheticSource(size: number, byteAt: (offset: number) => number): ByteSource & { bytesRead: number } {
  const src = {
    size,
    bytesRead: 0,
    async read(offset: number, length: number) {
      const n = Math.max(0, Math.min(length, size - offset));
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = byteAt(offset + i);
      src.bytesRead += n;
      return out;
    },
    async close() {},
  };
  return src;
}

async function expectRefused(
  p: Promise<Awaited<ReturnType<typeof parseGenotypeBytes>>>,
  reason: RegExp,
): Promise<string> {
  const r = await p;
  expect(r.ok).toBe(false);
  if (r.ok) return '';
  expect(r.reason).toMatch(reason);
  return r.reason;
}

describe('single enormous line', () => {
  it('refuses a 1 GiB file that is one line after reading only a few MiB', async () => {
    const src = syntheticSource(GiB, () => 0x41);
    await expectRefused(parseGenotypeSource(src), /line longer than 1 MiB/);
    expect(src.bytesRead).toBeLessThan(8 * MiB);
  });

  describe('on disk', () => {
    let dir = '';
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'traitscope-parse-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('refuses a 1 GiB one-line file from disk (sparse after its first 4 MiB)', async () => {
      const path = join(dir, 'one-line.txt');
      const fh = await open(path, 'w');
      await fh.write(new Uint8Array(4 * MiB).fill(0x43));
      await fh.truncate(GiB);
      await fh.close();
      await expectRefused(parseGenotypeFile(path), /line longer than 1 MiB/);
    });

    it('says so when the path is missing or a folder', async () => {
      await expectRefused(parseGenotypeFile(join(dir, 'nope.txt')), /does not exist/);
      await expectRefused(parseGenotypeFile(dir), /is a folder, not a file/);
    });
  });
});

describe('decompression bombs and limits', () => {
  it('refuses a gzip of zeros at once: it is not text', async () => {
    const bomb = gzipSync(new Uint8Array(16 * MiB));
    await expectRefused(parseGenotypeBytes(bomb), /not a text file/);
  });

  it('refuses a 1 GiB multi-member gzip that expands more than 200-fold as a decompression bomb', async () => {
    const line = enc('rs123\t1\t1000\tAA\n');
    const block = new Uint8Array(4 * MiB);
    for (let i = 0; i + line.length <= block.length; i += line.length) block.set(line, i);
    const member = gzipSync(block, { level: 9 });
    const bomb = new Uint8Array(member.length * 256); // 1 GiB once inflated
    for (let i = 0; i < 256; i++) bomb.set(member, i * member.length);
    await expectRefused(parseGenotypeBytes(bomb), /decompression bomb/);
  });

  it('refuses a zip member that expands more than 200-fold', async () => {
    // Genotype lines enough for the format to be known at once, then blank lines: past the
    // 64 MiB after which the ratio counts, without 4 MiB of blank lines sampled one by one
    // first (test 'a file of blank lines' does that).
    const big = new Uint8Array(72 * MiB).fill(0x0a);
    big.set(enc(Array.from({ length: 400 }, (_, i) => `rs${i + 1} 1 ${1000 + i} AA\n`).join('')));
    const zip = nativeZip('genome.txt', big);
    await expectRefused(parseGenotypeBytes(zip), /decompression bomb/);
  });

  it('refuses a zip whose genotype member does not match its CRC-32, stored or deflated', async () => {
    const text = await plainFixture('23andme_v5.txt');
    // Stored: change one call letter (C→A) inside the member's data. Without the checksum
    // this parses "fine" with a wrong genotype.
    const stored = zipSync({ 'genome.txt': text }, { level: 0 });
    const at = indexOf(stored, enc('\tCC\n'));
    expect(at).toBeGreaterThan(0);
    stored[at + 1] = 0x41;
    await expectRefused(
      parseGenotypeBytes(stored),
      /zip archive is damaged \(the genotype file "genome\.txt" inside it does not match its recorded checksum/,
    );
    // Deflated: a damaged stream can inflate without error; simulate by changing the recorded CRC.
    const deflated = zipSync({ 'genome.txt': text });
    const cen = indexOf(deflated, Uint8Array.of(0x50, 0x4b, 0x01, 0x02));
    deflated[cen + 16] ^= 0xff;
    await expectRefused(parseGenotypeBytes(deflated), /does not match its recorded checksum/);
    // The untouched archives parse.
    expect((await parseGenotypeBytes(zipSync({ 'genome.txt': text }, { level: 0 }))).ok).toBe(true);
    expect((await parseGenotypeBytes(zipSync({ 'genome.txt': text }))).ok).toBe(true);
  });

  it('refuses a file with more markers than maxMarkers, plain or gzipped, and reads one at the limit', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `rs${i + 1}\t1\t${1000 + i}\t${i % 3 ? 'AA' : 'AG'}`).join(
      '\n',
    );
    const text = enc(`# rsid\tchromosome\tposition\tgenotype\n${lines}\n`);
    await expectRefused(
      parseGenotypeBytes(text, { maxMarkers: 1000 }),
      /more than 1,000 genotype markers, more than Traitscope reads/,
    );
    await expectRefused(parseGenotypeBytes(gzipSync(text), { maxMarkers: 1000 }), /more than 1,000 genotype markers/);
    expect((await parseGenotypeBytes(text, { maxMarkers: 5000 })).ok).toBe(true);
  });

  it('says a file over the marker limit is one line (or a few lines) repeated, not a genome too big', async () => {
    const header = '# rsid\tchromosome\tposition\tgenotype\n';
    const one = enc(header + 'rs4988235\t2\t136608646\tAG\n'.repeat(5000));
    const reason = await expectRefused(
      parseGenotypeBytes(one, { maxMarkers: 1000 }),
      /one genotype line repeated more than 1,000 times, not a genotype download/,
    );
    expect(reason).not.toMatch(/more than Traitscope reads/);
    await expectRefused(parseGenotypeBytes(gzipSync(one), { maxMarkers: 1000 }), /one genotype line repeated/);
    const few = enc(header + 'rs1\t1\t1000\tAA\nrs2\t1\t2000\tAG\nrs3\t1\t3000\tGG\n'.repeat(2000));
    await expectRefused(
      parseGenotypeBytes(few, { maxMarkers: 1000 }),
      /repeats the same 3 genotype lines over and over \(more than 1,000 lines in all\)/,
    );
  });

  it('honours maxDecompressedBytes', async () => {
    const gz = gzipSync(await plainFixture('23andme_v5.txt'));
    await expectRefused(parseGenotypeBytes(gz, { maxDecompressedBytes: 100 }), /expands to more than 100 bytes/);
  });
});

describe('archives and formats that are not genotype text', () => {
  it('refuses a password-protected zip', async () => {
    const zip = zipSync({ 'genome.txt': enc('rs1 1 1 AA\n') });
    // Set the "encrypted" flag bit in the local and central headers.
    for (let i = 0; i + 4 <= zip.length; i++) {
      if (zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 0x03 && zip[i + 3] === 0x04) zip[i + 6] |= 1;
      if (zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 0x01 && zip[i + 3] === 0x02) zip[i + 8] |= 1;
    }
    await expectRefused(parseGenotypeBytes(zip), /password-protected/);
  });

  it('recognises an Excel workbook', async () => {
    const xlsx = zipSync({ '[Content_Types].xml': enc('<x/>'), 'xl/workbook.xml': enc('<w/>') });
    await expectRefused(parseGenotypeBytes(xlsx), /Excel workbook/);
  });

  it('refuses an empty zip and a zip inside a gzip', async () => {
    await expectRefused(parseGenotypeBytes(zipSync({})), /zip archive is empty/);
    await expectRefused(parseGenotypeBytes(gzipSync(zipSync({ 'a.txt': enc('rs1 AA') }))), /inside another archive/);
  });

  it('names other compressors and alignment files', async () => {
    await expectRefused(parseGenotypeBytes(enc('BZh91AY&SY....')), /bzip2/);
    await expectRefused(parseGenotypeBytes(new Uint8Array([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4])), /7-Zip/);
    await expectRefused(parseGenotypeBytes(gzipSync(enc('BAM\u0001\u0000\u0000\u0000\u0000'))), /BAM/);
    await expectRefused(
      parseGenotypeBytes(enc('BAI\u0001\u0000\u0000\u0000\u0000')),
      /index of a sequencing alignment file/,
    );
    // An uncompressed BCF (bcftools view -Ou) as well as the usual BGZF one (fixtures).
    await expectRefused(parseGenotypeBytes(enc('BCF\u0002\u0002\u0000\u0000\u0000')), /BCF file/);
  });

  it('refuses a VCF without samples, or without a #CHROM line', async () => {
    await expectRefused(
      parseGenotypeBytes(
        enc('##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n1\t5\trs1\tA\tG\t.\t.\t.\n'),
      ),
      /no sample column/,
    );
    await expectRefused(parseGenotypeBytes(enc('##fileformat=VCFv4.2\n1\t5\trs1\tA\tG\t.\t.\t.\tGT\t0/1\n')), /#CHROM/);
  });

  it('refuses a VCF whose records carry no GT field, saying so', async () => {
    const head = '##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1\n';
    await expectRefused(
      parseGenotypeBytes(enc(`${head}1\t5\trs1\tA\tG\t.\t.\t.\tDP:GQ\t30:99\n1\t9\trs2\tC\tT\t.\t.\t.\tDP\t12\n`)),
      /no GT \(genotype\) field/,
    );
  });

  it('refuses a file whose markers have no rsIDs, saying so', async () => {
    await expectRefused(
      parseGenotypeBytes(enc('# rsid\tchromosome\tposition\tgenotype\ni1\t1\t5\tAA\ni2\t1\t6\tCC\n')),
      /none of the markers has an rsID/,
    );
  });

  it('refuses a file of blank lines as empty', async () => {
    await expectRefused(parseGenotypeBytes(new Uint8Array(8 * MiB).fill(0x0a)), /empty/);
  });

  it('reads a truncated multi-member gzip as truncated', async () => {
    const gz = gzipMembers(await plainFixture('ancestrydna.txt'), 3);
    await expectRefused(parseGenotypeBytes(gz.subarray(0, gz.length - 7)), /truncated/);
  });
});

describe('summary notes', () => {
  it('reads the positions in the build they are in when the header names another', async () => {
    const text = [
      '# reference human assembly build 37',
      'rs12913832 15 28120472 AG',
      'rs4778138 15 28090674 AA',
      'rs16891982 5 33951588 GG',
    ].join('\n');
    const r = await parseGenotypeBytes(enc(text));
    if (!r.ok) throw new Error(r.reason);
    expect(r.summary.build).toBe(38);
    expect(r.summary.build_source).toBe('positions');
    expect(r.summary.notes.join('\n')).toContain('the positions in the file are build 38');
  });

  it('says when a zip holds other files that may be genotype data, beside the one read', async () => {
    const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', 'genotypes', name));
    const vcf = fixture('vcf_single.vcf');
    const chip = fixture('23andme_v5.txt');
    // One genome split one VCF per chromosome (the larger is read), with a README that is no genotype file.
    const split = await parseGenotypeBytes(
      zipSync({ 'genome/chr1.vcf': vcf, 'genome/chr22.vcf': vcf.subarray(0, 700), 'genome/README.txt': enc('About') }),
    );
    if (!split.ok) throw new Error(split.reason);
    expect(split.summary.notes).toContain(
      'The zip archive holds another file that may be genotype data ("genome/chr22.vcf"); only "genome/chr1.vcf", the largest, was read, and the results rest on it alone. ' +
        'If the others are more of your data (one file per chromosome, say), combine them into one file (for VCFs: bcftools concat) and upload that; if they are other people’s, upload each for its own profile.',
    );
    // A download with its README and a PDF says nothing of the kind.
    const single = await parseGenotypeBytes(
      zipSync({ 'genome.txt': chip, 'README.txt': enc('x'), 'report.pdf': enc('x') }),
    );
    if (!single.ok) throw new Error(single.reason);
    expect(single.summary.notes.join('\n')).not.toMatch(/may be genotype data/);
  });

  it('keeps the header build when too few known markers disagree with it, and says so', async () => {
    const text = ['# reference human assembly build 37', 'rs12913832 15 28120472 AG', 'rs4778138 15 28090674 AA'].join(
      '\n',
    );
    const r = await parseGenotypeBytes(enc(text));
    if (!r.ok) throw new Error(r.reason);
    expect(r.summary.build).toBe(37);
    expect(r.summary.build_source).toBe('header');
    expect(r.summary.notes.join('\n')).toContain('too few to overrule the header');
  });
});

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let k = 0; k < needle.length; k++) if (hay[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}
