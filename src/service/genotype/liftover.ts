/**
 * Lifting a position between GRCh37 and GRCh38 with the UCSC liftOver chains. The catalog
 * build reads the chain files (scripts/catalog/liftover.ts) and writes their aligned blocks
 * between the same main chromosome of both builds to resources/catalog/liftover.bin, so the
 * service can lift the positions of a scoring file to the build of a person's genotype file.
 * As UCSC liftOver does for a single base, a position lifts when it falls inside an aligned
 * block; one that falls in a gap, in no chain, or on another chromosome is not lifted.
 *
 * File layout (little-endian): "TSLC", u32 format, then two chains (GRCh37 → GRCh38, then
 * GRCh38 → GRCh37), each: u32 chromosome count, and per chromosome: u8 name length, the
 * name (ASCII: "1"–"22", "X", "Y"), u32 target chromosome size, u32 block count n, then
 * i32 sourceStart[n], i32 targetStart[n], i32 size[n], u8 reverse[n].
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexedBuild } from './positions.js';

export const LIFTOVER_FILE = 'catalog/liftover.bin';
const LIFTOVER_FORMAT = 1;
const MAGIC = 0x434c5354; // "TSLC"

/** Aligned blocks of one chromosome, sorted by source start (0-based). */
export interface ChromBlocks {
  sourceStart: Int32Array;
  targetStart: Int32Array;
  size: Int32Array;
  /** 1 when the target is on the reverse strand of its chromosome. */
  reverse: Uint8Array;
  /** Length of the target chromosome (for positions on the reverse strand). */
  targetSize: number;
}

export interface Chain {
  byChrom: Map<string, ChromBlocks>;
}

export interface Lifted {
  /** 1-based position in the target build. */
  pos: number;
  /** The target sequence is the reverse complement: alleles must be complemented. */
  reverse: boolean;
}

/**
 * The 1-based position `pos` on chromosome `chrom` ("1"–"22", "X", "Y") in the chain's
 * target build, or null when it does not lift. Overlapping chains (rare) take the block
 * that starts last before the position.
 */
export function liftPosition(chain: Chain, chrom: string, pos: number): Lifted | null {
  const b = chain.byChrom.get(chrom);
  if (!b || !(pos >= 1)) return null;
  const p = pos - 1;
  let lo = 0;
  let hi = b.sourceStart.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (b.sourceStart[mid] <= p) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // A few blocks of neighbouring chains may start before and still cover p.
  for (let i = at; i >= 0 && i > at - 8; i--) {
    const off = p - b.sourceStart[i];
    if (off < b.size[i]) {
      const q = b.targetStart[i] + off;
      return b.reverse[i] === 1 ? { pos: b.targetSize - q, reverse: true } : { pos: q + 1, reverse: false };
    }
  }
  return null;
}

/** The chains GRCh37 → GRCh38 and GRCh38 → GRCh37 as one file (layout above). */
export function encodeLiftover(to38: Chain, to37: Chain): Uint8Array {
  let bytes = 8;
  for (const chain of [to38, to37]) {
    bytes += 4;
    for (const [name, b] of chain.byChrom) bytes += 1 + name.length + 8 + b.size.length * 13;
  }
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, LIFTOVER_FORMAT, true);
  let at = 8;
  for (const chain of [to38, to37]) {
    view.setUint32(at, chain.byChrom.size, true);
    at += 4;
    for (const [name, b] of chain.byChrom) {
      out[at++] = name.length;
      for (let i = 0; i < name.length; i++) out[at++] = name.charCodeAt(i);
      const n = b.size.length;
      view.setUint32(at, b.targetSize, true);
      view.setUint32(at + 4, n, true);
      at += 8;
      for (const col of [b.sourceStart, b.targetStart, b.size]) {
        for (let i = 0; i < n; i++) view.setInt32(at + 4 * i, col[i], true);
        at += 4 * n;
      }
      out.set(b.reverse, at);
      at += n;
    }
  }
  return out;
}

/** Both chains of a liftover file: [GRCh37 → GRCh38, GRCh38 → GRCh37]. */
export function decodeLiftover(bytes: Uint8Array): [Chain, Chain] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const truncated = () => new Error('liftover.bin is truncated: rebuild the catalog (npm run build:catalog).');
  if (bytes.length < 8 || view.getUint32(0, true) !== MAGIC)
    throw new Error('liftover.bin is not a Traitscope liftover file: rebuild the catalog (npm run build:catalog).');
  if (view.getUint32(4, true) !== LIFTOVER_FORMAT)
    throw new Error(`liftover.bin has format ${view.getUint32(4, true)}, this build reads ${LIFTOVER_FORMAT}.`);
  let at = 8;
  const chains: Chain[] = [];
  for (let c = 0; c < 2; c++) {
    if (at + 4 > bytes.length) throw truncated();
    const count = view.getUint32(at, true);
    at += 4;
    const byChrom = new Map<string, ChromBlocks>();
    for (let k = 0; k < count; k++) {
      if (at + 1 > bytes.length) throw truncated();
      const len = bytes[at++];
      if (at + len + 8 > bytes.length) throw truncated();
      const name = String.fromCharCode(...bytes.subarray(at, at + len));
      at += len;
      const targetSize = view.getUint32(at, true);
      const n = view.getUint32(at + 4, true);
      at += 8;
      if (at + n * 13 > bytes.length) throw truncated();
      const i32 = () => {
        const a = new Int32Array(n);
        for (let i = 0; i < n; i++) a[i] = view.getInt32(at + 4 * i, true);
        at += 4 * n;
        return a;
      };
      const sourceStart = i32();
      const targetStart = i32();
      const size = i32();
      const reverse = bytes.slice(at, at + n);
      at += n;
      byChrom.set(name, { sourceStart, targetStart, size, reverse, targetSize });
    }
    chains.push({ byChrom });
  }
  if (at !== bytes.length) throw truncated();
  return [chains[0], chains[1]];
}

const cache = new Map<string, [Chain, Chain]>();

/** Lifts a position from one build to the other with the shipped chains (loaded once per resources folder). */
export function liftoverOf(
  resourcesDir: string,
): (chrom: string, pos: number, from: IndexedBuild, to: IndexedBuild) => number | null {
  let chains = cache.get(resourcesDir);
  if (!chains) {
    chains = decodeLiftover(readFileSync(join(resourcesDir, LIFTOVER_FILE)));
    cache.set(resourcesDir, chains);
  }
  const [to38, to37] = chains;
  return (chrom, pos, from, to) => {
    if (from === to) return pos;
    return liftPosition(to === 38 ? to38 : to37, chrom.toUpperCase(), pos)?.pos ?? null;
  };
}
