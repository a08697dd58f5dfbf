/**
 * Reading the UCSC chain files (hg19ToHg38, hg38ToHg19 in ../shared/data/liftover) at build
 * time; the lift itself (liftPosition) is src/service/genotype/liftover.ts, which the service
 * also uses on the chains the build writes to resources/catalog/liftover.bin. The chain format: a header line
 * `chain score tName tSize tStrand tStart tEnd qName qSize qStrand qStart qEnd id`, then
 * `size dt dq` lines and a last `size` line; coordinates 0-based, half-open, the query on
 * its own strand when qStrand is "-". As UCSC liftOver does for a single base, a position
 * lifts when it falls inside an aligned block; one that falls in a gap, in no chain, or on
 * another chromosome is not lifted (the caller counts it).
 *
 * Exported for every table that needs a marker's position in the other build (catalog
 * markers, the ancestry panel, drug–gene positions given in GRCh38).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Chain, ChromBlocks } from '../../src/service/genotype/liftover.js';

export { liftPosition, type Chain } from '../../src/service/genotype/liftover.js';

/** "chr1" → "1", "chrX" → "X"; other contigs (alts, randoms, chrM) → null. */
export function mainChromosome(name: string): string | null {
  const c = name.replace(/^chr/i, '').toUpperCase();
  return /^([1-9]|1\d|2[0-2]|X|Y)$/.test(c) ? c : null;
}

/** Reads a (gzipped) UCSC chain file, keeping blocks between the same main chromosome of both builds. */
export function readChain(path: string): Chain {
  const raw = readFileSync(path);
  const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('latin1');
  const blocks = new Map<string, Array<[number, number, number, number, number]>>();
  let list: Array<[number, number, number, number, number]> | null = null;
  let t = 0;
  let q = 0;
  let reverse = 0;
  let qSize = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('chain')) {
      const f = line.split(/\s+/);
      const tChrom = mainChromosome(f[2]);
      const qChrom = mainChromosome(f[7]);
      list = null;
      if (tChrom === null || tChrom !== qChrom || f[4] !== '+') continue;
      list = blocks.get(tChrom) ?? [];
      blocks.set(tChrom, list);
      t = Number(f[5]);
      q = Number(f[10]);
      qSize = Number(f[8]);
      reverse = f[9] === '-' ? 1 : 0;
      continue;
    }
    if (list === null || line.length === 0) continue;
    const f = line.split(/\s+/);
    const size = Number(f[0]);
    list.push([t, q, size, reverse, qSize]);
    if (f.length >= 3) {
      t += size + Number(f[1]);
      q += size + Number(f[2]);
    }
  }
  const byChrom = new Map<string, ChromBlocks>();
  for (const [chrom, l] of blocks) {
    l.sort((a, b) => a[0] - b[0]);
    // Chains kept here map a chromosome to itself: the target chromosome's size is the same for all.
    const chromBlocks: ChromBlocks = {
      sourceStart: Int32Array.from(l, (b) => b[0]),
      targetStart: Int32Array.from(l, (b) => b[1]),
      size: Int32Array.from(l, (b) => b[2]),
      reverse: Uint8Array.from(l, (b) => b[3]),
      targetSize: l[0][4],
    };
    if (l.some((b) => b[4] !== chromBlocks.targetSize))
      throw new Error(`${path}: chr${chrom} has chains of two sizes.`);
    byChrom.set(chrom, chromBlocks);
  }
  return { byChrom };
}
