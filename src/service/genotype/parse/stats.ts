/**
 * Counters for lines the parser could not use, by reason. A fixed array indexed by a small
 * enum keeps the hot path free of string keys; names appear only in the summary.
 */
export const SKIP_NON_RS_ID = 0;
export const SKIP_BAD_RSID = 1;
export const SKIP_BAD_ALLELES = 2;
export const SKIP_BAD_CHROMOSOME = 3;
export const SKIP_BAD_POSITION = 4;
export const SKIP_MALFORMED = 5;
export const SKIP_LINE_TOO_LONG = 6;
export const SKIP_UNSUPPORTED_VARIANT = 7;

export const SKIP_REASON_NAMES = [
  'non_rs_id',
  'bad_rsid',
  'bad_alleles',
  'bad_chromosome',
  'bad_position',
  'malformed_line',
  'line_too_long',
  'unsupported_variant',
] as const;

export class SkipCounter {
  readonly counts = new Float64Array(SKIP_REASON_NAMES.length);
  /**
   * Of the skipped lines, those that do not look like genotype lines at all (prose, source
   * code, markup): no marker id with a digit, or too few fields. nongenome.ts weighs them.
   */
  foreign = 0;

  add(reason: number, n = 1): void {
    this.counts[reason] += n;
  }

  addForeign(reason: number): void {
    this.counts[reason] += 1;
    this.foreign++;
  }

  total(): number {
    let n = 0;
    for (const c of this.counts) n += c;
    return n;
  }

  byReason(): Record<string, number> {
    const out: Record<string, number> = {};
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i] > 0) out[SKIP_REASON_NAMES[i]] = this.counts[i];
    return out;
  }
}
