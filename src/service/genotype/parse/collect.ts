/**
 * Accumulates parsed markers in file order in growable typed arrays, then produces the
 * sorted, deduplicated columnar Genotype.
 *
 * Duplicate rule: when an rsID appears more than once, the first occurrence that carries a
 * call wins; if none carries a call, the marker is stored as a no-call. Every extra
 * occurrence counts as one duplicate; occurrences whose calls disagree (ignoring allele
 * order) are also counted as conflicting.
 */
import type { Genotype } from '../types.js';

export interface Collected {
  genotype: Genotype;
  duplicates: number;
  conflictingDuplicates: number;
}

export class GenotypeCollector {
  private rsids = new Uint32Array(1 << 16);
  private calls = new Uint8Array(1 << 16);
  private chroms = new Uint8Array(1 << 16);
  private positions = new Uint32Array(1 << 16);
  length = 0;

  add(rsid: number, call: number, chrom: number, position: number): void {
    const i = this.length;
    if (i === this.rsids.length) this.grow();
    this.rsids[i] = rsid;
    this.calls[i] = call;
    this.chroms[i] = chrom;
    this.positions[i] = position;
    this.length = i + 1;
  }

  private grow(): void {
    const n = this.rsids.length * 2;
    const r = new Uint32Array(n);
    r.set(this.rsids);
    this.rsids = r;
    const c = new Uint8Array(n);
    c.set(this.calls);
    this.calls = c;
    const h = new Uint8Array(n);
    h.set(this.chroms);
    this.chroms = h;
    const p = new Uint32Array(n);
    p.set(this.positions);
    this.positions = p;
  }

  finish(): Collected {
    const n = this.length;
    const rsids = this.rsids.subarray(0, n);
    const order = sortedOrder(rsids);

    // Count distinct rsids first so the output arrays are allocated at their exact size.
    let distinct = 0;
    for (let k = 0; k < n; k++) {
      if (k === 0 || rsids[order[k]] !== rsids[order[k - 1]]) distinct++;
    }
    const out: Genotype = {
      rsids: new Uint32Array(distinct),
      calls: new Uint8Array(distinct),
      chroms: new Uint8Array(distinct),
      positions: new Uint32Array(distinct),
    };
    let duplicates = 0;
    let conflicting = 0;
    let o = -1;
    let chosenCall = 0;
    let conflictCounted = false;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      const rs = rsids[i];
      const call = this.calls[i];
      if (o < 0 || out.rsids[o] !== rs) {
        o++;
        out.rsids[o] = rs;
        out.calls[o] = call;
        out.chroms[o] = this.chroms[i];
        out.positions[o] = this.positions[i];
        chosenCall = call;
        conflictCounted = false;
        continue;
      }
      duplicates++;
      if (call === 0) continue;
      if (chosenCall === 0) {
        out.calls[o] = call;
        out.chroms[o] = this.chroms[i];
        out.positions[o] = this.positions[i];
        chosenCall = call;
      } else if (!conflictCounted && !sameCall(call, chosenCall)) {
        conflicting++;
        conflictCounted = true;
      }
    }
    return { genotype: out, duplicates, conflictingDuplicates: conflicting };
  }
}

function sameCall(a: number, b: number): boolean {
  return a === b || (((a & 0xf) << 4) | (a >> 4)) === b;
}

/**
 * Indices that visit `keys` in ascending order, stable (file order among equal keys).
 * Two-pass LSD radix sort on 16-bit digits: linear time, no comparisons.
 */
export function sortedOrder(keys: Uint32Array): Uint32Array {
  const n = keys.length;
  const order = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && keys[i] < keys[i - 1]) sorted = false;
  }
  if (sorted || n < 2) return order;
  const tmp = new Uint32Array(n);
  const counts = new Uint32Array(65536);
  // Pass 1: low 16 bits, from identity order into tmp.
  for (let i = 0; i < n; i++) counts[keys[i] & 0xffff]++;
  prefixSums(counts);
  for (let i = 0; i < n; i++) tmp[counts[keys[i] & 0xffff]++] = i;
  // Pass 2: high 16 bits, from tmp into order.
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[keys[i] >>> 16]++;
  prefixSums(counts);
  for (let k = 0; k < n; k++) {
    const i = tmp[k];
    order[counts[keys[i] >>> 16]++] = i;
  }
  return order;
}

function prefixSums(counts: Uint32Array): void {
  let sum = 0;
  for (let d = 0; d < counts.length; d++) {
    const c = counts[d];
    counts[d] = sum;
    sum += c;
  }
}
