/**
 * Accumulates parsed markers in file order, then produces the sorted, deduplicated
 * columnar Genotype. The markers live as 12-byte records in the WebAssembly core's memory
 * (wasm/core.ts), where the line loop writes them directly and the sort runs.
 *
 * Duplicate rule: when an rsID appears more than once, the first occurrence that carries a
 * call wins; if none carries a call, the marker is stored as a no-call. Every extra
 * occurrence counts as one duplicate; occurrences whose calls disagree (ignoring allele
 * order) are also counted as conflicting.
 */
import type { Genotype } from '../types.js';
import type { SexEvidence } from './sex.js';
import { ParseCore, RECORD_WORDS } from './wasm/core.js';

export interface Collected {
  genotype: Genotype;
  /** Extra occurrences of an rsID, and rsIDs whose called occurrences disagree. */
  duplicates: number;
  conflicting: number;
  /** Kept markers without a call, and the sex evidence (sex.ts) of the kept markers. */
  noCalls: number;
  sex: SexEvidence;
}

export class GenotypeCollector {
  readonly core = ParseCore.acquire();
  /** Markers collected so far. */
  length = 0;

  add(rsid: number, call: number, chrom: number, position: number): void {
    const i = this.length;
    if (i === this.core.capacity) this.core.reserve(i + 1);
    const r = this.core.records;
    const j = i * RECORD_WORDS;
    r[j] = rsid;
    r[j + 1] = position;
    r[j + 2] = (call << 8) | chrom;
    this.length = i + 1;
  }

  /** Makes room for `more` markers (sized from the file, so the records rarely move). */
  reserve(more: number): void {
    this.core.reserve(this.length + more);
  }

  /** Marker i as [rsid, call << 8 | chrom, position] (tests). */
  at(i: number): [number, number, number] {
    const r = this.core.records;
    const j = i * RECORD_WORDS;
    return [r[j], r[j + 2], r[j + 1]];
  }

  /** Call once: sorts and deduplicates, and hands the core to the next parse. */
  finish(): Collected {
    const collected = this.core.finish(this.length);
    this.core.release();
    return collected;
  }
}
