/**
 * The last stage of a PGS import: the matched variants → the import report and a custom
 * trait in the catalog's own format, or a refusal saying why. A file is imported when at
 * least MIN_MATCHED_SHARE of its variants are matched; a percentile is given when at least
 * MIN_FREQUENCY_SHARE of those have reference frequencies (the others then leave the score),
 * otherwise results are raw scores and the trait says why (`raw_score_only`).
 */
import { evidenceLabel } from '../evidence.js';
import { POPULATION_ORDER, type CatalogTrait } from '../format.js';
import { traitRevision } from '../revision.js';
import type { Connotation } from '../types.js';
import type { ScoringHeader } from './header.js';
import type { MatchCounts, MatchedVariant } from './match.js';
import type { SiteReading } from './file-sites.js';

export interface PgsImportReport extends MatchCounts {
  pgs_id: string | null;
  format_version: string;
  harmonized: boolean;
  /** Data rows in the file. */
  variants: number;
  /** Variants that became markers. */
  usable: number;
  /** Rows left out, by reason. */
  dropped: Record<string, number>;
  weight_model: 'additive' | 'dominance_flags' | 'dosage_weights';
  /** Matched variants / variants in the file. */
  match_rate: number;
  /** Whether results get a percentile (enough variants with reference frequencies), and why not. */
  percentile: boolean;
  percentile_note: string | null;
  notes: string[];
}

export type PgsImportResult = { ok: true; trait: CatalogTrait; report: PgsImportReport } | { ok: false; error: string };

/** Least share of a file's variants that must be matched for it to be imported (pgsc_calc's min_overlap). */
export const MIN_MATCHED_SHARE = 0.75;
/** Least share of the matched variants with reference frequencies for a percentile. */
export const MIN_FREQUENCY_SHARE = 0.75;

export interface ReportInput {
  header: ScoringHeader;
  /** Data rows in the file. */
  variants: number;
  matched: Map<number, MatchedVariant>;
  counts: MatchCounts;
  dropped: Record<string, number>;
  /** Markers the position index knows, for the refusal's explanation. */
  knownPositions: number;
  /** Whose genotype file positions were matched against, for the notes (null when none). */
  genotypeLabel: string | null;
  /** How the person's VCF was read where its lines were read again (absent: they were not). */
  siteReading?: SiteReading | null;
}

export interface TraitOptions {
  code?: string;
  name?: string;
  connotation?: Connotation;
  minUsableShare?: number;
}

const reasonsText = (dropped: Record<string, number>) =>
  Object.entries(dropped)
    .map(([k, v]) => `${v} ${k.replaceAll('_', ' ')}`)
    .join(', ');

export function importReport(input: ReportInput, options: TraitOptions): PgsImportResult {
  const { header, variants, counts, dropped } = input;
  const rows = new Map(input.matched);
  const drop = (reason: string) => void (dropped[reason] = (dropped[reason] ?? 0) + 1);
  const minShare = options.minUsableShare ?? MIN_MATCHED_SHARE;
  if (rows.size === 0 || rows.size < minShare * variants) {
    const where =
      input.genotypeLabel === null
        ? `when it is one of the ${input.knownPositions.toLocaleString('en-US')} markers whose positions Traitscope knows (import it for a profile to match the positions of that person's own file as well)`
        : `when it is one of the ${input.knownPositions.toLocaleString('en-US')} markers whose positions Traitscope knows or a position of ${input.genotypeLabel} with the same alleles`;
    return {
      ok: false,
      error:
        `Only ${rows.size} of ${variants} variants could be matched (${reasonsText(dropped) || 'no usable rows'}); at least ${Math.round(100 * minShare)} % are needed. ` +
        `Traitscope matches a variant by its rsID, or by its GRCh37 or GRCh38 position (the file's genome_build or HmPOS_build must say which) ${where}, ` +
        'and needs single-letter alleles and a weight.' +
        unlistedText(dropped, input.genotypeLabel, input.siteReading),
    };
  }
  const meta = header.meta;
  const report: PgsImportReport = {
    pgs_id: scoreId(header),
    format_version: header.formatVersion,
    harmonized: header.harmonized,
    variants,
    usable: 0,
    dropped,
    ...counts,
    weight_model: header.hasDosageWeights
      ? 'dosage_weights'
      : header.columns.dominant >= 0 || header.columns.recessive >= 0
        ? 'dominance_flags'
        : 'additive',
    match_rate: rows.size / variants,
    percentile: true,
    percentile_note: null,
    notes: [],
  };
  if (header.weightsAreRatios)
    report.notes.push(`weight_type is "${meta.weight_type}": weights were converted to their natural logarithm.`);
  const inFile = counts.matched_by.position_file;
  const inGenotype = counts.matched_by.position_genotype + inFile;
  if (inGenotype > 0 && input.genotypeLabel !== null)
    report.notes.push(
      `${inGenotype} variants were found by position in ${input.genotypeLabel}` +
        (counts.matched_by.position_lifted > 0
          ? ` (${counts.matched_by.position_lifted} after lifting the scoring file's positions to that file's genome build with the UCSC chain)`
          : '') +
        ', their alleles checked against its calls' +
        (inFile > 0
          ? `; ${inFile} of them were read from the file's own lines without rsIDs, and enter the trait under position ids that name no other person's marker, so only this profile is scored on them.`
          : '; other profiles are scored on them by rsID.'),
    );
  if (input.siteReading && input.genotypeLabel !== null)
    report.notes.push(
      input.siteReading === 'as_listed'
        ? `The score's positions were read from ${input.genotypeLabel} as it lists them: a position it does not list is not in it.`
        : `The score's positions were read from ${input.genotypeLabel} as ${input.siteReading === 'variants_only' ? 'a variants-only file' : 'a gVCF'}, the reading chosen for it.` +
            unlistedText(dropped, input.genotypeLabel, input.siteReading),
    );
  // A percentile needs reference frequencies: without enough of them, keep the raw score only.
  const withFreq = [...rows.values()].filter((r) => r.freq !== null).length;
  if (withFreq >= MIN_FREQUENCY_SHARE * rows.size) {
    for (const [rs, r] of rows) {
      if (r.freq === null) {
        rows.delete(rs);
        drop('no_frequency');
      }
    }
  } else {
    report.percentile = false;
    report.percentile_note =
      `Only ${withFreq} of the ${rows.size} matched variants have a population frequency (from the file or the bundled 1000 Genomes table); ` +
      `a percentile needs at least ${Math.round(100 * MIN_FREQUENCY_SHARE)} %, so results show the raw score and how many variants were found, without a percentile.` +
      (inGenotype > 0
        ? ' Variants found by position in a person’s own file are mostly not in the 1000 Genomes table, and without allelefrequency_effect columns in the scoring file no reference distribution can be built for them.'
        : '');
  }
  report.usable = rows.size;
  const lost = variants - rows.size;
  if (lost > 0)
    report.notes.push(
      `${lost} of the score's ${variants} variants are left out (${reasonsText(dropped)}): this is not the published score as it stands.`,
    );
  return { ok: true, trait: importedTrait(header, report, [...rows.values()], options), report };
}

/**
 * Why the positions of a variants-only file or gVCF are left out, and what to do: where the
 * file lists nothing the person is homozygous for the reference allele, but a scoring file's
 * letters do not say which is the reference, and no marker of Traitscope's sits there to
 * tell; so the listed ones would stand alone, one-sided, and are left out too.
 */
function unlistedText(
  dropped: Record<string, number>,
  label: string | null,
  reading: SiteReading | null | undefined,
): string {
  const unlisted = dropped.unlisted_reference_unknown ?? 0;
  const listed = dropped.listed_reference_unknown ?? 0;
  if (unlisted + listed === 0 || label === null) return '';
  const positions = (n: number) => `${n} ${n === 1 ? 'position' : 'positions'}`;
  const oneSided = (n: number) =>
    `${n === 1 ? 'it is' : 'they are'} listed only where the person carries a variant, so reading ${n === 1 ? 'it' : 'them'} alone would count the variants and miss the reference calls. `;
  const unlistedPart =
    unlisted === 0
      ? ''
      : (reading === 'reference_blocks'
          ? ` ${unlisted} of the positions ${unlisted === 1 ? 'lies' : 'lie'} inside reference blocks of ${label} (a gVCF): `
          : ` ${unlisted} of the positions ${unlisted === 1 ? 'is' : 'are'} not listed in ${label}, which is read as listing only the sites where the person differs from the reference: `) +
        `the person is homozygous for the reference allele there, but which of the score’s two letters is the reference is not known at ${unlisted === 1 ? 'that position, so it is' : 'those positions, so they are'} left out. `;
  const listedPart =
    listed === 0
      ? ''
      : unlisted > 0
        ? `The ${positions(listed)} it lists there ${listed === 1 ? 'is' : 'are'} left out too: ${oneSided(listed)}`
        : ` The ${positions(listed)} of the score that ${label} lists ${listed === 1 ? 'is' : 'are'} left out: ` +
          `which of the score’s two letters is the reference is not known there, and ${oneSided(listed)}`;
  return (
    unlistedPart +
    listedPart +
    'A VCF that lists every called site, reference calls included, names the reference there.'
  );
}

/** The score's identifier in its catalog: a PGS Catalog id, else an OmicsPred id. */
function scoreId(header: ScoringHeader): string | null {
  return header.meta.pgs_id || header.meta.omicspred_id || null;
}

/** An imported trait's code: the one asked for, else "custom_" and the score's id or name. */
export function importedTraitCode(header: ScoringHeader, code: string | undefined): string {
  return (
    code ??
    `custom_${(scoreId(header) || header.meta.pgs_name || 'score')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')}`
  );
}

/** The custom trait of an import: the catalog's trait format, its markers sorted by rsID. */
function importedTrait(
  header: ScoringHeader,
  report: PgsImportReport,
  variants: MatchedVariant[],
  options: TraitOptions,
): CatalogTrait {
  const meta = header.meta;
  const weightType = (meta.weight_type ?? '').toLowerCase();
  const markers = variants.sort((a, b) => a.rsid - b.rsid);
  const additive = markers.every(
    (m) => m.dosageWeights[0] === 0 && m.dosageWeights[1] === m.weight && m.dosageWeights[2] === 2 * m.weight,
  );
  const pgsId = report.pgs_id;
  const traitName = meta.trait_reported || meta.pgs_name || 'Imported score';
  const yearMatch = /\((\d{4})\)/.exec(meta.citation ?? '');
  const year = yearMatch ? Number(yearMatch[1]) : null;
  const code = importedTraitCode(header, options.code);
  const citation = `${meta.citation || 'Citation not given in the file'}${pgsId ? `; ${pgsId}${meta.pgs_name ? ` (${meta.pgs_name})` : ''}` : ''}; imported from a PGS Catalog scoring file.`;
  const importedEvidence = evidenceLabel({
    markers: markers.length,
    sampleSize: null,
    genomeWideMarkers: null,
    topMarkerShare: topShare(markers),
    curated: false,
    automatedBiobank: false,
  });
  const partial = markers.length < report.variants ? `, ${markers.length} of ${report.variants} variants` : '';
  const trait: CatalogTrait = {
    code,
    name: options.name ?? `${traitName}${pgsId ? ` (${pgsId}${partial})` : partial ? ` (${partial.slice(2)})` : ''}`,
    overview:
      `An imported polygenic score for “${traitName}”${pgsId ? ` (${pgsId})` : ''}, using ${markers.length} of its ${report.variants} variants. ` +
      (report.percentile_note ? `${report.percentile_note} ` : '') +
      'A higher score means more of the alleles the score’s authors weighted towards the trait. Imported scores are shown as they are; check the score’s publication for what it was developed for and how well it predicts. ' +
      `Source: ${citation}`,
    connotation: options.connotation ?? 'neutral',
    category: 'Imported',
    featured: false,
    default_pricing: 'basic',
    quality: {
      markers: markers.length,
      sample_size: null,
      publication_year: year,
      evidence: importedEvidence.label,
      study_id: pgsId,
      pmid: null,
      first_author: (meta.citation ?? '').split(' et al')[0] || null,
      citation,
    },
    study_label: `${(meta.citation ?? '').split(' et al')[0] || 'Imported score'}${pgsId ? ` (${pgsId})` : ''}`,
    group: { code, name: options.name ?? traitName, size: 1, headline: true },
    sex: null,
    sex_reason: null,
    evidence: {
      label: importedEvidence.label,
      reasons: importedEvidence.reasons,
      genome_wide_markers: null,
      top_marker_share: topShare(markers),
      curated: false,
      flags: ['imported_score'],
      variance_explained: null,
    },
    revision: '',
    weight_scale: weightType.includes('beta')
      ? 'beta'
      : header.weightsAreRatios || weightType.includes('log')
        ? 'ln_or'
        : 'beta',
    text_kind: options.connotation === 'risky' ? 'condition' : 'trait',
    phrase: `“${traitName}”`,
    source: {
      dataset: 'PGS Catalog',
      study_id: pgsId ?? code,
      pmid: null,
      source_trait: traitName,
      source_rows: report.variants,
      dropped: report.dropped,
    },
    markers: {
      rsid: markers.map((m) => m.rsid),
      effect: markers.map((m) => m.effect).join(''),
      other: markers.map((m) => m.other).join(''),
      weight: markers.map((m) => m.weight),
      // Unknown frequencies (raw-score-only traits) are stored as null.
      freq: Object.fromEntries(
        POPULATION_ORDER.map((p, i) => [p, markers.map((m) => (m.freq ? m.freq[i] : null))]),
      ) as unknown as CatalogTrait['markers']['freq'],
      ...(additive ? {} : { dosage_weights: markers.flatMap((m) => m.dosageWeights) }),
    },
    ...(report.percentile ? {} : { raw_score_only: { reason: report.percentile_note! } }),
  };
  trait.revision = traitRevision(trait);
  return trait;
}

/** Largest share of the score's variance on one variant, worst over the populations (variants with frequencies). */
function topShare(markers: Array<{ dosageWeights: number[]; freq: number[] | null }>): number {
  let worst = 0;
  for (let p = 0; p < POPULATION_ORDER.length; p++) {
    let total = 0;
    let top = 0;
    for (const m of markers) {
      if (!m.freq) continue;
      const f = m.freq[p];
      const [c0, c1, c2] = m.dosageWeights;
      const q = 1 - f;
      const e = q * q * c0 + 2 * f * q * c1 + f * f * c2;
      const v = q * q * (c0 - e) ** 2 + 2 * f * q * (c1 - e) ** 2 + f * f * (c2 - e) ** 2;
      total += v;
      top = Math.max(top, v);
    }
    if (total > 0) worst = Math.max(worst, top / total);
  }
  return Math.round(worst * 1e4) / 1e4;
}
