/**
 * Where every marker Traitscope uses sits in GRCh37 and in GRCh38, with its REF/ALT on the
 * forward strand: resources/catalog/positions.bin, written at build time by
 * scripts/catalog/positions.ts from the shared sources and the UCSC chain files. Files that
 * carry positions instead of rsIDs (whole-genome VCFs, position-only PGS files) are matched
 * through it, and a variants-only VCF's unlisted sites are read as REF/REF from it.
 *
 * File layout (little-endian): "TSPI", u32 format, u32 n, then u32 rsid[n] ascending,
 * u32 pos37[n], u32 pos38[n] (0 = not placed in that build), u8 chrom[n] (encoding.ts
 * codes), u8 ref[n], u8 alt[n] (allele codes, 0 = not known; an indel's REF/ALT are not one
 * letter, so they are 0 here; alt SEVERAL_ALTS: a drug–gene SNP whose definitions list
 * several ALTs, REF then 0 too), then the indel markers' alleles: u32 byte length, then UTF-8
 * lines "row<TAB>REF<TAB>ALT[,ALT…]<TAB>window37<TAB>window38", one per indel marker by
 * ascending row. REF/ALT are VCF-style and left-aligned (the first base is the anchor at the
 * marker's position); a window is the reference bases known from that position on in that
 * build (REF, extended over the repeat the alleles shift within), empty where the alleles are
 * not known in that build (parse/indels.ts reads records against it). A marker with several
 * ALTs keeps its source's order (PharmCAT's): a record matched to its k-th allele (0 = REF)
 * is stored as encoding.ts's defined-allele code 8 + k, so the order is part of the stored
 * call's meaning and the drug–gene table lists the same alleles in the same order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const POSITION_INDEX_FILE = 'catalog/positions.bin';
const POSITION_INDEX_FORMAT = 2;
const MAGIC = 0x49505354; // "TSPI"

export type IndexedBuild = 37 | 38;

export interface PositionColumns {
  rsid: Uint32Array;
  pos37: Uint32Array;
  pos38: Uint32Array;
  chrom: Uint8Array;
  ref: Uint8Array;
  alt: Uint8Array;
}

/** An indel marker's expected alleles (layout above). */
export interface IndelAlleles {
  row: number;
  ref: string;
  alts: string[];
  /** Reference bases from the marker's position on, in each build; "" when not known there. */
  window37: string;
  window38: string;
}

export interface PositionIndex extends PositionColumns {
  size: number;
  /** The indel markers' expected alleles, by row. */
  indels: Map<number, IndelAlleles>;
  /** Marker rows sorted by (chrom, position) in each build; unplaced rows left out. */
  order37: Uint32Array;
  order38: Uint32Array;
  /** chrom · 2³² + position for each entry of order37 / order38, ascending. */
  key37: Float64Array;
  key38: Float64Array;
}

const POS_SCALE = 2 ** 32;

/** alt[row] of a drug–gene SNP with several ALTs (its REF is 0: no single-ALT reader may use it). */
export const SEVERAL_ALTS = 0xff;

/**
 * Whether a marker's call is read from drug–gene definitions of its own (an indel, or a SNP
 * with several ALTs) rather than from its REF/ALT here: the drug–gene caller weighs each of
 * its positions itself (a missing one is a no-call).
 */
export const isDrugGeneDefined = (index: PositionIndex, row: number): boolean =>
  index.alt[row] === SEVERAL_ALTS || index.indels.has(row);

export function encodePositionIndex(c: PositionColumns, indels: readonly IndelAlleles[]): Uint8Array {
  const n = c.rsid.length;
  const text = Buffer.from(
    [...indels]
      .sort((a, b) => a.row - b.row)
      .map((d) => `${d.row}\t${d.ref}\t${d.alts.join(',')}\t${d.window37}\t${d.window38}\n`)
      .join(''),
    'utf8',
  );
  const out = new Uint8Array(12 + n * 15 + 4 + text.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, POSITION_INDEX_FORMAT, true);
  view.setUint32(8, n, true);
  let at = 12;
  for (const col of [c.rsid, c.pos37, c.pos38]) {
    for (let i = 0; i < n; i++) view.setUint32(at + i * 4, col[i], true);
    at += n * 4;
  }
  for (const col of [c.chrom, c.ref, c.alt]) {
    out.set(col, at);
    at += n;
  }
  view.setUint32(at, text.length, true);
  out.set(text, at + 4);
  return out;
}

function decodePositionIndex(bytes: Uint8Array): PositionIndex {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || view.getUint32(0, true) !== MAGIC)
    throw new Error('positions.bin is not a Traitscope position index: rebuild the catalog (npm run build:catalog).');
  if (view.getUint32(4, true) !== POSITION_INDEX_FORMAT)
    throw new Error(`positions.bin has format ${view.getUint32(4, true)}, this build reads ${POSITION_INDEX_FORMAT}.`);
  const n = view.getUint32(8, true);
  const textAt = 12 + n * 15 + 4;
  if (bytes.length < textAt || bytes.length !== textAt + view.getUint32(textAt - 4, true))
    throw new Error('positions.bin is truncated: rebuild the catalog.');
  let at = 12;
  const u32 = () => {
    const a = new Uint32Array(n);
    for (let i = 0; i < n; i++) a[i] = view.getUint32(at + i * 4, true);
    at += n * 4;
    return a;
  };
  const u8 = () => {
    const a = bytes.slice(at, at + n);
    at += n;
    return a;
  };
  const rsid = u32();
  const pos37 = u32();
  const pos38 = u32();
  const chrom = u8();
  const ref = u8();
  const alt = u8();
  const indels = new Map<number, IndelAlleles>();
  for (const line of Buffer.from(bytes.buffer, bytes.byteOffset + textAt, bytes.length - textAt)
    .toString('utf8')
    .split('\n')) {
    if (line === '') continue;
    const [row, ref, alts, window37, window38] = line.split('\t');
    indels.set(Number(row), { row: Number(row), ref, alts: alts.split(','), window37, window38 });
  }
  const [order37, key37] = sortedBy(chrom, pos37);
  const [order38, key38] = sortedBy(chrom, pos38);
  return { size: n, rsid, pos37, pos38, chrom, ref, alt, indels, order37, order38, key37, key38 };
}

/** Bits of a row number in a packed sort key (sortedBy): indexes of up to a million markers. */
const ROW_BITS = 20;
/** Positions below 2^28 (every human chromosome is shorter): chrom, position and row fit in 53 bits. */
const PACKED_POS_LIMIT = 2 ** 28;

/**
 * Placed rows by (chrom, position), ties in row order, and their keys. Each row is packed
 * with its chrom and position into one exact double (5 + 28 + 20 bits) and the packed
 * values sorted as numbers by the typed array's own sort: a few ms for the shipped index,
 * where sorting the rows with a comparator took most of the index's ~80 ms load in every
 * worker. An index the packing cannot hold is sorted with the comparator, to the same order.
 */
function sortedBy(chrom: Uint8Array, pos: Uint32Array): [Uint32Array, Float64Array] {
  const packed = new Float64Array(pos.length);
  let placed = 0;
  let packable = pos.length <= 2 ** ROW_BITS;
  for (let i = 0; i < pos.length; i++) {
    if (pos[i] === 0) continue;
    if (pos[i] >= PACKED_POS_LIMIT || chrom[i] >= 32) packable = false;
    packed[placed++] = (chrom[i] * PACKED_POS_LIMIT + pos[i]) * 2 ** ROW_BITS + i;
  }
  const order = new Uint32Array(placed);
  if (packable) {
    const sorted = packed.subarray(0, placed).sort();
    for (let j = 0; j < placed; j++) order[j] = sorted[j] % 2 ** ROW_BITS;
  } else {
    const rows: number[] = [];
    for (let i = 0; i < pos.length; i++) if (pos[i] > 0) rows.push(i);
    rows.sort((a, b) => chrom[a] * POS_SCALE + pos[a] - (chrom[b] * POS_SCALE + pos[b]));
    order.set(rows);
  }
  const keys = new Float64Array(placed);
  for (let j = 0; j < placed; j++) keys[j] = chrom[order[j]] * POS_SCALE + pos[order[j]];
  return [order, keys];
}

const cache = new Map<string, PositionIndex>();

/** The shipped index (loaded once per resources folder). */
export function loadPositionIndex(resourcesDir: string): PositionIndex {
  const hit = cache.get(resourcesDir);
  if (hit) return hit;
  const index = decodePositionIndex(readFileSync(join(resourcesDir, POSITION_INDEX_FILE)));
  cache.set(resourcesDir, index);
  return index;
}

/** First entry (into orderNN/keyNN) at or after (chrom, pos) in that build; the entry count when none. */
export function lowerBoundAt(index: PositionIndex, build: IndexedBuild, chrom: number, pos: number): number {
  const keys = build === 37 ? index.key37 : index.key38;
  const k = chrom * POS_SCALE + pos;
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rows of the markers at exactly (chrom, pos) in that build (usually none or one). */
export function rowsAt(index: PositionIndex, build: IndexedBuild, chrom: number, pos: number): number[] {
  const keys = build === 37 ? index.key37 : index.key38;
  const order = build === 37 ? index.order37 : index.order38;
  const k = chrom * POS_SCALE + pos;
  const rows: number[] = [];
  for (let j = lowerBoundAt(index, build, chrom, pos); j < keys.length && keys[j] === k; j++) rows.push(order[j]);
  return rows;
}

/** Row of an rsID, or -1. */
export function rowOfRsid(index: PositionIndex, rsid: number): number {
  let lo = 0;
  let hi = index.size - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = index.rsid[mid];
    if (v < rsid) lo = mid + 1;
    else if (v > rsid) hi = mid - 1;
    else return mid;
  }
  return -1;
}
