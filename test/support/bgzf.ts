/**
 * gzip members as bgzip writes them (SAM/BAM format specification, section 4.1): text cut
 * into blocks of 65,280 bytes, each deflated on its own into a member whose "BC" extra
 * subfield states the member's length, and the 28-byte empty member that marks the end.
 * With `bc: false` the same deflate data, checksums and lengths are written as plain
 * members without the extra field: the same file for zlib, which the parser reads on its
 * plain gzip path. Used by the tests and by bench/sequencing.bench.ts.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { concat } from '../fixtures/genotypes/wrap.js';

/** bgzip's text per member. */
export const BGZF_BLOCK_TEXT = 0xff00;

export interface MemberOptions {
  /** Write the BC subfield (BGZF); false: plain gzip members of the same data. */
  bc?: boolean;
  level?: number;
  /** Bytes of text per member (default BGZF_BLOCK_TEXT). */
  blockText?: number;
  /** Extra subfields before BC, as some writers add (default none). */
  leadingSubfield?: boolean;
}

/** One member holding `text` (already deflated as `deflated`). */
export function gzipMember(text: Uint8Array, deflated: Uint8Array, options: MemberOptions = {}): Uint8Array {
  const bc = options.bc ?? true;
  const extra = bc ? (options.leadingSubfield ? [0x58, 0x59, 2, 0, 7, 7] : []).concat([66, 67, 2, 0, 0, 0]) : [];
  const headerLength = 10 + (bc ? 2 + extra.length : 0);
  const member = new Uint8Array(headerLength + deflated.length + 8);
  member.set([0x1f, 0x8b, 8, bc ? 4 : 0, 0, 0, 0, 0, 0, 0xff]);
  if (bc) {
    member[10] = extra.length;
    member.set(extra, 12);
    const bsize = member.length - 1;
    member[12 + extra.length - 2] = bsize & 0xff;
    member[12 + extra.length - 1] = bsize >> 8;
  }
  member.set(deflated, headerLength);
  const view = new DataView(member.buffer);
  view.setUint32(member.length - 8, crc32(text), true);
  view.setUint32(member.length - 4, text.length, true);
  return member;
}

/** Members of `text`, one per block, then the empty end-of-file member. */
export function* gzipBlocks(chunks: Iterable<Uint8Array | string>, options: MemberOptions = {}): Generator<Uint8Array> {
  const blockText = options.blockText ?? BGZF_BLOCK_TEXT;
  const block = new Uint8Array(blockText);
  let filled = 0;
  const encoder = new TextEncoder();
  const flush = (): Uint8Array => {
    const text = block.slice(0, filled);
    filled = 0;
    return gzipMember(text, deflateRawSync(text, { level: options.level ?? 6 }), options);
  };
  for (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    for (let at = 0; at < bytes.length;) {
      const take = Math.min(blockText - filled, bytes.length - at);
      block.set(bytes.subarray(at, at + take), filled);
      filled += take;
      at += take;
      if (filled === blockText) yield flush();
    }
  }
  if (filled > 0) yield flush();
  const empty = new Uint8Array(0);
  yield gzipMember(empty, deflateRawSync(empty), options);
}

/** `text` as one BGZF file (or, with `bc: false`, the same members as plain gzip). */
export function bgzf(text: Uint8Array | string, options: MemberOptions = {}): Uint8Array {
  return concat(...gzipBlocks([text], options));
}

/**
 * `text` both as one BGZF file and as the same members written as plain gzip: each block
 * deflated once for the two (deflating is most of the cost of building them).
 */
export function bgzfForms(
  text: Uint8Array,
  options: Omit<MemberOptions, 'bc'> = {},
): { bgzf: Uint8Array; plain: Uint8Array } {
  const blockText = options.blockText ?? BGZF_BLOCK_TEXT;
  const bgzfMembers: Uint8Array[] = [];
  const plainMembers: Uint8Array[] = [];
  const add = (block: Uint8Array) => {
    const deflated = deflateRawSync(block, { level: options.level ?? 6 });
    bgzfMembers.push(gzipMember(block, deflated, { ...options, bc: true }));
    plainMembers.push(gzipMember(block, deflated, { ...options, bc: false }));
  };
  for (let at = 0; at < text.length; at += blockText) add(text.subarray(at, Math.min(text.length, at + blockText)));
  add(new Uint8Array(0));
  return { bgzf: concat(...bgzfMembers), plain: concat(...plainMembers) };
}

/** A member's header: 10 fixed bytes, then XLEN (2) and the extra field. */
const FIXED_HEADER = 12;
const TRAILER = 8;
const FLG_FEXTRA = 0x04;

/**
 * The length of the BGZF member starting at `at` (header, data and trailer), or -1 when
 * the gzip member there carries no BC subfield (plain gzip) or the header is malformed.
 * Null when `b` ends before the header does.
 */
export function bgzfMemberLength(b: Uint8Array, at = 0): number | null {
  if (b.length - at < FIXED_HEADER) return null;
  if (b[at] !== 0x1f || b[at + 1] !== 0x8b || b[at + 2] !== 8 || (b[at + 3] & FLG_FEXTRA) === 0) return -1;
  const xlen = b[at + 10] | (b[at + 11] << 8);
  if (b.length - at < FIXED_HEADER + xlen) return null;
  const end = at + FIXED_HEADER + xlen;
  for (let p = at + FIXED_HEADER; p + 4 <= end;) {
    const slen = b[p + 2] | (b[p + 3] << 8);
    if (b[p] === 66 /* B */ && b[p + 1] === 67 /* C */ && slen === 2 && p + 6 <= end) {
      const length = (b[p + 4] | (b[p + 5] << 8)) + 1;
      return length >= FIXED_HEADER + xlen + TRAILER ? length : -1;
    }
    p += 4 + slen;
  }
  return -1;
}
