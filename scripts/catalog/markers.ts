/**
 * Turning the source rows of one study into trustworthy markers: allele checks, strand
 * alignment against 1000 Genomes (GRCh37 forward strand), effect-allele frequencies per
 * super-population, deduplication. Every rejected row is counted by reason.
 */
import { num, type Row } from './read.js';

export const POPULATIONS = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'] as const;
export type Pop = (typeof POPULATIONS)[number];

/** Palindromic (A/T, C/G) markers whose minor-allele frequency reaches this are ambiguous. */
export const PALINDROME_MAF_LIMIT = 0.4;
/** A trait is dropped when more than this share of its distinct markers is unusable. */
export const MAX_UNUSABLE_SHARE = 0.5;
/**
 * Effect-scale check for studies whose sizes are betas (not logged in curation): rows in
 * [1, 1.5) look like unlogged odds ratios when the same study also has rows below 0.2 (a
 * log-odds or standardized scale). Up to this share of such rows are dropped as
 * inconsistent; more, and the whole study is dropped.
 */
export const MAX_OR_LIKE_SHARE = 0.25;

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
  /** Palindromic markers kept (low MAF). */
  palindromic_kept: number;
  weight_scale: 'beta' | 'ln_or' | 'mixed';
  /** Why the effect sizes of the study cannot be trusted as one scale, or null. */
  scale_problem: { reason: string; detail: string } | null;
}

const COMP: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' };
const isBase = (s: string) => s === 'A' || s === 'C' || s === 'G' || s === 'T';
export const isPalindromic = (a: string, b: string) => COMP[a] === b;

/** Round a frequency to 6 decimals: removes 1 − x floating noise without changing the value. */
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function cleanStudy(rows: Row[], kg: Map<string, KgEntry>): CleanResult {
  const dropped: Record<string, number> = {};
  const drop = (reason: string) => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
  };
  let flipped = 0;
  let unchecked = 0;
  let palKept = 0;
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
    if (effect !== minor && effect !== major) {
      drop('unusable_alleles');
      continue;
    }
    let other = effect === minor ? major : minor;
    if (isBase(nonEffect) && nonEffect !== other) {
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
    }
    const rsid = Number(m[1]);
    const p = num(row.p_value ?? row['P.VALUE']);
    const isLogged = (row.effect_size_logged_in_curation ?? '').toUpperCase() === 'TRUE';
    candidates.push({ rsid, effect, other, weight, freq, p, logged: isLogged });
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
    scaleProblem = { reason: 'effect_sizes_look_like_test_statistics', detail: `all ${unlogged.length} unlogged effect sizes lie in [1.5, 3]` };
  } else if (orLike.length > 0 && small.length > 0) {
    if (orLike.length <= MAX_OR_LIKE_SHARE * unlogged.length) {
      const bad = new Set(orLike);
      kept = candidates.filter((c) => !bad.has(c));
      dropped.odds_ratio_like_effect_size = orLike.length;
    } else {
      scaleProblem = { reason: 'odds_ratios_mixed_with_betas', detail: `${orLike.length} of ${unlogged.length} unlogged effect sizes lie in [1, 1.5) beside ${small.length} below 0.2` };
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
