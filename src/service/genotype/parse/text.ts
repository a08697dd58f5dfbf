/**
 * Turns the raw bytes of the genotype member into ASCII-compatible text bytes: strips a
 * UTF-8 BOM, transcodes UTF-16 (LE or BE, with or without BOM) by keeping code units below
 * 0x80 and replacing the rest with '?' (only comments ever hold non-ASCII text), and
 * rejects content that is plainly binary. Latin-1 and UTF-8 pass through unchanged: the
 * parser only interprets ASCII bytes.
 */
import { fail } from './errors.js';

export interface ByteSink {
  push: (chunk: Uint8Array) => void;
  end: () => void;
}

const SNIFF_BYTES = 4096;

type Encoding = 'utf8' | 'utf16le' | 'utf16be';

export class TextDecoderStage implements ByteSink {
  /** Text bytes passed on so far, and the offset of the first NUL byte among them (-1: none). */
  textBytes = 0;
  binaryFrom = -1;
  private head: Uint8Array[] = [];
  private headLen = 0;
  private encoding: Encoding | null = null;
  private odd = -1; // a UTF-16 byte left over from the previous chunk
  private firstOut = true; // the first transcoded UTF-16 text still has to pass the binary check

  constructor(private readonly out: ByteSink) {}

  push(chunk: Uint8Array): void {
    if (this.encoding === null) {
      this.head.push(chunk.slice());
      this.headLen += chunk.length;
      if (this.headLen < SNIFF_BYTES) return;
      this.start();
      return;
    }
    this.forward(chunk);
  }

  end(): void {
    if (this.encoding === null) this.start();
    this.out.end();
  }

  private start(): void {
    const head = concat(this.head, this.headLen);
    this.head = [];
    let body = head;
    if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
      this.encoding = 'utf8';
      body = head.subarray(3);
    } else if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) {
      this.encoding = 'utf16le';
      body = head.subarray(2);
    } else if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) {
      this.encoding = 'utf16be';
      body = head.subarray(2);
    } else {
      this.encoding = sniffUtf16(head) ?? 'utf8';
    }
    if (this.encoding === 'utf8') checkNotBinary(body);
    this.forward(body);
  }

  private forward(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.encoding === 'utf8') {
      this.count(chunk);
      this.out.push(chunk);
      return;
    }
    const le = this.encoding === 'utf16le';
    const total = chunk.length + (this.odd >= 0 ? 1 : 0);
    const out = new Uint8Array(total >> 1);
    let o = 0;
    let i = 0;
    if (this.odd >= 0) {
      out[o++] = unit(le ? this.odd : chunk[0], le ? chunk[0] : this.odd);
      i = 1;
      this.odd = -1;
    }
    for (; i + 1 < chunk.length; i += 2) out[o++] = unit(le ? chunk[i] : chunk[i + 1], le ? chunk[i + 1] : chunk[i]);
    if (i < chunk.length) this.odd = chunk[i];
    if (o === 0) return;
    if (o < out.length) throw new Error('UTF-16 transcoding miscounted');
    if (this.firstOut) {
      this.firstOut = false;
      checkNotBinary(out);
    }
    this.count(out);
    this.out.push(out);
  }

  /** Binary data after the first 4 KiB (which checkNotBinary vets): noted, see index.ts. */
  private count(text: Uint8Array): void {
    if (this.binaryFrom < 0) {
      // Buffer's indexOf is memchr; a typed array's is a loop of ~0.7 ms per MiB (a third of the plain parse).
      const nul = Buffer.from(text.buffer, text.byteOffset, text.byteLength).indexOf(0);
      if (nul >= 0) this.binaryFrom = this.textBytes + nul;
    }
    this.textBytes += text.length;
  }
}

function unit(lo: number, hi: number): number {
  if (hi !== 0) return 0x3f;
  return lo < 0x80 ? lo : 0x3f;
}

/** UTF-16 without a BOM: ASCII text shows a zero byte in every other position. */
function sniffUtf16(head: Uint8Array): Encoding | null {
  const n = Math.min(head.length, 512) & ~1;
  if (n < 8) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenZero++;
    if (head[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero > pairs * 0.9 && evenZero < pairs * 0.1) return 'utf16le';
  if (evenZero > pairs * 0.9 && oddZero < pairs * 0.1) return 'utf16be';
  return null;
}

/**
 * Text files have no NUL bytes and few control characters. Anything else (an image, a
 * PDF's binary streams, random bytes, an executable) is refused before line parsing.
 */
function checkNotBinary(head: Uint8Array): void {
  const n = Math.min(head.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i];
    if (b === 0) return notText();
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1a) control++;
  }
  if (control > 0 && control > n * 0.01) notText();
}

function notText(): never {
  fail(
    'This file is not a text file (it contains binary data), so it cannot be a raw genotype download. ' +
      'Upload the raw data text file from your testing company, or the .zip or .gz it came in.',
  );
}

export function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
