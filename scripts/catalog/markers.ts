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
 * [1, 1.5) look like unlogged odds ratios when the same study also has rows below 0.2 (a
 * log-odds or standardized scale). Up to this share of such rows are dropped as
 * inconsistent; more, and the whole study is dropped.
 */
export const MAX_OR_LIKE_SHARE = 0.25;

/**
 * A study whose effect sizes were all logged in curation (odds ratios) is rejected when
 * the median |ln OR| exceeds ln 3: common GWAS variants have odds ratios near 1–1.5, and a
 * median of 3 per allele means the logarithm was taken of a beta (lipoprotein(a) in mg/dL).
 */
export const LOGGED_BETA_MEDIAN = Math.log(3);

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

/** A palindromic marker's reported frequency must sit this much closer to one strand's reading than to the other's. */
export const STRAND_FREQUENCY_MARGIN = 0.1;

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
  /** Palindromic markers kept (effect-allele frequency outside 0.4–0.6). */
  palindromic_kept: number;
  /** …of which the study's reported frequency confirmed the strand, or showed it reversed (then complemented). */
  palindromic_confirmed: number;
  palindromic_flipped: number;
  /** Rows whose effect allele was given on the reverse strand of the minor/major alleles, recovered by complement. */
  reverse_strand_recovered: number;
  weight_scale: 'beta' | 'ln_or' | 'mixed';
  /** Why the effect sizes of the study cannot be trusted as one scale, or null. */
  scale_problem: { reason: string; detail: string } | null;
}

const COMP: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' };
const isBase = (s: string) => s === 'A' || s === 'C' || s === 'G' || s === 'T';
export const isPalindromic = (a: string, b: string) => COMP[a] === b;

/** Round a frequency to 6 decimals: removes 1 − x floating noise without changing the value. */
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function cleanStudy(
  rows: Row[],
  kg: Map<string, KgEntry>,
  reported: ReportedFrequencies = new Map(),
): CleanResult {
  const dropped: Record<string, number> = {};
  const drop = (reason: string) => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
  };
  let flipped = 0;
  let unchecked = 0;
  let palKept = 0;
  let palConfirmed = 0;
  let palFlipped = 0;
  let reverseRecovered = 0;
  let logged = 0;
  let notLogged = 0;
  const candidates: Array<CleanMarker & { logged: boolean }> = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const id = row.SNP.trim();
    seen.add(id);
    const m = /^rs(\d+)$/.exec(id);
    if (!m) {
      drop('not_an_rsid');
      continue;
    }
    let effect = row.effect_allele.trim().toUpperCase();
    const minor = row.minor_allele.trim().toUpperCase();
    const major = row.major_allele.trim().toUpperCase();
    const nonEffect = row.non_effect_allele.trim().toUpperCase();
    if (!isBase(effect) || !isBase(minor) || !isBase(major) || minor === major) {
      drop('unusable_alleles');
      continue;
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
    const kgEntry = kg.get(id);
    let freq: number[] = [];
    let freqOk = true;
    for (const pop of POPULATIONS) {
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
      palKept++;
      // Strand by frequency: the study's own reported frequency of the allele against the
      // 1000 Genomes frequencies of the letter read on either strand.
      const rep = reported.get(`${row.pmid}:${id}`);
      if (rep && (rep.allele === effect || rep.allele === other)) {
        const f = rep.allele === effect ? rep.frequency : 1 - rep.frequency;
        const same = Math.min(...freq.map((x) => Math.abs(f - x)));
        const flipped = Math.min(...freq.map((x) => Math.abs(f - (1 - x))));
        if (flipped + STRAND_FREQUENCY_MARGIN < same) {
          [effect, other] = [other, effect];
          freq = freq.map((x) => round6(1 - x));
          palFlipped++;
        } else if (same + STRAND_FREQUENCY_MARGIN < flipped) palConfirmed++;
      }
    }
    const rsid = Number(m[1]);
    const p = num(row.p_value ?? row['P.VALUE']);
    const chrom = (row.chr_name ?? '').trim().toUpperCase().replace(/^CHR/, '');
    const isLogged = (row.effect_size_logged_in_curation ?? '').toUpperCase() === 'TRUE';
    candidates.push({ rsid, effect, other, weight, freq, p, chrom, logged: isLogged });
  }
  // Effect scales: unlogged odds ratios mixed into a beta-scale study (see MAX_OR_LIKE_SHARE).
  let scaleProblem: { reason: string; detail: string } | null = null;
  const unlogged = candidates.filter((c) => !c.logged);
  const orLike = unlogged.filter((c) => c.weight >= 1 && c.weight < 1.5);
  const small = unlogged.filter((c) => Math.abs(c.weight) < 0.2);
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
  } else if (orLike.length > 0 && small.length > 0) {
    if (orLike.length <= MAX_OR_LIKE_SHARE * unlogged.length) {
      const bad = new Set(orLike);
      kept = candidates.filter((c) => !bad.has(c));
      dropped.odds_ratio_like_effect_size = orLike.length;
    } else {
      scaleProblem = {
        reason: 'odds_ratios_mixed_with_betas',
        detail: `${orLike.length} of ${unlogged.length} unlogged effect sizes lie in [1, 1.5) beside ${small.length} below 0.2`,
      };
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
    }
  }
  // Duplicates: keep the row with the smallest p-value; on a tie the first row stays.
  const byRsid = new Map<number, CleanMarker & { logged: boolean }>();
  for (const c of kept) {
    const prev = byRsid.get(c.rsid);
    if (prev) {
      drop('duplicate_row');
      if (c.p !== null && (prev.p === null || c.p < prev.p)) byRsid.set(c.rsid, c);
      continue;
    }
    byRsid.set(c.rsid, c);
  }
  for (const c of byRsid.values()) {
    if (c.logged) logged++;
    else notLogged++;
  }
  const markers = [...byRsid.values()].sort((a, b) => a.rsid - b.rsid).map(({ logged: _l, ...m }) => m);
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
    reverse_strand_recovered: reverseRecovered,
    weight_scale: logged > 0 && notLogged > 0 ? 'mixed' : logged > 0 ? 'ln_or' : 'beta',
    scale_problem: scaleProblem,
  };
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
