/**
 * Random-access byte sources: a file on disk (read in chunks, never whole) or bytes in
 * memory (tests). Zip archives need random access to their central directory; everything
 * else is streamed front to back.
 */
import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

export interface ByteSource {
  readonly size: number;
  /** Bytes still arriving front to back (an upload being received): reading the end waits for all of them. */
  readonly growing?: boolean;
  /** Up to `length` bytes at `offset`, in a fresh buffer the caller may keep. */
  read: (offset: number, length: number) => Promise<Uint8Array>;
  /** Up to `into.length` bytes at `offset` into the caller's buffer; resolves to the count read. */
  readInto?: (offset: number, into: Uint8Array) => Promise<number>;
  /** As readInto, at once (a file on disk; never a growing source, whose reads wait): for text read straight into the parser's buffer. */
  readIntoNow?: (offset: number, into: Uint8Array) => number;
  close: () => Promise<void>;
}

export const READ_CHUNK = 1 << 20;

/**
 * Plain text read at once (readIntoNow) comes in pieces this large: the kernel's copy and
 * then the parse stay in the core's cache. On the 2-core AMD EPYC build machine, reading a
 * 263 MB file in 128 KiB pieces took 30-35 ms of CPU, in 256 KiB or 1 MiB pieces 110-130 ms.
 */
export const READ_NOW_BYTES = 128 << 10;

/**
 * Lends readRange the buffer the text is parsed in (the WebAssembly core's input window,
 * wasm/core.ts), so plain text is read straight there instead of copied in.
 */
export interface ReadLender {
  /** A buffer for the next piece, used up before the next call; null: readRange's own buffer. */
  lend: () => Uint8Array | null;
  /** The last piece was parsed (or the reading stopped). */
  done: () => void;
}

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
      readIntoNow: (offset, into) =>
        fillNow(fh.fd, offset, into.subarray(0, Math.max(0, Math.min(into.length, size - offset)))),
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

function fillNow(fd: number, offset: number, buf: Uint8Array): number {
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, offset + got);
    if (n === 0) break;
    got += n;
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
 *
 * `lender` (with `reuse`, from a file): the text is read at once, READ_NOW_BYTES a piece,
 * into the lender's buffer where it has one. Reading at once gives up overlapping the
 * next read with the parse, but a piece read straight where it is parsed, while it is in
 * cache, costs less CPU than a mebibyte read by the thread pool and copied in.
 */
export async function* readRange(
  src: ByteSource,
  from: number,
  to: number,
  reuse = false,
  lender?: ReadLender,
): AsyncIterable<Uint8Array> {
  const readNow = reuse && lender && !src.growing ? src.readIntoNow : undefined;
  if (readNow && lender) {
    yield* readRangeNow(readNow, from, to, lender);
    return;
  }
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

async function* readRangeNow(
  readNow: NonNullable<ByteSource['readIntoNow']>,
  from: number,
  to: number,
  lender: ReadLender,
): AsyncIterable<Uint8Array> {
  const own = new Uint8Array(READ_NOW_BYTES);
  try {
    for (let off = from; off < to;) {
      const buf = lender.lend() ?? own;
      const n = readNow(off, buf.subarray(0, Math.min(READ_NOW_BYTES, buf.length, to - off)));
      if (n === 0) return;
      off += n;
      yield buf.subarray(0, n);
    }
  } finally {
    lender.done();
  }
}
