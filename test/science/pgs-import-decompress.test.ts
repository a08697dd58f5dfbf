/** The read stage of a PGS import: a gzipped scoring file is decompressed with its output capped, so a decompression bomb is refused, not read into memory. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { importPgsScoringFile } from '../../src/service/science/pgs-import.js';
import { decodeScoringFile, MAX_PGS_DECOMPRESSED_BYTES } from '../../src/service/science/pgs-import/read.js';

const MiB = 1024 * 1024;
const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');

describe('PGS scoring file decompression', () => {
  it('refuses a gzip bomb that expands past the cap, saying what it is and what to do', () => {
    // 16 MiB of zeros compresses to about 16 KiB: a ratio no scoring file has.
    const bomb = gzipSync(Buffer.alloc(16 * MiB));
    expect(bomb.length).toBeLessThan(MiB);
    expect(() => decodeScoringFile(bomb, 4 * MiB)).toThrow(
      /expands to more than 4 MiB.*decompression bomb or not a scoring file; download the scoring file/,
    );
  });

  it('reads a file that expands to just under the cap', () => {
    const text = '#pgs_id=PGS0\n' + 'x'.repeat(MiB - 13);
    const gz = gzipSync(Buffer.from(text));
    expect(decodeScoringFile(gz, MiB)).toBe(text);
    expect(() => decodeScoringFile(gz, MiB - 1)).toThrow(/expands to more than/);
  });

  it('refuses an uncompressed file larger than the cap', () => {
    expect(() => decodeScoringFile(new Uint8Array(2 * MiB).fill(0x41), MiB)).toThrow(/larger than 1 MiB/);
  });

  it('still tells a corrupt gzip file apart from a bomb', () => {
    const gz = gzipSync(Buffer.from('#pgs_id=PGS0\nrsID\teffect_allele\teffect_weight\n'));
    gz[gz.length - 5] ^= 0xff; // break the CRC / length trailer
    expect(() => decodeScoringFile(gz)).toThrow(/looks gzipped but could not be decompressed/);
  });

  it('importPgsScoringFile turns a refused decompression into an error result, and keeps the cap below the longest string V8 can hold', () => {
    expect(MAX_PGS_DECOMPRESSED_BYTES).toBeLessThan(2 ** 29 - 24);
    const bytes = readFileSync(join(import.meta.dirname, 'fixtures', 'PGS000001.txt.gz'));
    const truncated = bytes.subarray(0, bytes.length - 40);
    const r = importPgsScoringFile(truncated, { resourcesDir });
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/could not be decompressed/) });
  });
});
