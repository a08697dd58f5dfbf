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
  rsids = new Uint32Array(1 << 16);
  /** Call and chromosome of each marker in one 16-bit lane: (call << 8) | chrom. */
  callChrom = new Uint16Array(1 << 16);
  positions = new Uint32Array(1 << 16);
  length = 0;

  add(rsid: number, call: number, chrom: number, position: number): void {
    const i = this.length;
    if (i === this.rsids.length) this.reserve(1);
    this.rsids[i] = rsid;
    this.callChrom[i] = (call << 8) | chrom;
    this.positions[i] = position;
    this.length = i + 1;
  }

  /** Makes room for `more` markers, so bulk writers can fill the arrays without checks. */
  reserve(more: number): void {
    const need = this.length + more;
    if (need <= this.rsids.length) return;
    // Doubling for one-by-one growth; an explicit large reservation gets exactly what it asks.
    const n = Math.max(need, this.rsids.length * 2);
    const r = new Uint32Array(n);
    r.set(this.rsids.subarray(0, this.length));
    this.rsids = r;
    const c = new Uint16Array(n);
    c.set(this.callChrom.subarray(0, this.length));
    this.callChrom = c;
    const p = new Uint32Array(n);
    p.set(this.positions.subarray(0, this.length));
    this.positions = p;
  }

  /** Call once: sorting reuses (and scrambles) the collector's arrays. */
  finish(): Collected {
    const n = this.length;
    return finishCollected(this.rsids.subarray(0, n), this.callChrom.subarray(0, n), this.positions.subarray(0, n));
  }
}

/**
 * Sorts the markers by rsID (stable, so file order survives among duplicates) and applies
 * the duplicate rule. The sort is a two-pass LSD radix sort on 16-bit digits that moves
 * the marker data along with the keys, rather than sorting a permutation and gathering
 * through it (on a million markers that gather is dominated by cache misses). Measured
 * on 960k markers: 16-bit digits beat 11- and 8-bit ones.
 */
function finishCollected(rsIn: Uint32Array, ccIn: Uint16Array, posIn: Uint32Array): Collected {
  const n = rsIn.length;
  let rs: Uint32Array = rsIn;
  let cc: Uint16Array = ccIn;
  let pos: Uint32Array = posIn;

  let sorted = true;
  for (let i = 1; i < n; i++) {
    if (rs[i] < rs[i - 1]) {
      sorted = false;
      break;
    }
  }
  if (!sorted) {
    const counts = new Uint32Array(2 * RADIX);
    for (let i = 0; i < n; i++) {
      const k = rs[i];
      counts[k & MASK]++;
      counts[RADIX + (k >>> BITS)]++;
    }
    let rs2: Uint32Array = new Uint32Array(n);
    let cc2: Uint16Array = new Uint16Array(n);
    let pos2: Uint32Array = new Uint32Array(n);
    for (let pass = 0; pass < 2; pass++) {
      const base = pass * RADIX;
      const shift = pass * BITS;
      // A digit that is the same for every marker leaves the order unchanged: skip it.
      let single = false;
      for (let d = 0; d < RADIX; d++) {
        if (counts[base + d] === n) single = true;
        if (counts[base + d] !== 0) break;
      }
      if (single) continue;
      let sum = 0;
      for (let d = 0; d < RADIX; d++) {
        const c = counts[base + d];
        counts[base + d] = sum;
        sum += c;
      }
      scatter(rs, cc, pos, rs2, cc2, pos2, counts, base, shift);
      const r = rs;
      rs = rs2;
      rs2 = r;
      const c = cc;
      cc = cc2;
      cc2 = c;
      const p = pos;
      pos = pos2;
      pos2 = p;
    }
  }

  // Compact duplicates in place (o <= k always), then copy out at the exact size.
  let duplicates = 0;
  let conflicting = 0;
  let o = -1;
  let chosenCall = 0;
  let conflictCounted = false;
  let prev = -1;
  for (let k = 0; k < n; k++) {
    const r = rs[k];
    const v = cc[k];
    const call = v >>> 8;
    if (r !== prev) {
      o++;
      prev = r;
      rs[o] = r;
      cc[o] = v;
      pos[o] = pos[k];
      chosenCall = call;
      conflictCounted = false;
      continue;
    }
    duplicates++;
    if (call === 0) continue;
    if (chosenCall === 0) {
      cc[o] = v;
      pos[o] = pos[k];
      chosenCall = call;
    } else if (!conflictCounted && !sameCall(call, chosenCall)) {
      conflicting++;
      conflictCounted = true;
    }
  }
  const m = o + 1;
  const calls = new Uint8Array(m);
  const chroms = new Uint8Array(m);
  for (let k = 0; k < m; k++) {
    const v = cc[k];
    calls[k] = v >>> 8;
    chroms[k] = v & 0xff;
  }
  return {
    genotype: { rsids: rs.slice(0, m), calls, chroms, positions: pos.slice(0, m) },
    duplicates,
    conflictingDuplicates: conflicting,
  };
}

function scatter(
  rs: Uint32Array,
  cc: Uint16Array,
  pos: Uint32Array,
  rs2: Uint32Array,
  cc2: Uint16Array,
  pos2: Uint32Array,
  counts: Uint32Array,
  base: number,
  shift: number,
): void {
  const n = rs.length;
  for (let i = 0; i < n; i++) {
    const k = rs[i];
    const at = counts[base + ((k >>> shift) & MASK)]++; // shift 16: the mask is a no-op
    rs2[at] = k;
    cc2[at] = cc[i];
    pos2[at] = pos[i];
  }
}

const BITS = 16;
const RADIX = 1 << BITS;
const MASK = RADIX - 1;

function sameCall(a: number, b: number): boolean {
  return a === b || (((a & 0xf) << 4) | (a >> 4)) === b;
}
