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
  /** Up to `into.length` bytes at `offset` into the caller's buffer; resolves to the count read. */
  readInto?: (offset: number, into: Uint8Array) => Promise<number>;
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
      readInto: (offset, into) =>
        fillAt(fh, offset, into.subarray(0, Math.max(0, Math.min(into.length, size - offset)))),
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
  const got = await fillAt(fh, offset, buf);
  return got === n ? buf : buf.subarray(0, got);
}

/** Fills `buf` from an open file at `offset` (less at its end); resolves to the bytes read. */
export async function fillAt(fh: FileHandle, offset: number, buf: Uint8Array): Promise<number> {
  const n = buf.length;
  let got = 0;
  while (got < n) {
    const { bytesRead } = await fh.read(buf, got, n - got, offset + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
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
 *
 * `reuse`: the consumer is done with each chunk before it asks for the next one (plain text
 * is parsed, and copied where kept, as it comes), so two buffers take turns instead of a
 * fresh one per chunk. A fresh mebibyte per chunk is zeroed, faulted in and left to the
 * garbage collector: on a 250 MB sequencing VCF, a full collection every few dozen chunks.
 * A compressed stream must not reuse: zlib holds its input until it has inflated it.
 */
export async function* readRange(src: ByteSource, from: number, to: number, reuse = false): AsyncIterable<Uint8Array> {
  let off = from;
  const readInto = reuse ? src.readInto : undefined;
  const buffers = readInto ? [new Uint8Array(READ_CHUNK), new Uint8Array(READ_CHUNK)] : [];
  let turn = 0;
  const next = (): Promise<Uint8Array> | null => {
    if (off >= to) return null;
    const length = Math.min(READ_CHUNK, to - off);
    let p: Promise<Uint8Array>;
    if (readInto) {
      const into = buffers[turn++ & 1].subarray(0, length);
      p = readInto(off, into).then((n) => into.subarray(0, n));
    } else p = src.read(off, length);
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
