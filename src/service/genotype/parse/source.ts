/**
 * Random-access byte sources: a file on disk (read in chunks, never whole) or bytes in
 * memory (tests). Zip archives need random access to their central directory; everything
 * else is streamed front to back.
 */
import { open, type FileHandle } from 'node:fs/promises';

export interface ByteSource {
  readonly size: number;
  /** Bytes still arriving front to back (an upload being received): reading the end waits for all of them. */
  readonly growing?: boolean;
  /** Up to `length` bytes at `offset`, in a fresh buffer the caller may keep. */
  read: (offset: number, length: number) => Promise<Uint8Array>;
  close: () => Promise<void>;
}

export const READ_CHUNK = 1 << 20;

export async function openFileSource(path: string): Promise<ByteSource> {
  const fh: FileHandle = await open(path, 'r');
  try {
    const st = await fh.stat();
    if (!st.isFile())
      throw Object.assign(new Error(`${path} is not a regular file`), {
        code: st.isDirectory() ? 'EISDIR' : 'ENOTFILE',
      });
    const size = st.size;
    return {
      size,
      read: (offset, length) => readAt(fh, offset, Math.max(0, Math.min(length, size - offset))),
      close: () => fh.close(),
    };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

/** `n` bytes of an open file at `offset` (fewer at its end), in a fresh buffer. */
export async function readAt(fh: FileHandle, offset: number, n: number): Promise<Uint8Array> {
  const buf = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const { bytesRead } = await fh.read(buf, got, n - got, offset + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === n ? buf : buf.subarray(0, got);
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    async read(offset, length) {
      return bytes.slice(offset, Math.min(bytes.length, offset + length));
    },
    async close() {},
  };
}

/**
 * Source bytes [from, to) in chunks. The next read is issued before the current chunk is
 * handed on, so disk reads overlap with parsing.
 */
export async function* readRange(src: ByteSource, from: number, to: number): AsyncIterable<Uint8Array> {
  let off = from;
  const next = (): Promise<Uint8Array> | null => {
    if (off >= to) return null;
    const p = src.read(off, Math.min(READ_CHUNK, to - off));
    // If the consumer stops early (the file was refused), this read is never awaited.
    p.catch(() => undefined);
    return p;
  };
  let pending = next();
  while (pending) {
    const chunk = await pending;
    if (chunk.length === 0) return;
    off += chunk.length;
    pending = next();
    yield chunk;
  }
}
