/**
 * The second stage of a PGS import: the "#key=value" metadata lines and the column header
 * of a scoring file (PGS Catalog format v1 or v2, author-reported or harmonized), checked
 * for what scoring needs: an effect allele, a weight, and an rsID or positions.
 */
import { POPULATION_ORDER } from '../format.js';
import type { IndexedBuild } from '../../genotype/positions.js';

/** Index of each column the import reads (-1 when the file has none). */
export interface ScoringColumns {
  rsid: number;
  chr: number;
  pos: number;
  effect: number;
  other: number;
  weight: number;
  or: number;
  hr: number;
  d0: number;
  d1: number;
  d2: number;
  dominant: number;
  recessive: number;
  haplotype: number;
  diplotype: number;
  interaction: number;
  freq: number;
  hmRsid: number;
  hmChr: number;
  hmPos: number;
  hmOther: number;
}

export interface ScoringHeader {
  /** The "#key=value" metadata lines. */
  meta: Record<string, string>;
  columns: ScoringColumns;
  /** [population index in POPULATION_ORDER, column] of each allelefrequency_effect_<POP> column. */
  popFreqColumns: Array<[number, number]>;
  /** The file's lines and the index of the first line after the column header. */
  lines: string[];
  firstDataLine: number;
  /** Build of chr_position (genome_build) and of hm_pos (HmPOS_build); null when not stated or not GRCh37/38. */
  fileBuild: IndexedBuild | null;
  hmBuild: IndexedBuild | null;
  /** weight_type says the weights are odds or hazard ratios (their ln is scored). */
  weightsAreRatios: boolean;
  hasDosageWeights: boolean;
  formatVersion: string;
  harmonized: boolean;
}

export type HeaderResult = { ok: true; header: ScoringHeader } | { ok: false; error: string };

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

/** A cell with surrounding spaces and quotes removed. */
export const cellText = (cell: string) => cell.trim().replace(/^"|"$/g, '');

export function parseScoringHeader(text: string): HeaderResult {
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
  const names = lines[headerIndex].split('\t').map(cellText);
  const col = (name: string) => names.findIndex((h) => h.toLowerCase() === name.toLowerCase());
  const columns: ScoringColumns = {
    rsid: col('rsID'),
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
  const popFreqColumns: Array<[number, number]> = [];
  names.forEach((h, i) => {
    const m = /^allelefrequency_effect_(.+)$/i.exec(h);
    const pop = m
      ? (POP_ALIASES[m[1].toLowerCase().replace(/[\s-]/g, '_')] ??
        POP_ALIASES[m[1].toLowerCase().replace(/[\s_-]/g, '')])
      : undefined;
    if (pop) popFreqColumns.push([POPULATION_ORDER.indexOf(pop), i]);
  });
  const c = columns;
  if (c.effect < 0)
    return fail(
      'The file has no effect_allele column, so it cannot be scored. Use a PGS Catalog scoring file (https://www.pgscatalog.org/downloads/).',
    );
  const hasDosageWeights = c.d0 >= 0 && c.d1 >= 0 && c.d2 >= 0;
  if (c.weight < 0 && !hasDosageWeights && c.or < 0 && c.hr < 0)
    return fail(
      'The file has no effect_weight column (nor dosage_0/1/2_weight or OR/HR columns), so there is nothing to score.',
    );
  if (c.rsid < 0 && c.hmRsid < 0 && (c.chr < 0 || c.pos < 0) && (c.hmChr < 0 || c.hmPos < 0))
    return fail(
      'The file has neither an rsID column nor chromosome positions, so its variants cannot be matched to a genotype.',
    );
  const weightType = (meta.weight_type ?? '').toLowerCase();
  return {
    ok: true,
    header: {
      meta,
      columns,
      popFreqColumns,
      lines,
      firstDataLine: headerIndex + 1,
      fileBuild: buildNamed(meta.genome_build),
      hmBuild: buildNamed(meta.HmPOS_build),
      weightsAreRatios: /^(or|hr|or\/hr|odds ratio|hazard ratio)$/.test(weightType),
      hasDosageWeights,
      formatVersion: meta.format_version || (names.includes('reference_allele') ? '1.0' : 'unknown'),
      harmonized: c.hmPos >= 0 || c.hmRsid >= 0 || 'HmPOS_build' in meta,
    },
  };
}

function fail(error: string): HeaderResult {
  return { ok: false, error };
}

/** 37 or 38 for a build name of the PGS Catalog headers (GRCh37, hg19, GRCh38, hg38), else null (NR). */
export function buildNamed(name: string | undefined): IndexedBuild | null {
  const n = (name ?? '').trim().toLowerCase();
  if (n === 'grch37' || n === 'hg19') return 37;
  if (n === 'grch38' || n === 'hg38') return 38;
  return null;
}
