/** The renderer's file checks before an import: MD5 as the service stores it, and a cut-off last line. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cutOffLastLine, fileMd5Base64, md5 } from '../../src/renderer/src/lib/md5.js';

describe('md5', () => {
  it('equals node:crypto for empty, padding-edge and multi-block inputs', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_003]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
      expect(Buffer.from(md5(bytes)).toString('hex'), `${n} bytes`).toBe(createHash('md5').update(bytes).digest('hex'));
    }
  });

  it('gives a file’s digest in base64, the form of the service’s md5_hash', async () => {
    const text = 'rs1\t1\t100\tAG\n';
    expect(await fileMd5Base64(new Blob([text]))).toBe(createHash('md5').update(text).digest('base64'));
  });
});

describe('cutOffLastLine', () => {
  it('returns the last line of a text file that stops mid-line, and nothing otherwise', async () => {
    expect(await cutOffLastLine(new Blob(['rs1\t1\t100\tAG\nrs2\t1\t2']), 'genome.txt')).toBe('rs2\t1\t2');
    expect(await cutOffLastLine(new Blob(['rs1\t1\t100\tAG\n']), 'genome.txt')).toBeNull();
    expect(await cutOffLastLine(new Blob(['PK\u0003\u0004 binary']), 'genome.zip')).toBeNull();
  });
});
