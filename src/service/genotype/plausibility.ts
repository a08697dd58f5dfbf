/**
 * Whether a newly parsed file should replace the genotype in use without asking. A file
 * that parsed can still be the wrong one: a few lines copied from a genome, a damaged
 * download, a file with something appended. Replacing a whole genome with it would lose
 * the person's results, so such a file waits for a confirmation instead
 * (POST .../genotype/upload/?confirm_replace=true). Files that are not genotypes at all
 * are refused by the parser (parse/nongenome.ts) before this is asked.
 *
 * Whether the calls look like one person's (genomeConcern): a file that parses but whose
 * calls no person has (no calls at all, one allele on the autosomes, no heterozygous call)
 * is refused as a first upload — it would be scored as if it were someone — and, as a
 * replacement, waits for a confirmation like the files above.
 */
import { CHROM_X } from './encoding.js';
import { fileLimitsOf } from '../../shared/file-limits.js';
import type { Genotype, ParseSummary } from './types.js';

/** Fewer than half the markers, and at least this many fewer, is "much smaller". */
const MIN_MARKERS_LOST = 1000;
/** A drop in call rate by this much (e.g. 0.98 → 0.70) is "stranger". */
const CALL_RATE_DROP = 0.2;
/** A share of skipped lines this much above the genotype in use's, and at least MIN_SKIPPED_SHARE. */
const SKIPPED_SHARE_RISE = 0.15;
const MIN_SKIPPED_SHARE = 0.2;

type Summary = Pick<ParseSummary, 'snp_count' | 'call_rate' | 'skipped_lines'> &
  Partial<Pick<ParseSummary, 'binary_tail_bytes' | 'matched_by' | 'site_reading' | 'build'>>;

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
  // A sequencing VCF without rsIDs, or of variants only, keeps only the markers Traitscope
  // can read in it (shared/file-limits.ts): tens of thousands however complete the file, so its
  // count says nothing of a cut-off download (a whole genome of variants only, with rsIDs
  // or not, keeps ~28,000 markers, a chip file ~640,000).
  const countSaysComplete = fileLimitsOf(next) === null;
  if (
    countSaysComplete &&
    next.snp_count * 2 < current.snp_count &&
    current.snp_count - next.snp_count >= MIN_MARKERS_LOST
  ) {
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

/** Fewer autosomal calls than this say too little about heterozygosity to judge it. */
const MIN_AUTOSOMAL_CALLS = 1000;
/** More than this share of single-allele calls on the autosomes: not a person's two copies. */
const MAX_HAPLOID_SHARE = 0.5;
/**
 * Heterozygous calls among the two-allele autosomal calls. A person's array export is about
 * 30 % heterozygous, also a child of cousins (inbreeding lowers it by a sixteenth);
 * a whole-genome VCF of variant sites is 60-70 %, so VCFs have no upper bound here (a list
 * of variants is refused by the parser, parse/nongenome.ts).
 */
const MIN_HETEROZYGOUS_SHARE = 0.05;
const MAX_ARRAY_HETEROZYGOUS_SHARE = 0.75;

const percent = (part: number, whole: number) => `${Math.round((part / whole) * 1000) / 10} %`;

/**
 * Null when the calls look like one person's genome; otherwise what no person's genotype
 * does, as a sentence for the user (without advice: the caller says what happens next).
 */
export function genomeConcern(
  genotype: Genotype,
  summary: Pick<ParseSummary, 'format' | 'snp_count' | 'matched_by'>,
): string | null {
  const { calls, chroms } = genotype;
  let called = 0;
  let autosomal = 0;
  let haploid = 0;
  let heterozygous = 0;
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i];
    if (c === 0) continue;
    called++;
    const chrom = chroms[i];
    if (chrom === 0 || chrom >= CHROM_X) continue;
    autosomal++;
    const a2 = c & 15;
    if (a2 === 0) haploid++;
    else if (c >> 4 !== a2) heterozygous++;
  }
  if (called === 0)
    return `none of its ${count(summary.snp_count)} markers has a call (every genotype is a no-call such as "--")`;
  if (autosomal < MIN_AUTOSOMAL_CALLS) return null;
  if (haploid > autosomal * MAX_HAPLOID_SHARE)
    return (
      `${count(haploid)} of its ${count(autosomal)} calls on chromosomes 1-22 name a single allele, but a person carries two copies of every one of them ` +
      '(a table of risk alleles or of variants reads like this)'
    );
  // A variants-only VCF's unlisted sites are read as homozygous reference: those calls are
  // Traitscope's reading, not the file's, so heterozygosity is judged on the listed calls.
  const diploid = autosomal - haploid - (summary.matched_by?.read_as_reference ?? 0);
  if (diploid < MIN_AUTOSOMAL_CALLS) return null;
  if (heterozygous < diploid * MIN_HETEROZYGOUS_SHARE)
    return (
      `only ${count(heterozygous)} of its ${count(diploid)} calls on chromosomes 1-22 (${percent(heterozygous, diploid)}) are heterozygous, ` +
      "where a person's raw data has about 30 % (a file with every call made homozygous, or a list of reference alleles, reads like this)"
    );
  if (summary.format !== 'vcf' && heterozygous > diploid * MAX_ARRAY_HETEROZYGOUS_SHARE)
    return (
      `${count(heterozygous)} of its ${count(diploid)} calls on chromosomes 1-22 (${percent(heterozygous, diploid)}) are heterozygous, ` +
      "where a person's raw data has about 30 %"
    );
  return null;
}

/** The sentence that refuses a first upload whose calls are not a person's (genomeConcern). */
export function notAGenomeReason(concern: string): string {
  return `This file was read, but it does not look like one person's genotype: ${concern}. Upload the raw data download from your testing company.`;
}

/** The sentence that holds back a replacement whose calls are not a person's, saying how to confirm it. */
export function unlikelyGenomeConcern(concern: string, profileId: string): string {
  return (
    `This file was read, but it was not used because it does not look like one person's genotype: ${concern}. The genotype in use and its results were kept. ` +
    `If this file is the one to use, confirm the replacement: POST /api/profiles/${profileId}/genotype/upload/?confirm_replace=true.`
  );
}
