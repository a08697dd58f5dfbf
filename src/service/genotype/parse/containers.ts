/**
 * Finding the genotype text inside whatever wraps it: gzip (single or multi-member, BGZF
 * included), tar (inside gzip), or nothing; zip.ts does zip. Stages are async iterators
 * of byte chunks, so the chain streams with bounded memory, and inflating (Node's zlib,
 * on the thread pool) overlaps with parsing.
 */
import type { Transform, Writable } from 'node:stream';
import { createGunzip, createInflateRaw } from 'node:zlib';
import { fail, ParseError } from './errors.js';
import { formatBytes } from '../../../shared/format-bytes.js';
import { isJunkMemberName } from './members.js';
import type { ByteSink } from './text.js';
import { concat } from './text.js';

export type Chunks = AsyncIterable<Uint8Array>;

/** Above this much output, a compression ratio beyond BOMB_RATIO is treated as a bomb. */
const BOMB_MIN_OUTPUT = 64 << 20;
const BOMB_RATIO = 200;
const INFLATE_CHUNK = 1 << 20;
/**
 * Chunks four times as large for text of LARGE_TEXT_BYTES or more (a sequencing VCF): every
 * chunk zlib finishes waits for this thread to start the next one, and on a loaded machine
 * each such wait costs a wake-up. A 200 MB VCF parsed 15 % faster in CPU and wall time
 * (alternated in one process); chip files keep 1 MiB, which holds their peak RSS down.
 */
const LARGE_INFLATE_CHUNK = 4 << 20;
const LARGE_TEXT_BYTES = 64 << 20;
/**
 * Inflated chunks zlib may hold ready for the parser before it pauses: two decouple the
 * threads as well as four did, with 5-10 MiB less peak RSS on the 960k files.
 */
const OUTPUT_QUEUE_CHUNKS = 2;
/** Inflated text is parsed in pieces this large, with an event-loop turn before each. */
const PIECE = 128 << 10;

export interface ContainerContext {
  /** Containers unwrapped, outermost first: "gzip", "tar", "zip". */
  layers: string[];
  maxDecompressedBytes: number;
  decompressed: number;
  notes: string[];
  /** The text the file is expected to hold, when known (gzip trailer, zip directory): sizes inflate chunks. */
  expectedTextBytes?: number;
}

function startsWith(b: Uint8Array, sig: number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
}
function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

export function isGzip(b: Uint8Array): boolean {
  return startsWith(b, [0x1f, 0x8b]);
}
export function isZip(b: Uint8Array): boolean {
  return startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06]);
}
function isTar(b: Uint8Array): boolean {
  return startsWith(b, ascii('ustar'), 257);
}

/** Well-known non-text formats, so the user hears what they uploaded instead. */
export function rejectKnownBinary(b: Uint8Array): void {
  const upload = 'Upload the raw data text file from your testing company (or the .zip or .gz it came in).';
  if (startsWith(b, ascii('%PDF'))) fail(`This file is a PDF document, not genotype data. ${upload}`);
  if (
    startsWith(b, [0x89, 0x50, 0x4e, 0x47]) ||
    startsWith(b, [0xff, 0xd8, 0xff]) ||
    startsWith(b, ascii('GIF8')) ||
    (startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8)) ||
    startsWith(b, [0x49, 0x49, 0x2a, 0x00]) ||
    startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])
  )
    fail(`This file is an image, not genotype data. ${upload}`);
  const other: Array<[number[], string]> = [
    [ascii('7z'), '7-Zip'],
    [ascii('Rar!'), 'RAR'],
    [ascii('BZh'), 'bzip2'],
    [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz'],
    [[0x28, 0xb5, 0x2f, 0xfd], 'Zstandard'],
  ];
  for (const [sig, name] of other)
    if (startsWith(b, sig))
      fail(
        `This file is compressed with ${name}, which Traitscope cannot open. Extract it and upload the text file inside, or compress it as .zip or .gz.`,
      );
  if (startsWith(b, ascii('BAM\u0001')) || startsWith(b, ascii('CRAM')))
    fail(
      'This is a sequencing alignment file (BAM/CRAM), not a genotype file. Upload a VCF or the raw data text download instead.',
    );
  if (startsWith(b, ascii('BCF\u0002')))
    fail(
      'This is a BCF file (a VCF in binary form), which Traitscope does not read. Convert it to a VCF, for example with ' +
        '`bcftools view your-file.bcf -Oz -o your-file.vcf.gz`, and upload that.',
    );
  if (startsWith(b, ascii('TBI\u0001')) || startsWith(b, ascii('CSI\u0001')))
    fail(
      'This is the index of a compressed VCF (a .tbi or .csi file), not the VCF itself: it holds no genotypes. Upload the .vcf.gz file it belongs to.',
    );
  if (startsWith(b, ascii('BAI\u0001')))
    fail(
      'This is the index of a sequencing alignment file (a .bai file), not genotype data. Upload a VCF or the raw data text download instead.',
    );
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0]))
    fail(
      'This is a Microsoft Office document, not genotype data. If your genotypes are in a spreadsheet, save it as CSV or tab-separated text and upload that.',
    );
}

const SNIFF = 512;

/**
 * Looks at the first bytes of a stream and routes it: gzip → inflate and look again,
 * tar → its genotype member, zip inside a stream → refuse, text → `text`.
 */
export async function route(chunks: Chunks, ctx: ContainerContext, depth: number, text: ByteSink): Promise<void> {
  if (depth > 3)
    fail('The file is wrapped in too many layers of compression. Extract it and upload the text file inside.');
  const it = chunks[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headLen = 0;
  let ended = false;
  while (headLen < SNIFF) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    head.push(r.value);
    headLen += r.value.length;
  }
  if (headLen === 0) {
    if (depth === 0) fail('The file is empty (0 bytes). Upload the raw data file from your testing company.');
    fail("The archive's genotype file is empty. Download the raw data again from your testing company.");
  }
  const first = concat(head, headLen);
  const rest: Chunks = {
    async *[Symbol.asyncIterator]() {
      yield first;
      if (ended) return;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield r.value;
      }
    },
  };
  if (isGzip(first)) {
    ctx.layers.push('gzip');
    return route(inflate(rest, ctx, 'gzip'), ctx, depth + 1, text);
  }
  if (isTar(first)) {
    ctx.layers.push('tar');
    return route(tarMember(rest, ctx), ctx, depth + 1, text);
  }
  if (isZip(first))
    fail(
      'This file holds a .zip archive inside another archive. Extract it and upload the genotype text file or the inner .zip directly.',
    );
  rejectKnownBinary(first);
  for await (const chunk of rest) text.push(chunk);
  text.end();
}

/**
 * Inflates a gzip stream (all members; zlib checks each trailer) or a raw deflate stream
 * (a zip member), counting output against the budget and the bomb ratio.
 *
 * zlib inflates on the thread pool, but every chunk it finishes needs a turn of this
 * thread's event loop before it starts the next one. So the compressed input is written
 * straight into zlib (no stream plumbing in between), the output waits in zlib's readable
 * buffer (at most OUTPUT_QUEUE_CHUNKS chunks, then zlib pauses), and the inflated text goes to the
 * parser in pieces of PIECE bytes with an event-loop turn before each: zlib is never kept
 * waiting for more than one piece's parsing, so inflating (the slower half) runs nearly
 * without gaps on the second core.
 */
export async function* inflate(input: Chunks, ctx: ContainerContext, kind: 'gzip' | 'zip'): Chunks {
  const chunk = (ctx.expectedTextBytes ?? 0) >= LARGE_TEXT_BYTES ? LARGE_INFLATE_CHUNK : INFLATE_CHUNK;
  const options = { chunkSize: chunk, readableHighWaterMark: chunk, writableHighWaterMark: 1 };
  const z = kind === 'gzip' ? createGunzip(options) : createInflateRaw(options);
  let readError: { error: unknown } | null = null;
  const feeding = (async () => {
    try {
      for await (const chunk of input) {
        if (z.destroyed) return;
        if (!z.write(chunk)) await drained(z);
      }
      if (!z.destroyed) z.end();
    } catch (e) {
      // The compressed source could not be read: that error, not a zlib one, is the answer.
      readError = { error: e };
      z.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  let produced = 0;
  const what = kind === 'gzip' ? 'The compressed file' : 'The zip member';
  try {
    for await (const chunk of inflatedChunks(z, OUTPUT_QUEUE_CHUNKS * options.chunkSize)) {
      produced += chunk.length;
      ctx.decompressed += chunk.length;
      if (ctx.decompressed > ctx.maxDecompressedBytes)
        fail(
          `${what} expands to more than ${formatBytes(ctx.maxDecompressedBytes)}, far more than any genotype file. ` +
            'It may be a decompression bomb or not a genotype file; upload the raw data download from your testing company.',
        );
      // zlib counts the compressed bytes it has consumed: the ratio is exact whatever the input chunks.
      if (produced > BOMB_MIN_OUTPUT && produced > z.bytesWritten * BOMB_RATIO)
        fail(
          `${what} expands more than 200-fold, which genotype data never does: it looks like a decompression bomb, so it was not read. ` +
            'Upload the raw data download from your testing company.',
        );
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
      for (let off = 0; off < bytes.length; off += PIECE) {
        await turn();
        yield bytes.subarray(off, Math.min(bytes.length, off + PIECE));
      }
    }
  } catch (e) {
    if (e instanceof ParseError) throw e;
    if (readError) throw (readError as { error: unknown }).error;
    const err = e as NodeJS.ErrnoException;
    const name = kind === 'gzip' ? 'gzip' : 'zip';
    if (err?.code === 'Z_BUF_ERROR' || /unexpected end/i.test(err?.message ?? ''))
      fail(
        `The ${name} file is truncated (it ends before its compressed data does): the download or copy was incomplete. Download the file again and upload the complete file.`,
      );
    fail(
      `The ${name} data is corrupt (${err?.message ?? String(e)}). Download the file again and upload it unchanged.`,
    );
  } finally {
    z.destroy();
    await feeding;
  }
}

/**
 * zlib's output chunks one by one, as it made them. A paused stream's async iterator reads
 * whatever is buffered at once, concatenating chunks into a new buffer: a copy of the
 * inflated text, and more memory for the garbage collector to reclaim. In flowing mode
 * each chunk arrives as it is; the stream is paused while `queueBytes` wait.
 */
async function* inflatedChunks(z: Transform, queueBytes: number): AsyncIterable<Buffer> {
  const waiting: Buffer[] = [];
  let queued = 0;
  let ended = false;
  let failure: { error: unknown } | null = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  z.on('data', (chunk: Buffer) => {
    waiting.push(chunk);
    queued += chunk.length;
    if (queued >= queueBytes) z.pause();
    signal();
  });
  z.on('end', () => {
    ended = true;
    signal();
  });
  z.on('error', (error) => {
    failure ??= { error };
    signal();
  });
  z.on('close', () => {
    if (!ended) failure ??= { error: new Error('the inflate stream closed before its end') };
    signal();
  });
  for (;;) {
    const chunk = waiting.shift();
    if (chunk === undefined) {
      if (failure) throw (failure as { error: unknown }).error;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    queued -= chunk.length;
    if (queued < queueBytes && z.isPaused()) z.resume();
    yield chunk;
  }
}

/** Resolves when the stream wants more input, or is gone. */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** One turn of the event loop, so that finished thread-pool work is picked up. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Minimal streaming reader of ustar/GNU tar: reads 512-byte headers, skips everything but
 * the first regular file that looks like genotype data, and yields that member's bytes.
 */
export async function* tarMember(input: Chunks, ctx: ContainerContext): Chunks {
  const header = new Uint8Array(512);
  let headerLen = 0;
  let remaining = 0;
  let padding = 0;
  let mode: 'header' | 'skip' | 'member' | 'longname' = 'header';
  let longName: number[] = [];
  let pendingLongName: string | null = null;
  const seen: string[] = [];
  let zeroBlocks = 0;

  for await (const chunk of input) {
    let i = 0;
    while (i < chunk.length) {
      if (mode === 'header') {
        const take = Math.min(512 - headerLen, chunk.length - i);
        header.set(chunk.subarray(i, i + take), headerLen);
        headerLen += take;
        i += take;
        if (headerLen < 512) continue;
        headerLen = 0;
        if (header.every((b) => b === 0)) {
          if (++zeroBlocks >= 2) return noMember(seen);
          continue;
        }
        zeroBlocks = 0;
        const entry = readTarHeader(header, pendingLongName);
        pendingLongName = null;
        remaining = entry.size;
        padding = (512 - (entry.size % 512)) % 512;
        if (entry.type === 0x4c /* GNU long name: the next entry's name */) mode = 'longname';
        else if (entry.regular && entry.size > 0 && !isJunkMemberName(entry.name)) {
          mode = 'member';
          ctx.notes.push(`Read "${entry.name}" from the tar archive.`);
        } else {
          if (entry.regular) seen.push(entry.name);
          mode = 'skip';
        }
        continue;
      }
      const take = Math.min(remaining, chunk.length - i);
      if (take > 0) {
        const part = chunk.subarray(i, i + take);
        if (mode === 'member') yield part;
        else if (mode === 'longname' && longName.length < 4096)
          longName.push(...part.subarray(0, 4096 - longName.length));
        remaining -= take;
        i += take;
      }
      if (remaining === 0) {
        if (mode === 'member') return; // the genotype member is complete; the rest is not needed
        const skip = Math.min(padding, chunk.length - i);
        padding -= skip;
        i += skip;
        if (padding === 0) {
          if (mode === 'longname') {
            pendingLongName = String.fromCharCode(...longName).replace(/\0[\s\S]*$/, '');
            longName = [];
          }
          mode = 'header';
        }
      }
    }
  }
  if (mode === 'member' && remaining > 0)
    fail(
      'The .tar archive is truncated inside the genotype file. Download the file again and upload the complete file.',
    );
  noMember(seen);
}

function noMember(seen: string[]): never {
  const listed = seen.length > 0 ? ` (it contains: ${seen.slice(0, 5).join(', ')})` : '';
  fail(`The .tar archive holds no genotype file${listed}. Upload the raw data text file from your testing company.`);
}

interface TarEntry {
  name: string;
  size: number;
  type: number;
  regular: boolean;
}

function readTarHeader(h: Uint8Array, longName: string | null): TarEntry {
  let sum = 0;
  for (let k = 0; k < 512; k++) sum += k >= 148 && k < 156 ? 0x20 : h[k];
  if (parseOctal(h, 148, 8) !== sum)
    fail(
      'The .tar archive is corrupt (a header checksum does not match). Download the file again and upload it unchanged.',
    );
  let name = cString(h, 0, 100);
  if (isTar(h)) {
    const prefix = cString(h, 345, 155);
    if (prefix) name = `${prefix}/${name}`;
  }
  const type = h[156];
  return { name: longName ?? name, size: parseTarSize(h), type, regular: type === 0 || type === 0x30 || type === 0x37 };
}

function cString(b: Uint8Array, at: number, len: number): string {
  let end = at;
  while (end < at + len && b[end] !== 0) end++;
  return new TextDecoder('utf-8').decode(b.subarray(at, end));
}

function parseOctal(b: Uint8Array, at: number, len: number): number {
  let v = 0;
  for (let k = at; k < at + len; k++) {
    const c = b[k];
    if (c === 0 || c === 0x20) continue;
    if (c < 0x30 || c > 0x37) return -1;
    v = v * 8 + (c - 0x30);
  }
  return v;
}

/** Size field: octal, or GNU base-256 for sizes of 8 GiB and more. */
function parseTarSize(h: Uint8Array): number {
  if (h[124] & 0x80) {
    let v = 0;
    for (let k = 125; k < 136; k++) v = v * 256 + h[k];
    return v;
  }
  const v = parseOctal(h, 124, 12);
  if (v < 0)
    fail('The .tar archive is corrupt (an entry size is unreadable). Download the file again and upload it unchanged.');
  return v;
}
