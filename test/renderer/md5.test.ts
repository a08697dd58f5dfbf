/** The renderer's MD5 matches Node's for the sizes around the padding boundaries. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5 } from '../../src/renderer/src/lib/md5.js';

describe('md5', () => {
  it('equals node:crypto for empty, padding-edge and multi-block inputs', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_003]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
      expect(Buffer.from(md5(bytes)).toString('hex'), `${n} bytes`).toBe(createHash('md5').update(bytes).digest('hex'));
    }
  });
});
