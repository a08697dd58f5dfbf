/** What in a DNA file's summary a person must see before trusting the results: the DNA card's warnings. */
import { fileLimitsOf } from '../../../shared/file-limits.js';
import { formatInt } from './format.js';

/** Plain-language warnings about a file that was read but may be incomplete or damaged. */
export function fileWarnings(m: Record<string, unknown>, cutLine?: string | null): string[] {
  const out: string[] = [];
  const snps = typeof m.snp_count === 'number' ? m.snp_count : null;
  // A sequencing file read by position or as variants only keeps only the markers Traitscope
  // can read in it, however complete the file: SiteReading says why, not a warning.
  if (snps !== null && snps < 200_000 && fileLimitsOf(m) === null) {
    out.push(
      `Only ${formatInt(snps)} markers were read. Files from testing companies hold 500,000 or more: check that this is the complete raw-data download, not an excerpt.`,
    );
  }
  if (cutLine)
    out.push(
      `The file ends in the middle of a line (“${cutLine.slice(0, 60)}”): the download may have been cut off. Download it again if results are missing.`,
    );
  const skipped = (m.skipped_by_reason ?? {}) as Record<string, number>;
  const malformed = skipped.malformed ?? 0;
  if (malformed > 0)
    out.push(`${formatInt(malformed)} ${malformed === 1 ? 'line was' : 'lines were'} incomplete and skipped.`);
  for (const note of Array.isArray(m.notes) ? (m.notes as unknown[]) : [])
    if (
      typeof note === 'string' &&
      /binary|damaged|cut|truncat|incomplete|may be genotype data|samples \(.*the first sample, "/i.test(note)
    )
      out.push(note);
  return out;
}
