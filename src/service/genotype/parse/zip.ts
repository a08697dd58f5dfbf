/**
 * Reads the genotype member of a .zip archive: the central directory at the end of the
 * file lists the members; the best candidate (not macOS junk, a text or VCF name, the
 * largest) is streamed through inflate into the next stage. Only stored and deflated
 * members are supported, which is what every genotype download uses. The member's bytes
 * are checked against the CRC-32 and size the archive records for it: a damaged deflate
 * stream can inflate without any error, and a stored member has no other check, so
 * without this a flipped bit could silently change a genotype call.
 */
import { crc32 } from '@node-rs/crc32';
import { inflate, type Chunks, type ContainerContext } from './containers.js';
import { fail } from './errors.js';
import { isJunkMemberName, memberRank } from './members.js';
import { readRange, type ByteSource } from './source.js';

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EXTRA = 0x0001;
const MAX32 = 0xffffffff;
const MAX_ENTRIES = 65535;

interface Entry {
  name: string;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}
function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}
/** A little-endian 64-bit value; beyond 2^53 it is out of range for any file anyway. */
function u64(b: Uint8Array, at: number): number {
  return u32(b, at) + u32(b, at + 4) * 0x1_0000_0000;
}

/**
 * ZIP64 (written by some zip tools whatever the size, e.g. for streamed input): the
 * archive's counts and offsets in the ZIP64 end record, found through the locator just
 * before the classic end record; a member's sizes and offset in its 0x0001 extra field.
 */
async function zip64End(src: ByteSource, tail: Uint8Array, eocd: number) {
  if (eocd < 20 || u32(tail, eocd - 20) !== ZIP64_LOCATOR_SIG) return undefined;
  const at = u64(tail, eocd - 20 + 8);
  if (at + 56 > src.size) corrupt('its ZIP64 table of contents is out of range');
  const rec = await src.read(at, 56);
  if (u32(rec, 0) !== ZIP64_EOCD_SIG) corrupt('its ZIP64 table of contents is missing');
  return { count: u64(rec, 32), cdSize: u64(rec, 40), cdOffset: u64(rec, 48) };
}

function applyZip64Extra(entry: Entry, extra: Uint8Array): void {
  for (let p = 0; p + 4 <= extra.length;) {
    const id = u16(extra, p);
    const len = u16(extra, p + 2);
    if (id === ZIP64_EXTRA) {
      let q = p + 4;
      const end = q + len;
      const take = (): number => {
        if (q + 8 > end || end > extra.length) corrupt('a ZIP64 size field is unreadable');
        const v = u64(extra, q);
        q += 8;
        return v;
      };
      // Present only for the fields whose 32-bit value is the 0xffffffff marker, in this order.
      if (entry.size === MAX32) entry.size = take();
      if (entry.compressedSize === MAX32) entry.compressedSize = take();
      if (entry.localOffset === MAX32) entry.localOffset = take();
      return;
    }
    p += 4 + len;
  }
}

const corrupt = (what: string): never =>
  fail(`The .zip archive is damaged (${what}). Download it again from your testing company and upload it unchanged.`);

export async function listZip(src: ByteSource): Promise<Entry[]> {
  const tailLen = Math.min(src.size, 22 + 0xffff);
  const tail = await src.read(src.size - tailLen, tailLen);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) corrupt('its table of contents is missing; the file may be truncated');
  let count = u16(tail, eocd + 10);
  let cdSize = u32(tail, eocd + 12);
  let cdOffset = u32(tail, eocd + 16);
  const z64 = await zip64End(src, tail, eocd);
  if (z64) ({ count, cdSize, cdOffset } = z64);
  else if (count === 0xffff || cdSize === MAX32 || cdOffset === MAX32)
    corrupt('it is marked as ZIP64 but its ZIP64 table of contents is missing');
  if (count === 0) fail('The .zip archive is empty. Upload the raw data file from your testing company.');
  if (count > MAX_ENTRIES || cdSize > 16 << 20 || cdOffset + cdSize > src.size)
    corrupt('its table of contents is out of range');
  const cd = await src.read(cdOffset, cdSize);
  const entries: Entry[] = [];
  const decoder = new TextDecoder('utf-8');
  for (let p = 0, k = 0; k < count; k++) {
    if (p + 46 > cd.length || u32(cd, p) !== CEN_SIG) corrupt('its table of contents is unreadable');
    const nameLen = u16(cd, p + 28);
    const extraLen = u16(cd, p + 30);
    const commentLen = u16(cd, p + 32);
    if (p + 46 + nameLen > cd.length) corrupt('its table of contents is unreadable');
    const entry: Entry = {
      flags: u16(cd, p + 8),
      method: u16(cd, p + 10),
      crc32: u32(cd, p + 16),
      compressedSize: u32(cd, p + 20),
      size: u32(cd, p + 24),
      localOffset: u32(cd, p + 42),
      name: decoder.decode(cd.subarray(p + 46, p + 46 + nameLen)),
    };
    if (entry.size === MAX32 || entry.compressedSize === MAX32 || entry.localOffset === MAX32)
      applyZip64Extra(entry, cd.subarray(p + 46 + nameLen, p + 46 + nameLen + extraLen));
    entries.push(entry);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The member most likely to be the genotype file, or a failure naming what was there. */
export function chooseMember(entries: Entry[]): Entry {
  const files = entries.filter((e) => !e.name.endsWith('/'));
  if (files.some((e) => e.name === 'xl/workbook.xml'))
    fail(
      'This is an Excel workbook, not a genotype text file. Save the sheet as CSV or tab-separated text and upload that.',
    );
  if (files.some((e) => e.name === 'word/document.xml'))
    fail('This is a Word document, not a genotype file. Upload the raw data text file from your testing company.');
  const candidates = genotypeCandidates(files);
  if (candidates.length === 0) {
    const listed = files.filter((e) => !e.name.includes('__MACOSX')).map((e) => e.name);
    const shown =
      listed.length > 0 ? ` (it contains: ${listed.slice(0, 5).join(', ')}${listed.length > 5 ? ', …' : ''})` : '';
    fail(
      `The .zip archive holds no genotype file${shown}. Upload the zip you downloaded from your testing company, or the raw data text file itself.`,
    );
  }
  candidates.sort((a, b) => memberRank(b.name) - memberRank(a.name) || b.size - a.size);
  return candidates[0];
}

/** The members that may be genotype data: files, not empty, not documents or resource forks. */
function genotypeCandidates(entries: Entry[]): Entry[] {
  return entries.filter((e) => !e.name.endsWith('/') && e.size > 0 && !isJunkMemberName(e.name));
}

/**
 * When the archive holds other files that look as much like genotype data as the one read
 * (a family's downloads zipped together, a genome split one file per chromosome), the note
 * that says so: only one file is read, and the results rest on it alone. Null otherwise.
 */
export function otherMembersNote(entries: Entry[], chosen: Entry): string | null {
  const rank = memberRank(chosen.name);
  const others = genotypeCandidates(entries)
    .filter((e) => e !== chosen && memberRank(e.name) === rank)
    .map((e) => `"${e.name}"`);
  if (others.length === 0) return null;
  const listed = others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '');
  return (
    `The zip archive holds ${others.length === 1 ? 'another file' : `${others.length} other files`} that may be genotype data (${listed}); ` +
    `only "${chosen.name}", the largest, was read, and the results rest on it alone. ` +
    'If the others are more of your data (one file per chromosome, say), combine them into one file (for VCFs: bcftools concat) and upload that; if they are other people’s, upload each for its own profile.'
  );
}

/** The chosen member's uncompressed bytes, streamed. */
export async function* zipMember(src: ByteSource, entry: Entry, ctx: ContainerContext): Chunks {
  if (entry.flags & 1)
    fail('The .zip archive is password-protected. Extract it with its password and upload the text file inside.');
  if (entry.method !== 0 && entry.method !== 8)
    fail(
      `The .zip archive uses a compression method Traitscope cannot read (method ${entry.method}). Extract it and upload the text file inside, or re-create the zip with standard compression.`,
    );
  const loc = await src.read(entry.localOffset, 30);
  if (loc.length < 30 || u32(loc, 0) !== LOC_SIG) corrupt('a member header is missing');
  const start = entry.localOffset + 30 + u16(loc, 26) + u16(loc, 28);
  const end = start + entry.compressedSize;
  if (end > src.size) corrupt('it is truncated');
  ctx.notes.push(`Read "${entry.name}" from the zip archive.`);
  const raw = readRange(src, start, end);
  const bytes = entry.method === 0 ? stored(raw, ctx) : inflate(raw, ctx, 'zip');
  let crc = 0;
  let size = 0;
  for await (const chunk of bytes) {
    crc = crc32(chunk, crc);
    size += chunk.length;
    yield chunk;
  }
  // A ZIP64 member's real size was read from its extra field above.
  if (size !== entry.size || crc !== entry.crc32)
    corrupt(
      `the genotype file "${entry.name}" inside it does not match its recorded checksum, so some of its data is wrong`,
    );
}

async function* stored(raw: Chunks, ctx: ContainerContext): Chunks {
  for await (const chunk of raw) {
    ctx.decompressed += chunk.length;
    yield chunk;
  }
}
