/**
 * A person's own genotype file as a place to find a position-only score's variants: most of
 * a genome-wide score's positions are markers no trait of the catalog uses, so the position
 * index (genotype/positions.ts) cannot name them, but the person's file can — a chip export
 * or a VCF with rsIDs stores each line's chromosome, position and rsID. Positions are in the
 * build the parser detected for the file (ParseSummary.build).
 */
import { COMPLEMENT, alleleFromLetter, ALLELE_LETTERS, CHROM_X } from '../../genotype/encoding.js';
import type { IndexedBuild } from '../../genotype/positions.js';
import type { Genotype } from '../../genotype/types.js';
import { DOSAGE_MISMATCH, DOSAGE_MISSING, FLIPPED, matchDosage } from '../match.js';

export interface GenotypeSites {
  build: IndexedBuild;
  rsids: Uint32Array;
  calls: Uint8Array;
  /** The file's rows at each wanted site (chrom · 2³² + position). */
  rowsAt: Map<number, number[]>;
}

const POS_SCALE = 2 ** 32;

/** The key of a site in GenotypeSites.rowsAt. */
export const siteKey = (chrom: number, pos: number) => chrom * POS_SCALE + pos;
/** The chromosome and position of a site key. */
export const siteOfKey = (key: number): [chrom: number, pos: number] => {
  const chrom = Math.floor(key / POS_SCALE);
  return [chrom, key - chrom * POS_SCALE];
};

/**
 * The rows of a stored genotype at the sites a score asks for, in one pass over its
 * typed arrays: a chip file has ~700,000 rows in rsID order (types.ts), a score a few
 * thousand sites, so looking the sites up beats sorting the file by position.
 */
export function genotypeSites(genotype: Genotype, build: IndexedBuild, wanted: Set<number>): GenotypeSites {
  const { chroms, positions } = genotype;
  const rowsAt = new Map<number, number[]>();
  for (let i = 0; i < chroms.length; i++) {
    if (chroms[i] === 0 || positions[i] === 0) continue;
    const key = chroms[i] * POS_SCALE + positions[i];
    if (!wanted.has(key)) continue;
    const list = rowsAt.get(key);
    if (list) list.push(i);
    else rowsAt.set(key, [i]);
  }
  return { build, rsids: genotype.rsids, calls: genotype.calls, rowsAt };
}

/** Chromosome code of a scoring file's chr_name ("1"–"22", "X" or "23", "chr7"), or 0. */
export function chromCode(name: string): number {
  const c = name.replace(/^chr/i, '').toUpperCase();
  if (c === 'X') return CHROM_X;
  const n = Number(c);
  return Number.isInteger(n) && n >= 1 && n <= CHROM_X ? n : 0;
}

export type GenotypeSiteMatch =
  | { found: true; rsid: number; effect: string; other: string; flipped: boolean }
  | {
      found: false;
      reason:
        | 'position_not_in_genotype'
        | 'position_not_called_in_genotype'
        | 'alleles_differ_from_genotype'
        /** A variants-only file does not list the site, and which of the score's letters is the reference is not known. */
        | 'unlisted_reference_unknown'
        /** A variants-only file or gVCF lists the site, but would not where the person is REF/REF: one-sided. */
        | 'listed_reference_unknown';
    };

/**
 * The row of the person's file at (chrom, pos) whose call is made of the score's effect/other
 * letters, on the forward strand or the other (then the letters are complemented). Without
 * an other allele the heterozygous call gives it. A palindromic pair (A/T, C/G) matches its
 * letters as they are: its strand is decided by frequency afterwards, as in the catalog.
 */
export function matchAtGenotypeSite(
  sites: GenotypeSites,
  chrom: number,
  pos: number,
  effect: string,
  other: string,
): GenotypeSiteMatch {
  let reason: 'position_not_in_genotype' | 'position_not_called_in_genotype' | 'alleles_differ_from_genotype' =
    'position_not_in_genotype';
  for (const row of sites.rowsAt.get(siteKey(chrom, pos)) ?? []) {
    const call = sites.calls[row];
    if (call === 0) {
      if (reason === 'position_not_in_genotype') reason = 'position_not_called_in_genotype';
      continue;
    }
    let e = alleleFromLetter(effect);
    let o = other === '' ? inferredOther(call, e) : alleleFromLetter(other);
    let flipped = false;
    if (o === 0) {
      o = inferredOther(call, COMPLEMENT[e]);
      if (o !== 0) {
        e = COMPLEMENT[e];
        flipped = true;
      }
    }
    const dosage = o === 0 ? DOSAGE_MISMATCH : matchDosage(call, e, o);
    if (dosage === DOSAGE_MISMATCH || dosage === DOSAGE_MISSING) {
      reason = 'alleles_differ_from_genotype';
      continue;
    }
    if (dosage >= FLIPPED) {
      e = COMPLEMENT[e];
      o = COMPLEMENT[o];
      flipped = !flipped;
    }
    return { found: true, rsid: sites.rsids[row], effect: ALLELE_LETTERS[e], other: ALLELE_LETTERS[o], flipped };
  }
  return { found: false, reason };
}

/** The other letter of a heterozygous call holding `allele`, or 0. */
function inferredOther(call: number, allele: number): number {
  const a1 = call >> 4;
  const a2 = call & 0xf;
  if (a2 === 0 || a1 === a2 || a1 > 4 || a2 > 4) return 0;
  return a1 === allele ? a2 : a2 === allele ? a1 : 0;
}
