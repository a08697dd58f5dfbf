/**
 * Which markers of a genotype file the ancestry inference uses, and how much each counts.
 *
 * Matching follows scoring (../match.ts): direct, or by complement for non-palindromic
 * SNPs; palindromic SNPs directly only; other letters do not match and are counted.
 *
 * Weights for linkage disequilibrium: the panel's GWAS SNPs cluster (87 % of those with a
 * position have another within 100 kb), and neighbouring SNPs carry largely the same
 * information. Treating them as independent would make the posterior and the standard
 * errors far too sure. So the markers in use are grouped into windows of LD_WINDOW_BP along
 * the genome (each window starts at its first marker) and each marker of a window of n
 * counts 1/n: a composite likelihood in which a window weighs as much as one independent
 * marker. That is conservative where markers in a window are in fact independent.
 */
import type { Genotype } from '../../genotype/types.js';
import { DOSAGE_MISSING, matchDosage } from '../match.js';
import type { Markers } from './likelihood.js';
import { K as POPULATION_COUNT } from './panel.js';
import type { AncestryPanel } from './reference.js';

/** Local constant for the loops (see likelihood.ts). */
const K = 5;
if (POPULATION_COUNT !== K) throw new Error('markers.ts assumes five super-populations');

export const LD_WINDOW_BP = 100_000;

export interface UsedMarkers extends Markers {
  /** Panel row of each marker. */
  row: Uint32Array;
  /** 1 for Kidd/Seldin AISNPs. */
  aisnp: Uint8Array;
  /** Chromosome (1–22) and position used for the LD windows; 0 where unknown. */
  chrom: Uint8Array;
  pos: Uint32Array;
  /** The markers with a usable position, in genome order (placedOrder): subsets keep it instead of sorting again. */
  order: Uint32Array;
}

export interface Collected {
  markers: UsedMarkers;
  /** Panel SNPs the file holds whose alleles do not match the panel's (neither strand). */
  mismatched: number;
}

/**
 * Index of the first sorted[j] ≥ value with j ≥ from: a galloping search, since successive
 * look-ups land close to each other.
 */
function lowerBound(sorted: Uint32Array, value: number, from: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < sorted.length && sorted[hi] < value) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > sorted.length) hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function collectMarkers(panel: AncestryPanel, genotype: Genotype): Collected {
  const { rsids, calls } = genotype;
  const capacity = Math.min(panel.size, rsids.length);
  const rows = new Uint32Array(capacity);
  const fileIndex = new Uint32Array(capacity);
  const g = new Uint8Array(capacity);
  // Both lists are ascending: walk the shorter one and search the longer one, each search
  // starting where the previous one ended. First the pairs (panel row, file index) …
  let found = 0;
  if (panel.size <= rsids.length) {
    for (let i = 0, j = 0; i < panel.size && j < rsids.length; i++) {
      j = lowerBound(rsids, panel.rsid[i], j);
      if (j < rsids.length && rsids[j] === panel.rsid[i]) {
        rows[found] = i;
        fileIndex[found++] = j;
      }
    }
  } else {
    for (let j = 0, i = 0; j < rsids.length && i < panel.size; j++) {
      i = lowerBound(panel.rsid, rsids[j], i);
      if (i < panel.size && panel.rsid[i] === rsids[j]) {
        rows[found] = i;
        fileIndex[found++] = j;
      }
    }
  }
  // … then the ones with a call whose alleles match, kept in place (no closure: its
  // counters would live in a heap context, read and written through it at every marker).
  const match = matchDosage; // a local: transformed imports are property reads
  let n = 0;
  let mismatched = 0;
  for (let u = 0; u < found; u++) {
    const i = rows[u];
    const j = fileIndex[u];
    const d = match(calls[j], panel.counted[i], panel.other[i]);
    if (d === DOSAGE_MISSING) continue;
    if (d < 0) {
      mismatched++;
      continue;
    }
    rows[n] = i;
    fileIndex[n] = j;
    g[n++] = d & 3;
  }
  const p = new Float64Array(n * K);
  const aisnp = new Uint8Array(n);
  for (let u = 0; u < n; u++) {
    const r = rows[u];
    for (let k = 0; k < K; k++) p[u * K + k] = panel.p[r * K + k];
    aisnp[u] = panel.aisnp[r];
  }
  // Positions from the file (any build: only distances matter); the panel's GRCh37
  // positions when the file gives none.
  const chrom = new Uint8Array(n);
  const pos = new Uint32Array(n);
  let filePositions = 0;
  for (let u = 0; u < n; u++)
    if (genotype.positions[fileIndex[u]] > 0 && genotype.chroms[fileIndex[u]] > 0) filePositions++;
  const fromFile = filePositions * 2 > n;
  for (let u = 0; u < n; u++) {
    chrom[u] = fromFile ? genotype.chroms[fileIndex[u]] : panel.chrom[rows[u]];
    pos[u] = fromFile ? genotype.positions[fileIndex[u]] : panel.pos[rows[u]];
  }
  const order = placedOrder(chrom, pos);
  const markers: UsedMarkers = {
    n,
    g: g.slice(0, n),
    w: windowWeights(chrom, pos, order),
    p,
    row: rows.slice(0, n),
    aisnp,
    chrom,
    pos,
    order,
  };
  return { markers, mismatched };
}

const POS_BITS = 2 ** 28; // GRCh37/38 positions are below 2^28
const INDEX_BITS = 2 ** 20; // index of a marker within the sort key; ≤ 1,048,576 markers

/**
 * The markers with a chromosome (1–22) and a position, sorted by (chromosome, position, index)
 * through one numeric key that carries the index. Markers without one are left out.
 */
function placedOrder(chrom: Uint8Array, pos: Uint32Array): Uint32Array {
  const n = chrom.length;
  let m = 0;
  const keys = new Float64Array(n);
  if (n < INDEX_BITS) {
    for (let u = 0; u < n; u++) {
      const c = chrom[u];
      const x = pos[u];
      if (c >= 1 && c <= 22 && x > 0 && x < POS_BITS) keys[m++] = (c * POS_BITS + x) * INDEX_BITS + u;
    }
  }
  const sorted = keys.subarray(0, m).sort();
  const order = new Uint32Array(m);
  for (let t = 0; t < m; t++) order[t] = sorted[t] % INDEX_BITS;
  return order;
}

/** 1/(markers in the window) per marker; markers without a position get the mean weight of the others. */
export function ldWeights(chrom: Uint8Array, pos: Uint32Array): Float64Array {
  return windowWeights(chrom, pos, placedOrder(chrom, pos));
}

/** ldWeights, with the markers' genome order already known. */
function windowWeights(chrom: Uint8Array, pos: Uint32Array, order: Uint32Array): Float64Array {
  const n = chrom.length;
  const m = order.length;
  const w = new Float64Array(n);
  let windows = 0;
  for (let s = 0; s < m;) {
    const first = order[s];
    let e = s + 1;
    while (e < m && chrom[order[e]] === chrom[first] && pos[order[e]] - pos[first] < LD_WINDOW_BP) e++;
    for (let t = s; t < e; t++) w[order[t]] = 1 / (e - s);
    windows++;
    s = e;
  }
  // Markers without a position: the mean weight of the others (1 when none has one).
  const unplaced = m ? windows / m : 1;
  for (let u = 0; u < n; u++) if (w[u] === 0) w[u] = unplaced;
  return w;
}

/** The markers where keep[u] is 1, as their own set, with LD weights among themselves. */
export function subset(m: UsedMarkers, keep: Uint8Array): UsedMarkers {
  let n = 0;
  for (let u = 0; u < m.n; u++) n += keep[u];
  const out: UsedMarkers = {
    n,
    g: new Uint8Array(n),
    w: new Float64Array(n),
    p: new Float64Array(n * K),
    row: new Uint32Array(n),
    aisnp: new Uint8Array(n),
    chrom: new Uint8Array(n),
    pos: new Uint32Array(n),
    order: new Uint32Array(0),
  };
  // Where each kept marker lands: the parent's genome order, filtered, is the subset's own
  // (indices keep their relative order, which breaks ties in the sort).
  const moved = new Uint32Array(m.n);
  let v = 0;
  for (let u = 0; u < m.n; u++) {
    if (!keep[u]) continue;
    moved[u] = v;
    out.g[v] = m.g[u];
    out.row[v] = m.row[u];
    out.aisnp[v] = m.aisnp[u];
    out.chrom[v] = m.chrom[u];
    out.pos[v] = m.pos[u];
    for (let k = 0; k < K; k++) out.p[v * K + k] = m.p[u * K + k];
    v++;
  }
  let placed = 0;
  for (let t = 0; t < m.order.length; t++) placed += keep[m.order[t]];
  out.order = new Uint32Array(placed);
  for (let t = 0, o = 0; t < m.order.length; t++) if (keep[m.order[t]]) out.order[o++] = moved[m.order[t]];
  out.w = windowWeights(out.chrom, out.pos, out.order);
  return out;
}
