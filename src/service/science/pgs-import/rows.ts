/**
 * The third stage of a PGS import: each data row of a scoring file → its weights, its
 * effect/other letters, how it can be found in a genotype (rsID, hm_rsID, positions with
 * their build) and the frequencies the file gives. Rows without a weight or with alleles
 * that are not single bases are dropped with the reason; haplotype, diplotype and
 * interaction rows refuse the whole file (Traitscope scores single SNPs additively).
 */
import { POPULATION_ORDER } from '../format.js';
import type { IndexedBuild } from '../../genotype/positions.js';
import { cellText, type ScoringHeader } from './header.js';

/** A position the file gives for a row, in a stated build. */
export interface ScoringSite {
  chrom: string;
  pos: number;
  build: IndexedBuild;
}

export interface ScoringRow {
  /** 1-based line number in the file. */
  line: number;
  /** Upper-case single letters; other is '' when the file does not give it. */
  effect: string;
  other: string;
  /** The per-allele weight (ln taken for ratios), and the contribution of 0, 1 and 2 effect alleles. */
  weight: number;
  dosageWeights: [number, number, number];
  /** rsID numbers from the rsID column, else the hm_rsID column (null when absent). */
  rsid: number | null;
  hmRsid: number | null;
  /** Harmonized position first (HmPOS_build), then the author-reported one (genome_build); only read when the row has no rsID. */
  sites: readonly ScoringSite[];
  /** The row has a chromosome but the file does not state the build of its positions. */
  positionWithoutBuild: boolean;
  /** Effect-allele frequency per population from allelefrequency_effect_<POP> (null where not given), and the overall one. */
  populationFrequency: ReadonlyArray<number | null>;
  overallFrequency: number | null;
}

export type RowsResult =
  { ok: true; rows: ScoringRow[]; variants: number; dropped: Record<string, number> } | { ok: false; error: string };

const BASE = /^[ACGT]$/;
const NO_SITES: readonly ScoringSite[] = Object.freeze([]);
const NO_FREQUENCIES: ReadonlyArray<number | null> = Object.freeze(POPULATION_ORDER.map(() => null));
const isTrue = (v: string) => /^(true|1|yes)$/i.test(v.trim());
const frequency = (text: string) => {
  const f = Number(text);
  return text !== '' && f >= 0 && f <= 1 ? f : null;
};
const rsidNumber = (text: string) => (/^rs\d+$/i.test(text) ? Number(text.slice(2)) : null);

export function parseScoringRows(header: ScoringHeader): RowsResult {
  const { lines, columns: c, popFreqColumns, weightsAreRatios, hasDosageWeights } = header;
  const rows: ScoringRow[] = [];
  const dropped: Record<string, number> = {};
  const drop = (reason: string) => void (dropped[reason] = (dropped[reason] ?? 0) + 1);
  let variants = 0;
  for (let li = header.firstDataLine; li < lines.length; li++) {
    const line = lines[li];
    if (line.trim() === '' || line.startsWith('#')) continue;
    variants++;
    const f = line.split('\t').map(cellText);
    const get = (i: number) => (i >= 0 ? (f[i] ?? '') : '');
    if (isTrue(get(c.haplotype)) || isTrue(get(c.diplotype)))
      return {
        ok: false,
        error: `Line ${li + 1} is a haplotype or diplotype (${get(c.effect) || 'no allele'}). Traitscope scores single SNPs only, so this score cannot be imported.`,
      };
    if (isTrue(get(c.interaction)))
      return {
        ok: false,
        error: `Line ${li + 1} is an interaction term. Traitscope scores additive single-SNP effects only, so this score cannot be imported.`,
      };

    let dosageWeights: [number, number, number];
    let weight: number;
    if (hasDosageWeights) {
      const d: [number, number, number] = [Number(get(c.d0)), Number(get(c.d1)), Number(get(c.d2))];
      if (!d.every(Number.isFinite)) {
        drop('missing_weight');
        continue;
      }
      dosageWeights = d;
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
      dosageWeights = isTrue(get(c.dominant))
        ? [0, weight, weight]
        : isTrue(get(c.recessive))
          ? [0, 0, weight]
          : [0, weight, 2 * weight];
    }

    const effect = get(c.effect).toUpperCase();
    const other = (get(c.other) || get(c.hmOther)).toUpperCase();
    if (!BASE.test(effect) || (other !== '' && !BASE.test(other))) {
      drop('not_a_single_nucleotide_variant');
      continue;
    }

    // A row is kept for every variant of the file (millions for some scores): shared empty
    // values where a file has no positions or no population frequencies keep rows small.
    const rsid = rsidNumber(get(c.rsid));
    const hmRsid = rsid === null ? rsidNumber(get(c.hmRsid)) : null;
    const byPosition = rsid === null && hmRsid === null;
    let sites = NO_SITES;
    if (byPosition) {
      const found: ScoringSite[] = [];
      if (header.hmBuild && get(c.hmChr) && get(c.hmPos))
        found.push({ chrom: get(c.hmChr), pos: Number(get(c.hmPos)), build: header.hmBuild });
      if (header.fileBuild && get(c.chr) && get(c.pos))
        found.push({ chrom: get(c.chr), pos: Number(get(c.pos)), build: header.fileBuild });
      if (found.length > 0) sites = found;
    }
    const populationFrequency =
      popFreqColumns.length === 0
        ? NO_FREQUENCIES
        : POPULATION_ORDER.map((_, p) => {
            const column = popFreqColumns.find(([pi]) => pi === p);
            return column ? frequency(get(column[1])) : null;
          });
    rows.push({
      line: li + 1,
      effect,
      other,
      weight,
      dosageWeights,
      rsid,
      hmRsid,
      sites,
      positionWithoutBuild: byPosition && sites.length === 0 && (get(c.chr) !== '' || get(c.hmChr) !== ''),
      populationFrequency,
      overallFrequency: frequency(get(c.freq)),
    });
  }
  if (variants === 0) return { ok: false, error: 'The file has a header but no variant rows.' };
  return { ok: true, rows, variants, dropped };
}
