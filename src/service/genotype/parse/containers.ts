/**
 * Finding the genotype text inside whatever wraps it: gzip (single or multi-member, BGZF
 * included), tar (inside gzip), or nothing. Each stage is a push-based ByteSink, so the
 * whole chain streams with bounded memory. Zip needs random access and lives in zip.ts.
 */
import { Gunzip } from 'fflate';
import { fail } from './errors.js';
import type { ByteSink } from './text.js';
import { concat } from './text.js';
import { isJunkMemberName } from './members.js';

/** Compressed input is fed to the inflater in slices this small, so one push can never
 * expand past ~1032 × this size (deflate's maximum ratio) before we can count it. */
const INFLATE_SLICE = 32 << 10;
/** Above this much output, a compression ratio beyond BOMB_RATIO is treated as a bomb. */
const BOMB_MIN_OUTPUT = 64 << 20;
const BOMB_RATIO = 200;

export interface ContainerContext {
  /** Containers unwrapped, outermost first: "gzip", "tar", "zip". */
  layers: string[];
  maxDecompressedBytes: number;
  decompressed: number;
  /** Set once the genotype member has been fully read; readers may stop early. */
  done: boolean;
  /** Builds the text stage when the sniffer decides the bytes are text. */
  textSink: () => ByteSink;
  notes: string[];
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
      fail(`This file is compressed with ${name}, which Traitscope cannot open. Extract it and upload the text file inside, or compress it as .zip or .gz.`);
  if (startsWith(b, ascii('BAM\u0001')) || startsWith(b, ascii('CRAM')))
    fail('This is a sequencing alignment file (BAM/CRAM), not a genotype file. Upload a VCF or the raw data text download instead.');
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0]))
    fail('This is a Microsoft Office document, not genotype data. If your genotypes are in a spreadsheet, save it as CSV or tab-separated text and upload that.');
}

const SNIFF = 512;

/**
 * Looks at the first bytes of a stream and routes it: gzip → inflate and sniff again,
 * tar → pick the genotype member, zip inside a stream → refuse, text → the text stage.
 */
export class Sniffer implements ByteSink {
  private head: Uint8Array[] = [];
  private headLen = 0;
  private next: ByteSink | null = null;

  constructor(
    private readonly ctx: ContainerContext,
    private readonly depth: number,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.next) return this.next.push(chunk);
    this.head.push(chunk);
    this.headLen += chunk.length;
    if (this.headLen >= SNIFF) this.route();
  }

  end(): void {
    if (!this.next) {
      if (this.headLen === 0) {
        if (this.depth === 0) fail('The file is empty (0 bytes). Upload the raw data file from your testing company.');
        fail('The archive\'s genotype file is empty. Download the raw data again from your testing company.');
      }
      this.route();
    }
    this.next!.end();
  }

  private route(): void {
    const head = concat(this.head, this.headLen);
    this.head = [];
    if (this.depth > 3) fail('The file is wrapped in too many layers of compression. Extract it and upload the text file inside.');
    if (isGzip(head)) {
      this.ctx.layers.push('gzip');
      this.next = new GunzipStage(this.ctx, new Sniffer(this.ctx, this.depth + 1));
    } else if (isTar(head)) {
      this.ctx.layers.push('tar');
      this.next = new TarStage(this.ctx, this.depth);
    } else if (isZip(head)) {
      fail('This file holds a .zip archive inside another archive. Extract it and upload the genotype text file or the inner .zip directly.');
    } else {
      rejectKnownBinary(head);
      this.next = this.ctx.textSink();
    }
    this.next.push(head);
  }
}

/** Streaming gunzip with a decompressed-size budget and a compression-ratio bomb check. */
export class GunzipStage implements ByteSink {
  private readonly gz: Gunzip;
  private input = 0;
  private output = 0;
  /** Output of the current gzip member, and the last 8 input bytes (its trailer, once complete). */
  private memberOutput = 0;
  private readonly tail = new Uint8Array(8);

  constructor(
    private readonly ctx: ContainerContext,
    private readonly out: ByteSink,
  ) {
    this.gz = new Gunzip((data) => this.onData(data));
    this.gz.onmember = () => {
      this.memberOutput = 0;
    };
  }

  private onData(data: Uint8Array): void {
    if (data.length === 0) return;
    this.output += data.length;
    this.memberOutput += data.length;
    this.ctx.decompressed += data.length;
    if (this.ctx.decompressed > this.ctx.maxDecompressedBytes)
      fail(
        `The compressed file expands to more than ${formatBytes(this.ctx.maxDecompressedBytes)}, far more than any genotype file. ` +
          'It may be a decompression bomb or not a genotype file; upload the raw data download from your testing company.',
      );
    if (this.output > BOMB_MIN_OUTPUT && this.output > this.input * BOMB_RATIO)
      fail(
        'The compressed file expands more than 200-fold, which genotype data never does: it looks like a decompression bomb, so it was not read. ' +
          'Upload the raw data download from your testing company.',
      );
    this.out.push(data);
  }

  push(chunk: Uint8Array): void {
    if (chunk.length >= 8) this.tail.set(chunk.subarray(chunk.length - 8));
    else {
      this.tail.copyWithin(0, chunk.length);
      this.tail.set(chunk, 8 - chunk.length);
    }
    for (let off = 0; off < chunk.length && !this.ctx.done; off += INFLATE_SLICE) {
      const slice = chunk.subarray(off, Math.min(chunk.length, off + INFLATE_SLICE));
      this.input += slice.length;
      inflateGuard(() => this.gz.push(slice, false), 'gzip');
    }
  }

  end(): void {
    if (!this.ctx.done) {
      inflateGuard(() => this.gz.push(new Uint8Array(0), true), 'gzip');
      // fflate does not check the trailer; its size field (ISIZE, the member's length
      // mod 2^32) tells whether the last member arrived whole.
      const t = this.tail;
      const isize = (t[4] | (t[5] << 8) | (t[6] << 16) | (t[7] << 24)) >>> 0;
      if (this.input < 18 || isize !== this.memberOutput % 0x100000000)
        fail('The gzip file is truncated (it ends before its compressed data does): the download or copy was incomplete. Download the file again and upload the complete file.');
    }
    this.out.end();
  }
}

/** Runs an fflate call and turns its errors into sentences. ParseErrors pass through. */
export function inflateGuard(fn: () => void, what: string): void {
  try {
    fn();
  } catch (e) {
    if (e instanceof Error && e.name === 'ParseError') throw e;
    const msg = e instanceof Error ? e.message : String(e);
    if (/unexpected EOF/i.test(msg))
      fail(`The ${what} file is truncated (it ends before its compressed data does): the download or copy was incomplete. Download the file again and upload the complete file.`);
    fail(`The ${what} data is corrupt (${msg}). Download the file again and upload it unchanged.`);
  }
}

export function formatBytes(n: number): string {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(n % (1 << 30) === 0 ? 0 : 1)} GiB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(n % (1 << 20) === 0 ? 0 : 1)} MiB`;
  return `${n} bytes`;
}

/**
 * Minimal streaming reader of ustar/GNU tar: reads 512-byte headers, skips everything but
 * the first regular file that looks like genotype data, and streams that member onward.
 */
class TarStage implements ByteSink {
  private header = new Uint8Array(512);
  private headerLen = 0;
  /** Bytes of the current entry's content still to come, and padding after it. */
  private remaining = 0;
  private padding = 0;
  private mode: 'header' | 'skip' | 'member' | 'longname' | 'finished' = 'header';
  private member: ByteSink | null = null;
  private chosen = false;
  private longName: number[] = [];
  private pendingLongName: string | null = null;
  private seen: string[] = [];
  private zeroBlocks = 0;

  constructor(
    private readonly ctx: ContainerContext,
    private readonly depth: number,
  ) {}

  push(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length && !this.ctx.done) {
      if (this.mode === 'finished') return;
      if (this.mode === 'header') {
        const take = Math.min(512 - this.headerLen, chunk.length - i);
        this.header.set(chunk.subarray(i, i + take), this.headerLen);
        this.headerLen += take;
        i += take;
        if (this.headerLen === 512) {
          this.headerLen = 0;
          this.onHeader();
        }
        continue;
      }
      const take = Math.min(this.remaining, chunk.length - i);
      if (take > 0) {
        const part = chunk.subarray(i, i + take);
        if (this.mode === 'member') this.member!.push(part);
        else if (this.mode === 'longname' && this.longName.length < 4096) this.longName.push(...part.subarray(0, 4096));
        this.remaining -= take;
        i += take;
      }
      if (this.remaining === 0) {
        const skipPad = Math.min(this.padding, chunk.length - i);
        this.padding -= skipPad;
        i += skipPad;
        if (this.padding === 0) this.entryDone();
      }
    }
  }

  private entryDone(): void {
    if (this.mode === 'member') {
      this.member!.end();
      this.member = null;
      this.ctx.done = true;
      this.mode = 'finished';
      return;
    }
    if (this.mode === 'longname') {
      this.pendingLongName = String.fromCharCode(...this.longName).replace(/\0.*$/s, '');
      this.longName = [];
    }
    this.mode = 'header';
  }

  private onHeader(): void {
    const h = this.header;
    if (h.every((b) => b === 0)) {
      if (++this.zeroBlocks >= 2) this.mode = 'finished';
      return;
    }
    this.zeroBlocks = 0;
    let sum = 0;
    for (let k = 0; k < 512; k++) sum += k >= 148 && k < 156 ? 0x20 : h[k];
    const stored = parseOctal(h, 148, 8);
    if (stored !== sum) fail('The .tar archive is corrupt (a header checksum does not match). Download the file again and upload it unchanged.');
    const size = parseTarSize(h);
    const type = h[156];
    let name = cString(h, 0, 100);
    if (isTar(h)) {
      const prefix = cString(h, 345, 155);
      if (prefix) name = `${prefix}/${name}`;
    }
    if (this.pendingLongName !== null) {
      name = this.pendingLongName;
      this.pendingLongName = null;
    }
    this.remaining = size;
    this.padding = (512 - (size % 512)) % 512;
    const regular = type === 0 || type === 0x30 || type === 0x37;
    if (type === 0x4c /* GNU long name */) this.mode = 'longname';
    else if (regular && !this.chosen && size > 0 && !isJunkMemberName(name)) {
      this.chosen = true;
      this.mode = 'member';
      this.member = new Sniffer(this.ctx, this.depth + 1);
      this.ctx.notes.push(`Read "${name}" from the tar archive.`);
    } else {
      if (regular) this.seen.push(name);
      this.mode = 'skip';
    }
    if (this.remaining === 0 && this.padding === 0) this.entryDone();
  }

  end(): void {
    if (this.ctx.done) return;
    if (this.mode === 'member') fail('The .tar archive is truncated inside the genotype file. Download the file again and upload the complete file.');
    if (!this.chosen) {
      const listed = this.seen.length > 0 ? ` (it contains: ${this.seen.slice(0, 5).join(', ')})` : '';
      fail(`The .tar archive holds no genotype file${listed}. Upload the raw data text file from your testing company.`);
    }
  }
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
    if (c === 0 || c === 0x20) {
      if (v > 0 || k > at) continue;
      continue;
    }
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
  if (v < 0) fail('The .tar archive is corrupt (an entry size is unreadable). Download the file again and upload it unchanged.');
  return v;
}
