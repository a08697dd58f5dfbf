/**
 * Bring your own score: a PGS Catalog scoring file (format v1 or v2, author-reported or
 * harmonized, plain or gzipped) → a custom trait definition in the catalog's own format,
 * or a clear error. docs/science.md ("Imported scores") states the rules.
 *
 * - Variants are matched to genotypes by rsID: the rsID column, else hm_rsID, else the
 *   position — hm_chr/hm_pos in HmPOS_build, else chr_name/chr_position in the file's
 *   genome_build, either GRCh37 or GRCh38 — looked up in the shipped 1000 Genomes table
 *   (GRCh37) and in the position index of every marker Traitscope knows in both builds
 *   (genotype/positions.ts), with the alleles checked against its REF/ALT.
 * - Alleles are single A/C/G/T; letters are aligned to the 1000 Genomes forward strand
 *   when the variant is in the table (complemented if needed); palindromic variants with
 *   minor-allele frequency ≥ 0.4 are dropped (strand cannot be told), as in the catalog.
 * - A file is imported when at least MIN_MATCHED_SHARE (75 %, as pgsc_calc's default) of
 *   its variants can be matched; otherwise it is refused with the reasons.
 * - Frequencies: allelefrequency_effect_<POP> columns for that population, else the
 *   shipped 1000 Genomes table, else the file's allelefrequency_effect for every
 *   population. A percentile needs them: when at least 75 % of the matched variants have
 *   frequencies, the others are left out (and the name says the score lost variants);
 *   otherwise every matched variant is kept and results are raw scores without a
 *   percentile, which the trait says (`raw_score_only`).
 * - Weights: effect_weight (ln taken when weight_type says OR/HR), is_dominant /
 *   is_recessive flags, or dosage_0/1/2_weight columns.
 * - Haplotype, diplotype and interaction rows are refused: Traitscope scores single SNPs.
 */
import { gunzipSync } from 'node:zlib';
import { formatBytes } from '../../shared/format-bytes.js';
import { evidenceLabel } from './evidence.js';
import { POPULATION_ORDER, type CatalogTrait } from './format.js';
import { loadKgTable, type KgTable, type KgVariant } from './kg-table.js';
import { PALINDROME_MAF_LIMIT } from './match.js';
import { ALLELE_LETTERS, CHROM_X } from '../genotype/encoding.js';
import { loadPositionIndex, rowsAt, type IndexedBuild, type PositionIndex } from '../genotype/positions.js';
import { traitRevision } from './revision.js';
import type { Connotation } from './types.js';

export interface PgsImportOptions {
  /** The app's resources folder (for the 1000 Genomes table). */
  resourcesDir: string;
  /** Trait code to use (default: "custom_" + the PGS id or name). */
  code?: string;
  /** Display name (default: the reported trait and the PGS id). */
  name?: string;
  connotation?: Connotation;
  /** The least share of the file's variants that must be matched (default MIN_MATCHED_SHARE). */
  minUsableShare?: number;
}

export interface PgsImportReport {
  pgs_id: string | null;
  format_version: string;
  harmonized: boolean;
  /** Data rows in the file. */
  variants: number;
  /** Variants that became markers. */
  usable: number;
  /** Rows left out, by reason. */
  dropped: Record<string, number>;
  /** How markers were matched to rsIDs (position: by either build, then split by build), and where their frequencies came from. */
  matched_by: { rsid: number; hm_rsid: number; position: number; position_grch37: number; position_grch38: number };
  frequency_source: { file_population: number; thousand_genomes: number; file_overall: number };
  strand_flipped_to_forward: number;
  weight_model: 'additive' | 'dominance_flags' | 'dosage_weights';
  /** Matched variants / variants in the file. */
  match_rate: number;
  /** Whether results get a percentile (enough variants with reference frequencies), and why not. */
  percentile: boolean;
  percentile_note: string | null;
  notes: string[];
}

/** Least share of a file's variants that must be matched for it to be imported (pgsc_calc's min_overlap). */
export const MIN_MATCHED_SHARE = 0.75;
/** Least share of the matched variants with reference frequencies for a percentile. */
export const MIN_FREQUENCY_SHARE = 0.75;

export type PgsImportResult = { ok: true; trait: CatalogTrait; report: PgsImportReport } | { ok: false; error: string };

const COMP: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' };
const BASE = /^[ACGT]$/;
const POP_ALIASES: Record<string, (typeof POPULATION_ORDER)[number]> = {
  eur: 'EUR',
  european: 'EUR',
  amr: 'AMR',
  american: 'AMR',
  hispanic: 'AMR',
  latino: 'AMR',
  afr: 'AFR',
  african: 'AFR',
  eas: 'EAS',
  eastasian: 'EAS',
  east_asian: 'EAS',
  sas: 'SAS',
  southasian: 'SAS',
  south_asian: 'SAS',
};

function fail(error: string): PgsImportResult {
  return { ok: false, error };
}

/**
 * Most bytes a gzipped scoring file may expand to (500 MiB). The whole text is read as one
 * string, and V8's longest string is 2^29 − 24 characters (just under 512 MiB), so nothing
 * larger could be read anyway; a file that expands beyond this is refused before it fills memory.
 */
export const MAX_PGS_DECOMPRESSED_BYTES = 500 * 1024 * 1024;

/** Decompresses a gzipped file (if it is one) with its output capped at maxBytes, then decodes UTF-8. */
export function decodeScoringFile(bytes: Uint8Array, maxBytes = MAX_PGS_DECOMPRESSED_BYTES): string {
  let data = bytes;
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data, { maxOutputLength: maxBytes });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw new Error(
          `The compressed file expands to more than ${formatBytes(maxBytes)}, more than any scoring file this app can read. ` +
            'It may be a decompression bomb or not a scoring file; download the scoring file from the PGS Catalog again.',
          { cause: err },
        );
      throw new Error('The file looks gzipped but could not be decompressed. Download the scoring file again.', {
        cause: err,
      });
    }
  }
  if (data.length > maxBytes)
    throw new Error(
      `The file is larger than ${formatBytes(maxBytes)}, more than any scoring file this app can read. Download the scoring file from the PGS Catalog again.`,
    );
  return new TextDecoder('utf-8').decode(data).replace(/^\uFEFF/, '');
}

const isTrue = (v: string | undefined) => /^(true|1|yes)$/i.test((v ?? '').trim());

export function importPgsScoringFile(bytes: Uint8Array, options: PgsImportOptions): PgsImportResult {
  let text: string;
  try {
    text = decodeScoringFile(bytes);
  } catch (err) {
    return fail((err as Error).message);
  }
  const lines = text.split(/\r?\n/);
  const meta: Record<string, string> = {};
  let headerIndex = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const m = /^#+\s*([A-Za-z_][\w ]*?)\s*=\s*(.*)$/.exec(line);
      if (m) meta[m[1].trim()] = m[2].trim();
      continue;
    }
    headerIndex = i;
    break;
  }
  if (headerIndex < 0)
    return fail(
      'This file has no column header row. A PGS Catalog scoring file has "#" metadata lines followed by a tab-separated header such as "rsID  chr_name  effect_allele  other_allele  effect_weight".',
    );
  const header = lines[headerIndex].split('\t').map((h) => h.trim().replace(/^"|"$/g, ''));
  const col = (name: string) => header.findIndex((h) => h.toLowerCase() === name.toLowerCase());
  const c = {
    rsid: col('rsID') >= 0 ? col('rsID') : col('rsid'),
    chr: col('chr_name'),
    pos: col('chr_position'),
    effect: col('effect_allele'),
    other: col('other_allele') >= 0 ? col('other_allele') : col('reference_allele'),
    weight: col('effect_weight'),
    or: col('OR'),
    hr: col('HR'),
    d0: col('dosage_0_weight'),
    d1: col('dosage_1_weight'),
    d2: col('dosage_2_weight'),
    dominant: col('is_dominant'),
    recessive: col('is_recessive'),
    haplotype: col('is_haplotype'),
    diplotype: col('is_diplotype'),
    interaction: col('is_interaction'),
    freq: col('allelefrequency_effect'),
    hmRsid: col('hm_rsID'),
    hmChr: col('hm_chr'),
    hmPos: col('hm_pos'),
    hmOther: col('hm_inferOtherAllele'),
  };
  const popFreqCols: Array<[number, number]> = [];
  header.forEach((h, i) => {
    const m = /^allelefrequency_effect_(.+)$/i.exec(h);
    const pop = m
      ? (POP_ALIASES[m[1].toLowerCase().replace(/[\s-]/g, '_')] ??
        POP_ALIASES[m[1].toLowerCase().replace(/[\s_-]/g, '')])
      : undefined;
    if (pop) popFreqCols.push([POPULATION_ORDER.indexOf(pop), i]);
  });
  if (c.effect < 0)
    return fail(
      'The file has no effect_allele column, so it cannot be scored. Use a PGS Catalog scoring file (https://www.pgscatalog.org/downloads/).',
    );
  const hasDosage = c.d0 >= 0 && c.d1 >= 0 && c.d2 >= 0;
  if (c.weight < 0 && !hasDosage && c.or < 0 && c.hr < 0)
    return fail(
      'The file has no effect_weight column (nor dosage_0/1/2_weight or OR/HR columns), so there is nothing to score.',
    );
  if (c.rsid < 0 && c.hmRsid < 0 && (c.chr < 0 || c.pos < 0) && (c.hmChr < 0 || c.hmPos < 0)) {
    return fail(
      'The file has neither an rsID column nor chromosome positions, so its variants cannot be matched to a genotype.',
    );
  }

  const fileBuild = buildNamed(meta.genome_build);
  const hmBuild = buildNamed(meta.HmPOS_build);
  const weightType = (meta.weight_type ?? '').toLowerCase();
  const weightsAreRatios = /^(or|hr|or\/hr|odds ratio|hazard ratio)$/.test(weightType);
  let kg: KgTable;
  let positions: PositionIndex;
  try {
    kg = loadKgTable(options.resourcesDir);
    positions = loadPositionIndex(options.resourcesDir);
  } catch (err) {
    return fail(
      `The bundled 1000 Genomes table or marker positions could not be read (${(err as Error).message}); reinstall Traitscope.`,
    );
  }

  const dropped: Record<string, number> = {};
  const drop = (reason: string) => void (dropped[reason] = (dropped[reason] ?? 0) + 1);
  const report: PgsImportReport = {
    pgs_id: meta.pgs_id || meta.omicspred_id || null,
    format_version: meta.format_version || (header.includes('reference_allele') ? '1.0' : 'unknown'),
    harmonized: c.hmPos >= 0 || c.hmRsid >= 0 || 'HmPOS_build' in meta,
    variants: 0,
    usable: 0,
    dropped,
    matched_by: { rsid: 0, hm_rsid: 0, position: 0, position_grch37: 0, position_grch38: 0 },
    frequency_source: { file_population: 0, thousand_genomes: 0, file_overall: 0 },
    strand_flipped_to_forward: 0,
    weight_model: hasDosage ? 'dosage_weights' : c.dominant >= 0 || c.recessive >= 0 ? 'dominance_flags' : 'additive',
    match_rate: 0,
    percentile: true,
    percentile_note: null,
    notes: [],
  };
  if (weightsAreRatios)
    report.notes.push(`weight_type is "${meta.weight_type}": weights were converted to their natural logarithm.`);

  interface Row {
    rsid: number;
    effect: string;
    other: string;
    weight: number;
    dw: [number, number, number];
    freq: number[] | null;
  }
  const rows = new Map<number, Row>();
  for (let li = headerIndex + 1; li < lines.length; li++) {
    const line = lines[li];
    if (line.trim() === '' || line.startsWith('#')) continue;
    report.variants++;
    const f = line.split('\t').map((x) => x.trim().replace(/^"|"$/g, ''));
    const get = (i: number) => (i >= 0 ? (f[i] ?? '') : '');
    if (isTrue(get(c.haplotype)) || isTrue(get(c.diplotype))) {
      return fail(
        `Line ${li + 1} is a haplotype or diplotype (${get(c.effect) || 'no allele'}). Traitscope scores single SNPs only, so this score cannot be imported.`,
      );
    }
    if (isTrue(get(c.interaction)))
      return fail(
        `Line ${li + 1} is an interaction term. Traitscope scores additive single-SNP effects only, so this score cannot be imported.`,
      );

    // Weights.
    let dw: [number, number, number];
    let weight: number;
    if (hasDosage) {
      const d = [Number(get(c.d0)), Number(get(c.d1)), Number(get(c.d2))] as [number, number, number];
      if (!d.every(Number.isFinite)) {
        drop('missing_weight');
        continue;
      }
      dw = d;
      weight = (d[2] - d[0]) / 2;
    } else {
      let w = c.weight >= 0 ? Number(get(c.weight)) : NaN;
      let ratio = weightsAreRatios;
      if (!Number.isFinite(w) || get(c.weight) === '') {
        w = Number(get(c.or >= 0 ? c.or : c.hr));
        ratio = true;
      }
      if (!Number.isFinite(w) || (ratio && !(w > 0))) {
        drop('missing_weight');
        continue;
      }
      weight = ratio ? Math.log(w) : w;
      const dom = isTrue(get(c.dominant));
      const rec = isTrue(get(c.recessive));
      dw = dom ? [0, weight, weight] : rec ? [0, 0, weight] : [0, weight, 2 * weight];
    }

    // Alleles.
    let effect = get(c.effect).toUpperCase();
    let other = (get(c.other) || get(c.hmOther)).toUpperCase();
    if (!BASE.test(effect) || (other !== '' && !BASE.test(other))) {
      drop('not_a_single_nucleotide_variant');
      continue;
    }

    // rsID.
    let rsid: number;
    let via: KgVariant | undefined;
    const idText = get(c.rsid);
    const hmText = get(c.hmRsid);
    if (/^rs\d+$/i.test(idText)) {
      rsid = Number(idText.slice(2));
      report.matched_by.rsid++;
    } else if (/^rs\d+$/i.test(hmText)) {
      rsid = Number(hmText.slice(2));
      report.matched_by.hm_rsid++;
    } else {
      // The harmonized position first (in HmPOS_build), then the author-reported one (in genome_build).
      const sites: Array<[string, number, IndexedBuild]> = [];
      if (hmBuild && get(c.hmChr) && get(c.hmPos)) sites.push([get(c.hmChr), Number(get(c.hmPos)), hmBuild]);
      if (fileBuild && get(c.chr) && get(c.pos)) sites.push([get(c.chr), Number(get(c.pos)), fileBuild]);
      let found: { rsid: number; build: IndexedBuild } | null = null;
      for (const [chr, pos, b] of sites) {
        const chrom = chr.replace(/^chr/i, '');
        via = b === 37 ? kg.byPosition(chrom, pos).find((v) => alleleSetMatches(v, effect, other)) : undefined;
        const rs = via?.rsid ?? markerAt(positions, b, chrom, pos, effect, other);
        if (rs !== null) {
          found = { rsid: rs, build: b };
          break;
        }
      }
      if (!found) {
        drop(
          sites.length > 0
            ? 'position_not_a_known_marker'
            : get(c.chr) || get(c.hmChr)
              ? 'position_build_not_stated'
              : 'no_rsid_or_position',
        );
        continue;
      }
      rsid = found.rsid;
      report.matched_by.position++;
      if (found.build === 37) report.matched_by.position_grch37++;
      else report.matched_by.position_grch38++;
    }
    const ref = via ?? kg.byRsid(rsid);

    // Other allele, strand.
    if (other === '') {
      if (ref && (effect === ref.ref || effect === ref.alt)) other = effect === ref.ref ? ref.alt : ref.ref;
      else if (ref && (COMP[effect] === ref.ref || COMP[effect] === ref.alt))
        other = COMP[effect === COMP[ref.ref] ? ref.alt : ref.ref];
      else {
        drop('other_allele_unknown');
        continue;
      }
    }
    if (effect === other) {
      drop('effect_equals_other_allele');
      continue;
    }
    const palindromic = COMP[effect] === other;
    if (ref && !palindromic) {
      if (!sameSet(effect, other, ref.ref, ref.alt)) {
        if (sameSet(COMP[effect], COMP[other], ref.ref, ref.alt)) {
          effect = COMP[effect];
          other = COMP[other];
          report.strand_flipped_to_forward++;
        } else {
          drop('alleles_differ_from_1000_genomes');
          continue;
        }
      }
    }

    // Frequencies.
    const overall = Number(get(c.freq));
    let freq: number[] | null = [];
    let ok = true;
    for (let p = 0; p < POPULATION_ORDER.length; p++) {
      const popCol = popFreqCols.find(([pi]) => pi === p);
      const fromFile = popCol ? Number(get(popCol[1])) : NaN;
      if (popCol && get(popCol[1]) !== '' && fromFile >= 0 && fromFile <= 1) {
        freq.push(fromFile);
        report.frequency_source.file_population++;
      } else if (ref && sameSet(effect, other, ref.ref, ref.alt)) {
        freq.push(effect === ref.alt ? ref.altFreq[p] : 1 - ref.altFreq[p]);
        report.frequency_source.thousand_genomes++;
      } else if (get(c.freq) !== '' && overall >= 0 && overall <= 1) {
        freq.push(overall);
        report.frequency_source.file_overall++;
      } else {
        ok = false;
        break;
      }
    }
    if (!ok) freq = null;
    if (palindromic) {
      // Strand cannot be told from letters: kept only when the frequency shows it (as in the catalog).
      const mean = freq ? freq.reduce((a, b) => a + b, 0) / freq.length : 0.5;
      if (Math.min(mean, 1 - mean) >= PALINDROME_MAF_LIMIT) {
        drop(freq ? 'palindromic_ambiguous' : 'palindromic_without_frequency');
        continue;
      }
    }
    if (rows.has(rsid)) {
      drop('duplicate_variant');
      continue;
    }
    rows.set(rsid, { rsid, effect, other, weight, dw, freq });
  }
  if (report.variants === 0) return fail('The file has a header but no variant rows.');
  const minShare = options.minUsableShare ?? MIN_MATCHED_SHARE;
  if (rows.size === 0 || rows.size < minShare * report.variants) {
    const reasons = Object.entries(dropped)
      .map(([k, v]) => `${v} ${k.replaceAll('_', ' ')}`)
      .join(', ');
    return fail(
      `Only ${rows.size} of ${report.variants} variants could be matched (${reasons || 'no usable rows'}); at least ${Math.round(100 * minShare)} % are needed. ` +
        `Traitscope matches a variant by its rsID, or by its GRCh37 or GRCh38 position (the file's genome_build or HmPOS_build must say which) when it is one of the ${positions.size.toLocaleString('en-US')} markers whose positions Traitscope knows, ` +
        'and needs single-letter alleles and a weight.',
    );
  }
  report.match_rate = rows.size / report.variants;
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
      `a percentile needs at least ${Math.round(100 * MIN_FREQUENCY_SHARE)} %, so results show the raw score and how many variants were found, without a percentile.`;
  }
  report.usable = rows.size;
  const lost = report.variants - rows.size;
  if (lost > 0)
    report.notes.push(
      `${lost} of the score's ${report.variants} variants are left out (${Object.entries(dropped)
        .map(([k, v]) => `${v} ${k.replaceAll('_', ' ')}`)
        .join(', ')}): this is not the published score as it stands.`,
    );

  const markers = [...rows.values()].sort((a, b) => a.rsid - b.rsid);
  const additive = markers.every((m) => m.dw[0] === 0 && m.dw[1] === m.weight && m.dw[2] === 2 * m.weight);
  const pgsId = report.pgs_id;
  const traitName = meta.trait_reported || meta.pgs_name || 'Imported score';
  const yearMatch = /\((\d{4})\)/.exec(meta.citation ?? '');
  const year = yearMatch ? Number(yearMatch[1]) : null;
  const code =
    options.code ??
    `custom_${(pgsId || meta.pgs_name || 'score')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')}`;
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
      : weightsAreRatios || weightType.includes('log')
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
      dropped,
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
      ...(additive ? {} : { dosage_weights: markers.flatMap((m) => m.dw) }),
    },
    ...(report.percentile ? {} : { raw_score_only: { reason: report.percentile_note! } }),
  };
  trait.revision = traitRevision(trait);
  return { ok: true, trait, report };
}

/** Largest share of the score's variance on one variant, worst over the populations (variants with frequencies). */
function topShare(markers: Array<{ dw: number[]; freq: number[] | null }>): number {
  let worst = 0;
  for (let p = 0; p < POPULATION_ORDER.length; p++) {
    let total = 0;
    let top = 0;
    for (const m of markers) {
      if (!m.freq) continue;
      const f = m.freq[p];
      const [c0, c1, c2] = m.dw;
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

/** 37 or 38 for a build name of the PGS Catalog headers (GRCh37, hg19, GRCh38, hg38), else null (NR). */
function buildNamed(name: string | undefined): IndexedBuild | null {
  const n = (name ?? '').trim().toLowerCase();
  if (n === 'grch37' || n === 'hg19') return 37;
  if (n === 'grch38' || n === 'hg38') return 38;
  return null;
}

/**
 * The rsID of the known marker at this position whose REF/ALT are the effect/other letters
 * (either strand); a marker whose REF/ALT are unknown matches when it is the only one there.
 */
function markerAt(
  index: PositionIndex,
  build: IndexedBuild,
  chr: string,
  pos: number,
  effect: string,
  other: string,
): number | null {
  const chrom = chr.toUpperCase() === 'X' ? CHROM_X : Number(chr);
  if (!Number.isInteger(chrom) || chrom < 1 || chrom > CHROM_X || !(pos > 0)) return null;
  const rows = rowsAt(index, build, chrom, pos);
  for (const row of rows) {
    if (index.ref[row] === 0) {
      if (rows.length === 1) return index.rsid[row];
      continue;
    }
    const v = { ref: ALLELE_LETTERS[index.ref[row]], alt: ALLELE_LETTERS[index.alt[row]] };
    if (alleleSetMatches(v, effect, other)) return index.rsid[row];
  }
  return null;
}

function sameSet(a: string, b: string, x: string, y: string): boolean {
  return (a === x && b === y) || (a === y && b === x);
}

/** The variant's REF/ALT are the effect/other letters, on either strand (other may be unknown). */
function alleleSetMatches(v: Pick<KgVariant, 'ref' | 'alt'>, effect: string, other: string): boolean {
  const direct = (effect === v.ref || effect === v.alt) && (other === '' || other === v.ref || other === v.alt);
  const comp =
    (COMP[effect] === v.ref || COMP[effect] === v.alt) &&
    (other === '' || COMP[other] === v.ref || COMP[other] === v.alt);
  return direct || comp;
}
