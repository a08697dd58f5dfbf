/**
 * The digest thread (src/service/storage/upload-digests.ts): it hashes a file as it grows,
 * read back from disk, and answers the MD5 and CRC32C of exactly the bytes it was told of.
 * A file never told of as growing and of at most INLINE_BYTES is hashed on the calling
 * thread instead, with the same answers and the same failures.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32c } from '@node-rs/crc32';
import { afterAll, describe, expect, it } from 'vitest';
import { createUploadDigester, INLINE_BYTES } from '../../src/service/storage/upload-digests.js';

const dir = mkdtempSync(path.join(tmpdir(), 'traitscope-digests-'));
const digester = createUploadDigester({ nice: 10 });
afterAll(async () => {
  await digester.close();
  rmSync(dir, { recursive: true, force: true });
});

function expected(bytes: Buffer) {
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32c(bytes) >>> 0);
  return { md5: createHash('md5').update(bytes).digest('base64'), crc32c: crc.toString('base64') };
}

/** Deterministic bytes that differ block to block. */
function bytesOf(length: number, seed: number): Buffer {
  const b = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) b[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return b;
}

describe('upload digests', () => {
  it('hashes a file told of as it grows, in steps that do not fall on its 1 MiB read blocks', async () => {
    const file = path.join(dir, 'growing');
    const content = bytesOf(5 * 1024 * 1024 + 12345, 1);
    writeFileSync(file, '');
    const followed = digester.follow(file);
    for (const end of [700_000, 2_500_000, 4_000_001, content.length]) {
      appendFileSync(file, content.subarray(statSync(file).size, end));
      followed.written(end);
    }
    expect(await followed.end(content.length)).toEqual(expected(content));
  });

  it('answers for the bytes it was told of, several files at once', async () => {
    const files = [0, 1, 2].map((i) => ({
      file: path.join(dir, `file-${i}`),
      content: bytesOf(300_000 * (i + 1), i + 7),
    }));
    for (const f of files) writeFileSync(f.file, f.content);
    const answers = await Promise.all(files.map((f) => digester.follow(f.file).end(f.content.length)));
    expect(answers).toEqual(files.map((f) => expected(f.content)));
  });

  it('hashes an empty file', async () => {
    const file = path.join(dir, 'empty');
    writeFileSync(file, '');
    expect(await digester.follow(file).end(0)).toEqual(expected(Buffer.alloc(0)));
  });

  it('fails with the reason when the file is shorter than said, and keeps serving others', async () => {
    const file = path.join(dir, 'short');
    writeFileSync(file, bytesOf(1000, 3));
    await expect(digester.follow(file).end(2000)).rejects.toThrow(
      /checksums could not be computed: the file ends at 1000 bytes, before 2000/,
    );
    const other = path.join(dir, 'after-failure');
    const content = bytesOf(4096, 4);
    writeFileSync(other, content);
    expect(await digester.follow(other).end(content.length)).toEqual(expected(content));
  });

  it('hashes a file larger than what it hashes inline, told of only at its end, on the thread', async () => {
    const file = path.join(dir, 'large-at-once');
    const content = bytesOf(INLINE_BYTES + 4321, 8);
    writeFileSync(file, content);
    expect(await digester.follow(file).end(content.length)).toEqual(expected(content));
    const atLimit = path.join(dir, 'at-limit');
    const limit = bytesOf(INLINE_BYTES, 9);
    writeFileSync(atLimit, limit);
    expect(await digester.follow(atLimit).end(limit.length)).toEqual(expected(limit));
  });

  it('fails with the reason when a large file is shorter than said, on the thread too', async () => {
    const file = path.join(dir, 'large-short');
    writeFileSync(file, bytesOf(INLINE_BYTES + 1000, 10));
    await expect(digester.follow(file).end(INLINE_BYTES + 2000)).rejects.toThrow(
      new RegExp(
        `checksums could not be computed: the file ends at ${INLINE_BYTES + 1000} bytes, before ${INLINE_BYTES + 2000}`,
      ),
    );
  });

  it('fails with the reason when the file is missing', async () => {
    await expect(digester.follow(path.join(dir, 'never-written')).end(10)).rejects.toThrow(
      /checksums could not be computed: .*no such file/i,
    );
  });

  it('forgets a cancelled file and stays ready for the next', async () => {
    const file = path.join(dir, 'cancelled');
    writeFileSync(file, bytesOf(100_000, 5));
    const followed = digester.follow(file);
    followed.written(50_000);
    followed.cancel();
    const next = path.join(dir, 'next');
    const content = bytesOf(10_000, 6);
    writeFileSync(next, content);
    expect(await digester.follow(next).end(content.length)).toEqual(expected(content));
  });
});
