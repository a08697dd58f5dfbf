/**
 * Turning the source rows of one study into trustworthy markers: allele checks, strand
 * alignment against 1000 Genomes (GRCh37 forward strand), effect-allele frequencies per
 * super-population, deduplication. Every rejected row is counted by reason.
 */
import { PALINDROME_MAF_LIMIT } from '../../src/service/science/match.js';
import { POPULATIONS } from '../../src/shared/populations.js';
import { num, type Row } from './read.js';

/** A trait is dropped when more than this share of its distinct markers is unusable. */
export const MAX_UNUSABLE_SHARE = 0.5;
/**
 * Effect-scale check for studies whose sizes are betas (not logged in curation): rows in
 * [OR_LIKE_LOW, OR_LIKE_HIGH) look like unlogged odds ratios when the same study also has
 * rows below OR_LIKE_SMALL (a log-odds or standardized scale). Such a row is either an odds
 * ratio (then its weight becomes ln OR) or a genuinely large log-odds effect (APOE ε4's 1.03
 * in Alzheimer's disease): its p-value decides (`resolveOddsRatioLike`).
 */
export const OR_LIKE_LOW = 1;
export const OR_LIKE_HIGH = 1.5;
export const OR_LIKE_SMALL = 0.2;
/** Reference rows (|weight| < 1 with a p-value) a study needs before the p-value can tell an odds ratio from a log-odds. */
export const MIN_SCALE_REFERENCE_ROWS = 3;

/**
 * A study whose effect sizes were all logged in curation (odds ratios) is rejected when
 * the median |ln OR| exceeds ln 3: common GWAS variants have odds ratios near 1–1.5, and a
 * median of 3 per allele means the logarithm was taken of a beta (lipoprotein(a) in mg/dL).
 */
export const LOGGED_BETA_MEDIAN = Math.log(3);

/** The extended MHC (HLA) region on GRCh37, chromosome 6 at 25–34 Mb: one marker per score is kept there. */
export const HLA_REGION = { chrom: '6', start: 25_000_000, end: 34_000_000 } as const;

/** Genes of the extended MHC the source names as a marker's reported gene (HLA-*, HCG*, PSORS1C*, and the classical class I–III genes). */
const MHC_GENES = new Set([
  'MICA',
  'MICB',
  'BTNL2',
  'NOTCH4',
  'TAP1',
  'TAP2',
  'TNF',
  'LTA',
  'LTB',
  'C4A',
  'C4B',
  'C2',
  'CFB',
  'AGER',
  'BAG6',
  'MHC',
]);
export function isMhcGene(gene: string): boolean {
  const g = gene.trim().toUpperCase();
  return g.startsWith('HLA-') || g.startsWith('HCG') || g.startsWith('PSORS1C') || MHC_GENES.has(g);
}

/** A marker whose |weight| exceeds this many times its study's median |weight| is dropped (studies of ≥ 5 markers). */
export const WEIGHT_OUTLIER_FACTOR = 100;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export interface KgEntry {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  /** ALT frequency per super-population (POPULATIONS order), null where NA. */
  alt_af: Array<number | null>;
}

export interface CleanMarker {
  rsid: number;
  effect: string;
  other: string;
  weight: number;
  /** Effect-allele frequency per super-population, POPULATIONS order. */
  freq: number[];
  p: number | null;
  /** Chromosome as the source gives it ("1"–"22", "X"); "" when not given. */
  chrom: string;
}

/**
 * Risk-allele frequencies reported by the studies themselves (NHGRI-EBI GWAS Catalog,
 * "RISK ALLELE FREQUENCY"), keyed by `${pmid}:${rsid}`: the only frequencies independent
 * of 1000 Genomes, used to tell the strand of palindromic markers.
 */
export type ReportedFrequencies = Map<string, { allele: string; frequency: number }>;

/**
 * A featured study's palindromic marker no reported frequency places is kept (forward strand
 * assumed) when its association is at least this strong: dropping such loci would remove a
 * score's main signal (breast cancer's MAP3K1 and FGFR2 loci, p ≈ 1e-98 and 1e-37).
 */
export const UNVERIFIED_PALINDROME_MAX_P = 1e-12;

/** Every reported risk-allele frequency of an rsID, over all studies of the GWAS Catalog extract. */
export type ReportedByRsid = Map<string, Array<{ allele: string; frequency: number }>>;

/**
 * What a reported frequency says of a palindromic marker's strand: "same" when it sits at
 * least STRAND_FREQUENCY_MARGIN closer to the 1000 Genomes frequency of the letter as given
 * (in some population) than to its complement's, "flipped" the other way round, else null
 * (frequencies near 0.5 cannot tell the strands apart).
 */
export function strandVerdict(
  rep: { allele: string; frequency: number },
  effect: string,
  other: string,
  freq: number[],
): 'same' | 'flipped' | null {
  if (rep.allele !== effect && rep.allele !== other) return null;
  const f = rep.allele === effect ? rep.frequency : 1 - rep.frequency;
  const same = Math.min(...freq.map((x) => Math.abs(f - x)));
  const flipped = Math.min(...freq.map((x) => Math.abs(f - (1 - x))));
  if (flipped + STRAND_FREQUENCY_MARGIN < same) return 'flipped';
  if (same + STRAND_FREQUENCY_MARGIN < flipped) return 'same';
  return null;
}

/** A palindromic marker's reported frequency must sit this much closer to one strand's reading than to the other's. */
export const STRAND_FREQUENCY_MARGIN = 0.1;

/**
 * What one curation rule did to a study's rows: how many rows it dropped or rescaled and the
 * score variance (Σ 2pq·w², European minor-allele frequency of the source row) those rows
 * carried before the rule (`variance_before`) and after it (0 for a dropped row).
 */
export interface RuleEffect {
  /** dropped: the rows left the score; rescaled: their weights changed; checked: examined and kept as they were. */
  action: 'dropped' | 'rescaled' | 'checked';
  rows: number;
  variance_before: number;
  variance_after: number;
}

export interface CleanResult {
  markers: CleanMarker[];
  /** Distinct rsIDs in the source rows. */
  source_markers: number;
  source_rows: number;
  dropped: Record<string, number>;
  /** Markers whose letters were complemented to the forward strand. */
  flipped_to_forward: number;
  /** Markers not present in the 1000 Genomes extract, so not strand-checked. */
  unchecked_strand: number;
  /** Palindromic markers kept (effect-allele frequency outside 0.4–0.6, strand told by a reported frequency). */
  palindromic_kept: number;
  /** …of which the study's reported frequency confirmed the strand, or showed it reversed (then complemented). */
  palindromic_confirmed: number;
  palindromic_flipped: number;
  /** …of which the strand was told by other studies' reports of the SNP (the study itself reported no frequency). */
  palindromic_checked_by_other_studies: number;
  /** Genome-wide significant palindromes of a featured study kept on the source's strand, no report placing them. */
  palindromic_unverified_kept: number;
  /** Rows whose effect allele was given on the reverse strand of the minor/major alleles, recovered by complement. */
  reverse_strand_recovered: number;
  /** Rows without minor/major alleles whose effect (or other) allele is one of the 1000 Genomes REF/ALT pair: the pair is used. */
  alleles_recovered_from_1000_genomes: number;
  /** Rows with "?" as effect allele whose other allele is one of minor/major: the effect allele is the remaining one. */
  effect_allele_from_other_allele: number;
  weight_scale: 'beta' | 'ln_or' | 'mixed';
  /** Rows each rule dropped or rescaled, with the variance they carried (duplicates are not a loss and are not listed). */
  rule_effects: Record<string, RuleEffect>;
  /** Why the effect sizes of the study cannot be trusted as one scale, or null. */
  scale_problem: { reason: string; detail: string } | null;
}

const COMP: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' };
const isBase = (s: string) => s === 'A' || s === 'C' || s === 'G' || s === 'T';
export const isPalindromic = (a: string, b: string) => COMP[a] === b;

/** Round a frequency to 6 decimals: removes 1 − x floating noise without changing the value. */
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** A row's share of a score's variance, 2pq·w², from the source's European (else overall) minor-allele frequency; 0 when unknown. */
function rowVariance(row: Row, weight: number | null): number {
  const f = num(row.EUR_AF) ?? num(row.minor_allele_freq);
  if (weight === null || f === null || !(f > 0 && f < 1)) return 0;
  return 2 * f * (1 - f) * weight * weight;
}

/** |z| of a two-sided p-value (inverse normal, Acklam's rational approximation; exact enough to compare scales). */
export function zOfP(p: number): number {
  const q = p / 2;
  if (q < 0.02425) {
    const r = Math.sqrt(-2 * Math.log(q));
    return -(
      (((((-7.784894002430293e-3 * r - 3.223964580411365e-1) * r - 2.400758277161838) * r - 2.549732539343734) * r +
        4.374664141464968) *
        r +
        2.938163982698783) /
      ((((7.784695709041462e-3 * r + 3.224671290700398e-1) * r + 2.445134137142996) * r + 3.754408661907416) * r + 1)
    );
  }
  const u = q - 0.5;
  const r = u * u;
  return -(
    ((((((-3.969683028665376e1 * r + 2.209460984245205e2) * r - 2.759285104469687e2) * r + 1.38357751867269e2) * r -
      3.066479806614716e1) *
      r +
      2.506628277459239) *
      u) /
    (((((-5.447609879822406e1 * r + 1.615858368580409e2) * r - 1.556989798598866e2) * r + 6.680131188771972e1) * r -
      1.328068155833361e1) *
      r +
      1)
  );
}

/** Association strength per unit of weight: |z| / (|w|·√(2pq)); similar across a study's markers when they share one scale. */
function zPerUnitWeight(p: number | null, weight: number, freq: number): number | null {
  if (p === null || !(p > 0 && p < 1) || weight === 0 || !(freq > 0 && freq < 1)) return null;
  return zOfP(p) / (Math.abs(weight) * Math.sqrt(2 * freq * (1 - freq)));
}

/**
 * Is an unlogged weight in [1, 1.5) of a study on a log or standardized scale an odds ratio?
 * Its p-value says: a marker's |z| per unit of weight is similar across one study's markers
 * (same sample, same scale), so the reading — w as ln OR, or ln w — whose |z| per unit lies
 * closer (log scale) to the study's median wins. Without a p-value or enough reference rows
 * the weight is taken as an odds ratio, the common case in the source.
 */
export function resolveOddsRatioLike(
  weight: number,
  p: number | null,
  freq: number,
  referencePerUnit: number | null,
): 'odds_ratio' | 'log_odds' {
  if (referencePerUnit === null || weight === 1) return 'odds_ratio';
  const asLog = zPerUnitWeight(p, weight, freq);
  const asOr = zPerUnitWeight(p, Math.log(weight), freq);
  if (asLog === null || asOr === null) return 'odds_ratio';
  return Math.abs(Math.log(asLog / referencePerUnit)) < Math.abs(Math.log(asOr / referencePerUnit))
    ? 'log_odds'
    : 'odds_ratio';
}

const EUR_INDEX = POPULATIONS.indexOf('EUR');

export function cleanStudy(
  rows: Row[],
  kg: Map<string, KgEntry>,
  reported: ReportedFrequencies = new Map(),
  reportedByRsid: ReportedByRsid = new Map(),
  /** Keep strongly associated palindromes no report places (featured studies; the build bounds their number). */
  keepUnverifiedStrong = false,
): CleanResult {
  const dropped: Record<string, number> = {};
  const ruleEffects: Record<string, RuleEffect> = {};
  const affect = (rule: string, action: RuleEffect['action'], before: number, after: number) => {
    const e = (ruleEffects[rule] ??= { action, rows: 0, variance_before: 0, variance_after: 0 });
    e.rows++;
    e.variance_before += before;
    e.variance_after += after;
  };
  /** Source rows dropped by each rule in the row loop; their variance is counted once the study's weight scale is known. */
  let current: Row | null = null;
  const droppedRows: Array<[string, Row]> = [];
  const drop = (reason: string) => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
    if (reason !== 'duplicate_row' && current) droppedRows.push([reason, current]);
  };
  let flipped = 0;
  let unchecked = 0;
  let palKept = 0;
  let palConfirmed = 0;
  let palFlipped = 0;
  let palByOthers = 0;
  let palUnverifiedKept = 0;
  let reverseRecovered = 0;
  let allelesRecoveredFromKg = 0;
  let effectFromOther = 0;
  let logged = 0;
  let notLogged = 0;
  const candidates: Array<CleanMarker & { logged: boolean; genes: string[] }> = [];
  const seen = new Set<string>();
  for (const row of rows) {
    current = row;
    const id = row.SNP.trim();
    seen.add(id);
    const m = /^rs(\d+)$/.exec(id);
    if (!m) {
      drop('not_an_rsid');
      continue;
    }
    let effect = row.effect_allele.trim().toUpperCase();
    let minor = row.minor_allele.trim().toUpperCase();
    let major = row.major_allele.trim().toUpperCase();
    const nonEffect = row.non_effect_allele.trim().toUpperCase();
    const kgEntry = kg.get(id);
    /** Alleles read from 1000 Genomes: the row's minor/major (and its AF columns, which describe them) are not usable. */
    let allelesFromKg = false;
    if (!isBase(minor) || !isBase(major) || minor === major) {
      const fromKg = kgEntry ? allelesByKg(effect, nonEffect, kgEntry) : null;
      if (!fromKg) {
        drop('unusable_alleles');
        continue;
      }
      [effect, minor, major] = [fromKg.effect, fromKg.effect, fromKg.other];
      allelesFromKg = true;
      allelesRecoveredFromKg++;
    } else if (!isBase(effect)) {
      // Only the other allele given: the effect allele is the remaining one of minor/major.
      if (nonEffect !== minor && nonEffect !== major) {
        drop('unusable_alleles');
        continue;
      }
      effect = nonEffect === minor ? major : minor;
      effectFromOther++;
    }
    let givenOther = nonEffect;
    if (effect !== minor && effect !== major) {
      // The effect allele on the other strand than minor/major: recoverable by complement
      // unless the SNP is palindromic (then the complement is the other allele).
      if (isPalindromic(minor, major) || (COMP[effect] !== minor && COMP[effect] !== major)) {
        drop('unusable_alleles');
        continue;
      }
      effect = COMP[effect];
      if (isBase(givenOther)) givenOther = COMP[givenOther];
      reverseRecovered++;
    }
    let other = effect === minor ? major : minor;
    if (isBase(givenOther) && givenOther !== other) {
      drop('unusable_alleles');
      continue;
    }
    const weight = num(row.effect_size);
    if (weight === null) {
      drop('missing_effect_size');
      continue;
    }
    // Effect-allele frequency per population: the source's AF columns are minor-allele frequencies.
    let freq: number[] = [];
    let freqOk = !allelesFromKg;
    for (const pop of freqOk ? POPULATIONS : []) {
      const af = num(row[`${pop}_AF`]);
      if (af === null) {
        freqOk = false;
        break;
      }
      freq.push(round6(effect === minor ? af : 1 - af));
    }
    if (!freqOk) {
      // Fall back to the 1000 Genomes extract when its alleles are the same letters.
      const fromKg = kgEntry ? kgFreq(kgEntry, effect, other) : null;
      if (!fromKg) {
        drop('missing_frequency');
        continue;
      }
      freq = fromKg;
    }
    // Strand: align letters to the GRCh37 forward strand of 1000 Genomes.
    const palindromic = isPalindromic(effect, other);
    if (kgEntry && !palindromic) {
      const same = sameAlleles(effect, other, kgEntry.ref, kgEntry.alt);
      if (!same) {
        if (sameAlleles(COMP[effect], COMP[other], kgEntry.ref, kgEntry.alt)) {
          effect = COMP[effect];
          other = COMP[other];
          flipped++;
        } else {
          drop('alleles_differ_from_1000_genomes');
          continue;
        }
      }
    } else if (!kgEntry) {
      unchecked++;
    }
    if (palindromic) {
      const mean = freq.reduce((a, b) => a + b, 0) / freq.length;
      if (Math.min(mean, 1 - mean) >= PALINDROME_MAF_LIMIT) {
        drop('palindromic_ambiguous');
        continue;
      }
      // Strand by frequency: a reported frequency of the allele against the 1000 Genomes
      // frequencies of the letter read on either strand — the study's own report first,
      // else the reports of other studies of the same SNP when they all agree.
      const own = reported.get(`${row.pmid}:${id}`);
      let verdict = own ? strandVerdict(own, effect, other, freq) : null;
      let byOthers = false;
      if (verdict === null) {
        const votes = new Set(
          (reportedByRsid.get(id) ?? []).map((r) => strandVerdict(r, effect, other, freq)).filter((v) => v !== null),
        );
        if (votes.size === 1) {
          verdict = [...votes][0];
          byOthers = true;
        }
      }
      const rowP = num(row.p_value ?? row['P.VALUE']);
      if (verdict === null && !(keepUnverifiedStrong && rowP !== null && rowP <= UNVERIFIED_PALINDROME_MAX_P)) {
        drop('palindromic_strand_unverifiable');
        continue;
      }
      palKept++;
      if (verdict === null) {
        // A featured study's strongest loci (p ≤ UNVERIFIED_PALINDROME_MAX_P): kept on the source's (forward) strand,
        // which holds for about 9 checkable palindromes in 10; counted and bounded by the build.
        palUnverifiedKept++;
      } else if (verdict === 'flipped') {
        if (byOthers) palByOthers++;
        [effect, other] = [other, effect];
        freq = freq.map((x) => round6(1 - x));
        palFlipped++;
      } else {
        if (byOthers) palByOthers++;
        palConfirmed++;
      }
    }
    const rsid = Number(m[1]);
    const p = num(row.p_value ?? row['P.VALUE']);
    const chrom = (row.chr_name ?? '').trim().toUpperCase().replace(/^CHR/, '');
    const isLogged = (row.effect_size_logged_in_curation ?? '').toUpperCase() === 'TRUE';
    const genes = (row.reported_genes ?? '').split(/[,;/]/).filter((g) => g.trim() !== '');
    candidates.push({ rsid, effect, other, weight, freq, p, chrom, logged: isLogged, genes });
  }
  current = null;
  // Effect scales: unlogged odds ratios mixed into a log-scale study (see OR_LIKE_LOW).
  let scaleProblem: { reason: string; detail: string } | null = null;
  const unlogged = candidates.filter((c) => !c.logged);
  const orLike = unlogged.filter((c) => c.weight >= OR_LIKE_LOW && c.weight < OR_LIKE_HIGH);
  const small = unlogged.filter((c) => Math.abs(c.weight) < OR_LIKE_SMALL);
  let kept = candidates;
  const statLike = unlogged.filter((c) => c.weight >= 1.5 && c.weight <= 3);
  if (unlogged.length >= 3 && statLike.length === unlogged.length) {
    // Every size in [1.5, 3] (in this table typically ln of values around 5–7): not per-allele effects.
    scaleProblem = {
      reason: 'effect_sizes_look_like_test_statistics',
      detail: `all ${unlogged.length} unlogged effect sizes lie in [1.5, 3]`,
    };
  } else if (
    candidates.length >= 3 &&
    candidates.every((c) => c.logged) &&
    median(candidates.map((c) => Math.abs(c.weight))) > LOGGED_BETA_MEDIAN
  ) {
    // Logged in curation, yet the odds ratios would be implausible: the source took the
    // logarithm of a beta (e.g. mg/dL per allele), which cannot be undone (signs are lost).
    scaleProblem = {
      reason: 'logged_effect_sizes_look_like_betas',
      detail: `median |ln OR| ${median(candidates.map((c) => Math.abs(c.weight))).toFixed(2)} (odds ratio ${Math.exp(median(candidates.map((c) => Math.abs(c.weight)))).toFixed(1)} per allele) is implausible for common variants`,
    };
  }
  const mixedScale = scaleProblem === null && orLike.length > 0 && small.length > 0;
  const perUnit = unlogged
    .filter((c) => Math.abs(c.weight) < 1)
    .map((c) => zPerUnitWeight(c.p, c.weight, c.freq[EUR_INDEX]))
    .filter((x): x is number => x !== null);
  const reference = perUnit.length >= MIN_SCALE_REFERENCE_ROWS ? median(perUnit) : null;
  // The variance a dropped row carried, its weight read as the kept rows of its study are.
  for (const [reason, row] of droppedRows) {
    let w = num(row.effect_size);
    const f = num(row.EUR_AF) ?? num(row.minor_allele_freq);
    const isLogged = (row.effect_size_logged_in_curation ?? '').toUpperCase() === 'TRUE';
    if (mixedScale && w !== null && f !== null && !isLogged && w >= OR_LIKE_LOW && w < OR_LIKE_HIGH)
      if (resolveOddsRatioLike(w, num(row.p_value ?? row['P.VALUE']), f, reference) === 'odds_ratio') w = Math.log(w);
    affect(reason, 'dropped', rowVariance(row, w), 0);
  }
  if (mixedScale) {
    for (const c of orLike) {
      const v = (w: number) => 2 * c.freq[EUR_INDEX] * (1 - c.freq[EUR_INDEX]) * w * w;
      if (resolveOddsRatioLike(c.weight, c.p, c.freq[EUR_INDEX], reference) === 'log_odds') {
        affect('odds_ratio_like_kept_as_log_odds', 'checked', v(c.weight), v(c.weight));
        continue;
      }
      const w = Math.log(c.weight);
      affect('odds_ratio_converted_to_log', 'rescaled', v(c.weight), v(w));
      c.weight = w;
    }
  }
  // Weights on another scale than the study's: more than WEIGHT_OUTLIER_FACTOR × the median
  // |weight| (a rare variant's beta from a linear model of a yes/no trait, a unit slip)
  // would decide the whole score on its own.
  if (kept.length >= 5) {
    const typical = median(kept.map((c) => Math.abs(c.weight)));
    const outliers = typical > 0 ? kept.filter((c) => Math.abs(c.weight) > WEIGHT_OUTLIER_FACTOR * typical) : [];
    if (outliers.length) {
      const bad = new Set(outliers);
      kept = kept.filter((c) => !bad.has(c));
      dropped.weight_outlier = outliers.length;
      for (const c of outliers)
        affect('weight_outlier', 'dropped', 2 * c.freq[EUR_INDEX] * (1 - c.freq[EUR_INDEX]) * c.weight * c.weight, 0);
    }
  }
  // Duplicates: keep the row with the smallest p-value; on a tie the first row stays.
  const byRsid = new Map<number, CleanMarker & { logged: boolean; genes: string[] }>();
  for (const c of kept) {
    const prev = byRsid.get(c.rsid);
    if (prev) {
      drop('duplicate_row');
      if (c.p !== null && (prev.p === null || c.p < prev.p)) byRsid.set(c.rsid, c);
      continue;
    }
    byRsid.set(c.rsid, c);
  }
  // The HLA region: markers there are in strong, long-range linkage disequilibrium, so several of
  // them in one score count one signal several times. Only the marker carrying the most variance
  // stays. Placed by their 1000 Genomes position, else (most markers: the extract has no
  // position for them) by a reported gene of the MHC on chromosome 6.
  const inHla = [...byRsid.values()].filter((c) => {
    const e = kg.get(`rs${c.rsid}`);
    if (e) return e.chrom === HLA_REGION.chrom && e.pos >= HLA_REGION.start && e.pos <= HLA_REGION.end;
    return c.chrom === HLA_REGION.chrom && c.genes.some(isMhcGene);
  });
  if (inHla.length > 1) {
    const v = (c: CleanMarker) => 2 * c.freq[EUR_INDEX] * (1 - c.freq[EUR_INDEX]) * c.weight * c.weight;
    const top = inHla.reduce((a, b) => (v(b) > v(a) || (v(b) === v(a) && b.rsid < a.rsid) ? b : a));
    for (const c of inHla) {
      if (c === top) continue;
      byRsid.delete(c.rsid);
      dropped.hla_region_pruned = (dropped.hla_region_pruned ?? 0) + 1;
      affect('hla_region_pruned', 'dropped', v(c), 0);
    }
  }
  for (const c of byRsid.values()) {
    if (c.logged) logged++;
    else notLogged++;
  }
  const markers = [...byRsid.values()].sort((a, b) => a.rsid - b.rsid).map(({ logged: _l, genes: _g, ...m }) => m);
  return {
    markers,
    source_markers: seen.size,
    source_rows: rows.length,
    dropped,
    flipped_to_forward: flipped,
    unchecked_strand: unchecked,
    palindromic_kept: palKept,
    palindromic_confirmed: palConfirmed,
    palindromic_flipped: palFlipped,
    palindromic_checked_by_other_studies: palByOthers,
    palindromic_unverified_kept: palUnverifiedKept,
    reverse_strand_recovered: reverseRecovered,
    alleles_recovered_from_1000_genomes: allelesRecoveredFromKg,
    effect_allele_from_other_allele: effectFromOther,
    weight_scale: logged > 0 && notLogged > 0 ? 'mixed' : logged > 0 ? 'ln_or' : 'beta',
    rule_effects: ruleEffects,
    scale_problem: scaleProblem,
  };
}

/**
 * The effect and other allele of a row without usable minor/major alleles, from the 1000
 * Genomes REF/ALT pair: the effect allele (or, when it is "?", the other allele) must be one
 * of REF/ALT, directly or — for a non-palindromic pair — complemented.
 */
function allelesByKg(effect: string, other: string, e: KgEntry): { effect: string; other: string } | null {
  if (!isBase(e.ref) || !isBase(e.alt) || e.ref === e.alt) return null;
  const pair = (x: string) => (x === e.ref ? e.alt : x === e.alt ? e.ref : null);
  const pal = isPalindromic(e.ref, e.alt);
  const read = (given: string): string | null =>
    pair(given) !== null ? given : !pal && pair(COMP[given]) !== null ? COMP[given] : null;
  if (isBase(effect)) {
    const eff = read(effect);
    if (eff === null) return null;
    const oth = pair(eff)!;
    if (isBase(other) && other !== oth && COMP[other] !== oth) return null;
    return { effect: eff, other: oth };
  }
  if (isBase(other)) {
    const oth = read(other);
    return oth === null ? null : { effect: pair(oth)!, other: oth };
  }
  return null;
}

function sameAlleles(a: string, b: string, ref: string, alt: string): boolean {
  return (a === ref && b === alt) || (a === alt && b === ref);
}

function kgFreq(e: KgEntry, effect: string, other: string): number[] | null {
  const isAlt = effect === e.alt && other === e.ref;
  const isRef = effect === e.ref && other === e.alt;
  if (!isAlt && !isRef) return null;
  const out: number[] = [];
  for (const af of e.alt_af) {
    if (af === null) return null;
    out.push(round6(isAlt ? af : 1 - af));
  }
  return out;
}
