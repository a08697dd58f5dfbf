/**
 * Whether a newly parsed file should replace the genotype in use without asking. A file
 * that parsed can still be the wrong one: a few lines copied from a genome, a damaged
 * download, a file with something appended. Replacing a whole genome with it would lose
 * the person's results, so such a file waits for a confirmation instead
 * (POST .../genotype/upload/?confirm_replace=true). A first upload is never held back:
 * there is nothing to lose. Files that are not genotypes at all are refused by the parser
 * (parse/nongenome.ts) before this is asked.
 */
import type { ParseSummary } from './types.js';

/** Fewer than half the markers, and at least this many fewer, is "much smaller". */
const MIN_MARKERS_LOST = 1000;
/** A drop in call rate by this much (e.g. 0.98 → 0.70) is "stranger". */
const CALL_RATE_DROP = 0.2;
/** A share of skipped lines this much above the genotype in use's, and at least MIN_SKIPPED_SHARE. */
const SKIPPED_SHARE_RISE = 0.15;
const MIN_SKIPPED_SHARE = 0.2;

type Summary = Pick<ParseSummary, 'snp_count' | 'call_rate' | 'skipped_lines'> &
  Partial<Pick<ParseSummary, 'binary_tail_bytes'>>;

function skippedShare(s: Summary): number {
  const lines = s.snp_count + s.skipped_lines;
  return lines === 0 ? 0 : s.skipped_lines / lines;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Null when `next` may replace `current` (the summary of the genotype in use, or null when
 * there is none); otherwise why it is held back, as a sentence for the user.
 */
export function replacementConcern(current: Summary | null, next: Summary, profileId: string): string | null {
  if (!current) return null;
  const concerns: string[] = [];
  if (next.snp_count * 2 < current.snp_count && current.snp_count - next.snp_count >= MIN_MARKERS_LOST) {
    concerns.push(
      `it has ${count(next.snp_count)} markers, far fewer than the ${count(current.snp_count)} of the genotype in use (is it the complete file?)`,
    );
  }
  if (next.call_rate < current.call_rate - CALL_RATE_DROP) {
    concerns.push(
      `only ${Math.round(next.call_rate * 100)}% of its markers have a call, against ${Math.round(current.call_rate * 100)}% in the genotype in use`,
    );
  }
  const skipped = skippedShare(next);
  if (skipped >= MIN_SKIPPED_SHARE && skipped > skippedShare(current) + SKIPPED_SHARE_RISE) {
    concerns.push(`${Math.round(skipped * 100)}% of its lines could not be read`);
  }
  if ((next.binary_tail_bytes ?? 0) > 0)
    concerns.push('it ends in binary data, as a damaged download or a file with something appended does');
  if (concerns.length === 0) return null;
  return (
    `This file was read, but it was not used because ${concerns.join('; and ')}. The genotype in use and its results were kept. ` +
    `If this file is the one to use, confirm the replacement: POST /api/profiles/${profileId}/genotype/upload/?confirm_replace=true.`
  );
}
