/**
 * Why a sequencing file cannot be read at some markers whatever it holds, from its parse
 * summary, and how a result missing them says so: without rsIDs a line is read only at a
 * marker whose position Traitscope knows; listing variants only (or a gVCF), a marker is read
 * only where its reference allele is known (docs/file-formats.md, "Sequencing files").
 */
import type { SiteReading } from './site-reading.js';

/** Why a sequencing file cannot be read at some markers whatever it holds. */
export interface FileLimits {
  withoutRsids: boolean;
  variantsOnly: boolean;
  build: 37 | 38 | null;
}

/** The parts of a genotype summary (the service's ParseSummary, the API's metadata) that show the limits. */
export interface SummaryWithSites {
  matched_by?: { rsid: number; position: number } | null;
  site_reading?: SiteReading | null;
  build?: number | null;
}

/** The limits a parse summary shows, or null when the file is read at every marker it holds. */
export function fileLimitsOf(summary: SummaryWithSites): FileLimits | null {
  const withoutRsids = !!summary.matched_by && summary.matched_by.rsid === 0 && summary.matched_by.position > 0;
  const variantsOnly = !!summary.site_reading && summary.site_reading !== 'as_listed';
  if (!withoutRsids && !variantsOnly) return null;
  const build = summary.build === 37 || summary.build === 38 ? summary.build : null;
  return { withoutRsids, variantsOnly, build };
}

/** What kept the markers out, and which file is read at all of them: said with a result that misses them, so it does not read as a poor file. */
export function fileLimitsText(limits: FileLimits): string {
  const build = limits.build ? `GRCh${limits.build} ` : '';
  const parts: string[] = [];
  if (limits.withoutRsids)
    parts.push(
      `Your file has no rsIDs, so a marker is read only where Traitscope knows its ${build}position, and no shipped source places most markers of GWAS Catalog studies after 2017.`,
    );
  if (limits.variantsOnly)
    parts.push(
      'Your file lists only the sites where you differ from the reference genome, so a marker whose reference allele Traitscope does not know cannot be read where you match it.',
    );
  const fix =
    limits.withoutRsids && limits.variantsOnly
      ? 'A VCF with rsIDs (bcftools annotate with dbSNP) that lists every called site is read at all of them.'
      : limits.withoutRsids
        ? 'The same file with rsIDs (bcftools annotate with dbSNP) is read at all of them.'
        : 'A VCF that lists every called site is read at all of them.';
  return `${parts.join(' ')} ${fix}`;
}
