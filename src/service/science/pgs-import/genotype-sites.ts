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
  /** The file's rows with a position, sorted by chrom · 2³² + position, and those keys. */
  order: Uint32Array;
  keys: Float64Array;
}

const POS_SCALE = 2 ** 32;

/** A stored genotype's rows by position (typed arrays: a chip file has ~700,000 rows). */
export function genotypeSites(genotype: Genotype, build: IndexedBuild): GenotypeSites {
  const { chroms, positions } = genotype;
  let placed = 0;
  for (let i = 0; i < chroms.length; i++) if (chroms[i] > 0 && positions[i] > 0) placed++;
  const order = new Uint32Array(placed);
  for (let i = 0, j = 0; i < chroms.length; i++) if (chroms[i] > 0 && positions[i] > 0) order[j++] = i;
  const keys = new Float64Array(placed);
  for (let j = 0; j < placed; j++) keys[j] = chroms[order[j]] * POS_SCALE + positions[order[j]];
  // A stored genotype is in rsID order (types.ts): sort its rows by position, unless already so.
  let sorted = true;
  for (let j = 1; j < placed && sorted; j++) sorted = keys[j - 1] <= keys[j];
  if (!sorted) {
    const idx = Uint32Array.from({ length: placed }, (_, j) => j).sort((a, b) => keys[a] - keys[b]);
    const o = Uint32Array.from(idx, (j) => order[j]);
    const k = Float64Array.from(idx, (j) => keys[j]);
    return { build, rsids: genotype.rsids, calls: genotype.calls, order: o, keys: k };
  }
  return { build, rsids: genotype.rsids, calls: genotype.calls, order, keys };
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
      reason: 'position_not_in_genotype' | 'position_not_called_in_genotype' | 'alleles_differ_from_genotype';
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
  const key = chrom * POS_SCALE + pos;
  let lo = 0;
  let hi = sites.keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sites.keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  let reason: 'position_not_in_genotype' | 'position_not_called_in_genotype' | 'alleles_differ_from_genotype' =
    'position_not_in_genotype';
  for (let j = lo; j < sites.keys.length && sites.keys[j] === key; j++) {
    const row = sites.order[j];
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
