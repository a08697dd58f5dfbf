/**
 * The fourth stage of a PGS import: each parsed row → an rsID, its effect/other letters on
 * the forward strand, and its effect-allele frequency per population, or the reason it is
 * left out. docs/science.md ("Imported scores") states the rules:
 *
 * - by the rsID column, else hm_rsID, else a position — hm_chr/hm_pos in HmPOS_build, then
 *   chr_name/chr_position in genome_build — looked up in the shipped 1000 Genomes table
 *   (GRCh37), in the position index of every marker Traitscope knows in both builds, and
 *   then, when a person's genotype is given, in that person's own file (lifted to the
 *   file's build when the builds differ): its parsed genotype, then for a VCF the lines its
 *   parse did not keep (file-sites.ts), the alleles checked against what is found there;
 * - letters aligned to the 1000 Genomes forward strand when the variant is in the table;
 *   palindromic variants with minor-allele frequency ≥ PALINDROME_MAF_LIMIT are dropped
 *   (strand cannot be told), as in the catalog;
 * - frequencies: allelefrequency_effect_<POP>, else the 1000 Genomes table, else
 *   allelefrequency_effect, else none (null).
 */
import { ALLELE_LETTERS } from '../../genotype/encoding.js';
import { rowsAt, type IndexedBuild, type PositionIndex } from '../../genotype/positions.js';
import { POPULATION_ORDER } from '../format.js';
import type { KgTable, KgVariant } from '../kg-table.js';
import { PALINDROME_MAF_LIMIT } from '../match.js';
import type { Genotype } from '../../genotype/types.js';
import { chromCode, genotypeSites, matchAtGenotypeSite, siteKey, type GenotypeSites } from './genotype-sites.js';
import { matchAtFileSite, type FileSites, type SiteReading } from './file-sites.js';
import type { ScoringRow, ScoringSite } from './rows.js';

/** Lifts a 1-based position to the other build; null when it does not lift. */
export type LiftPosition = (chrom: string, pos: number, from: IndexedBuild, to: IndexedBuild) => number | null;

export interface MatchReferences {
  kg: KgTable;
  positions: PositionIndex;
  /** The person's own file (positions in the build its parse detected), for positions the index does not know. */
  genotype?: { genotype: Genotype; build: IndexedBuild };
  /** Needed when the person's file is in another build than the scoring file's positions. */
  lift?: LiftPosition;
  /**
   * The person's VCF read again at the sites its parsed genotype lacks (file-sites.ts), and
   * how its unlisted sites are read (the reading its parse used, ParseSummary.site_reading).
   */
  file?: { sites: FileSites; reading: SiteReading };
}

export interface MatchedVariant {
  rsid: number;
  effect: string;
  other: string;
  weight: number;
  dosageWeights: [number, number, number];
  /** Effect-allele frequency per population (POPULATION_ORDER), null when not known for every population. */
  freq: number[] | null;
}

export interface MatchCounts {
  /** How variants were matched: by the rsID column, hm_rsID, or position (by the build of that position; and how many in the person's file, and of those lifted). */
  matched_by: {
    rsid: number;
    hm_rsid: number;
    position: number;
    position_grch37: number;
    position_grch38: number;
    position_genotype: number;
    position_lifted: number;
    /** Of those by position, read from the person's file itself (lines its parsed genotype does not keep). */
    position_file: number;
  };
  frequency_source: { file_population: number; thousand_genomes: number; file_overall: number };
  strand_flipped_to_forward: number;
}

export interface MatchResult extends MatchCounts {
  /** Matched variants by rsID (the first row of an rsID wins). */
  variants: Map<number, MatchedVariant>;
  dropped: Record<string, number>;
}

const COMP: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' };

export function matchScoringRows(
  rows: ScoringRow[],
  refs: MatchReferences,
  dropped: Record<string, number> = {},
): MatchResult {
  const drop = (reason: string) => void (dropped[reason] = (dropped[reason] ?? 0) + 1);
  const result: MatchResult = {
    variants: new Map(),
    dropped,
    matched_by: {
      rsid: 0,
      hm_rsid: 0,
      position: 0,
      position_grch37: 0,
      position_grch38: 0,
      position_genotype: 0,
      position_lifted: 0,
      position_file: 0,
    },
    frequency_source: { file_population: 0, thousand_genomes: 0, file_overall: 0 },
    strand_flipped_to_forward: 0,
  };
  const counts = result.matched_by;
  const person = refs.genotype ? personSites(rows, refs.genotype.genotype, refs.genotype.build, refs.lift) : undefined;
  for (const row of rows) {
    let effect = row.effect;
    let other = row.other;
    let rsid: number;
    let via: KgVariant | undefined;
    if (row.rsid !== null) {
      rsid = row.rsid;
      counts.rsid++;
    } else if (row.hmRsid !== null) {
      rsid = row.hmRsid;
      counts.hm_rsid++;
    } else {
      const found = findByPosition(row, refs, person);
      if (!found.ok) {
        drop(found.reason);
        continue;
      }
      rsid = found.rsid;
      via = found.via;
      counts.position++;
      if (found.site.build === 37) counts.position_grch37++;
      else counts.position_grch38++;
      if (found.inGenotype || found.inFile) {
        if (found.inFile) counts.position_file++;
        else counts.position_genotype++;
        if (found.lifted) counts.position_lifted++;
        // The person's file may name the other allele or the strand the score's letters are on.
        effect = found.effect;
        other = found.other;
        if (found.flipped) result.strand_flipped_to_forward++;
      }
    }
    const ref = via ?? refs.kg.byRsid(rsid);

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
    if (ref && !palindromic && !sameSet(effect, other, ref.ref, ref.alt)) {
      if (sameSet(COMP[effect], COMP[other], ref.ref, ref.alt)) {
        effect = COMP[effect];
        other = COMP[other];
        result.strand_flipped_to_forward++;
      } else {
        drop('alleles_differ_from_1000_genomes');
        continue;
      }
    }

    const sources = { file_population: 0, thousand_genomes: 0, file_overall: 0 };
    const freq = frequencies(row, effect, other, ref, sources);
    if (palindromic) {
      // Strand cannot be told from letters: kept only when the frequency shows it (as in the catalog).
      const mean = freq ? freq.reduce((a, b) => a + b, 0) / freq.length : 0.5;
      if (Math.min(mean, 1 - mean) >= PALINDROME_MAF_LIMIT) {
        drop(freq ? 'palindromic_ambiguous' : 'palindromic_without_frequency');
        continue;
      }
    }
    if (result.variants.has(rsid)) {
      drop('duplicate_variant');
      continue;
    }
    result.variants.set(rsid, { rsid, effect, other, weight: row.weight, dosageWeights: row.dosageWeights, freq });
    // Counted for the variants kept only (a dropped row's frequencies are not used).
    for (const k of ['file_population', 'thousand_genomes', 'file_overall'] as const)
      result.frequency_source[k] += freq ? sources[k] : 0;
  }
  return result;
}

type PositionMatch =
  | {
      ok: true;
      rsid: number;
      site: ScoringSite;
      via?: KgVariant;
      inGenotype: boolean;
      /** Read from the person's file itself, not its parsed genotype. */
      inFile: boolean;
      lifted: boolean;
      effect: string;
      other: string;
      flipped: boolean;
    }
  | { ok: false; reason: string };

/** The position of a scoring file's site in the build of the person's file (lifted when the builds differ), or null. */
function positionIn(build: IndexedBuild, site: ScoringSite, lift: LiftPosition | undefined): number | null {
  const pos =
    site.build === build ? site.pos : (lift?.(site.chrom.replace(/^chr/i, ''), site.pos, site.build, build) ?? null);
  return pos !== null && pos > 0 ? pos : null;
}

/** Every site of the rows matched by position, in the person's build (siteKey). */
function wantedSites(rows: ScoringRow[], build: IndexedBuild, lift: LiftPosition | undefined): Set<number> {
  const wanted = new Set<number>();
  for (const row of rows) {
    if (row.rsid !== null || row.hmRsid !== null) continue;
    for (const site of row.sites) {
      const chrom = chromCode(site.chrom);
      const pos = positionIn(build, site, lift);
      if (chrom !== 0 && pos !== null) wanted.add(siteKey(chrom, pos));
    }
  }
  return wanted;
}

/** The person's rows at every site of the rows matched by position. */
function personSites(
  rows: ScoringRow[],
  genotype: Genotype,
  build: IndexedBuild,
  lift: LiftPosition | undefined,
): GenotypeSites {
  return genotypeSites(genotype, build, wantedSites(rows, build, lift));
}

/**
 * The sites of the rows matched by position that the person's parsed genotype has no line
 * at (siteKey, in its build): what is left to read from the person's file itself.
 */
export function sitesMissingFromGenotype(
  rows: ScoringRow[],
  genotype: Genotype,
  build: IndexedBuild,
  lift: LiftPosition | undefined,
): Set<number> {
  const wanted = wantedSites(rows, build, lift);
  for (const key of genotypeSites(genotype, build, wanted).rowsAt.keys()) wanted.delete(key);
  return wanted;
}

/**
 * A row's variant by its positions: a known marker (the 1000 Genomes table or the position
 * index) at any of its sites first, then the person's own file; the reason when none.
 */
function findByPosition(row: ScoringRow, refs: MatchReferences, person: GenotypeSites | undefined): PositionMatch {
  const { effect, other } = row;
  if (row.sites.length === 0)
    return { ok: false, reason: row.positionWithoutBuild ? 'position_build_not_stated' : 'no_rsid_or_position' };
  for (const site of row.sites) {
    const chrom = site.chrom.replace(/^chr/i, '');
    const via =
      site.build === 37
        ? refs.kg.byPosition(chrom, site.pos).find((v) => alleleSetMatches(v, effect, other))
        : undefined;
    const rsid = via?.rsid ?? markerAt(refs.positions, site.build, chrom, site.pos, effect, other);
    if (rsid !== null)
      return {
        ok: true,
        rsid,
        site,
        via,
        inGenotype: false,
        inFile: false,
        lifted: false,
        effect,
        other,
        flipped: false,
      };
  }
  if (!person) return { ok: false, reason: 'position_not_a_known_marker' };
  // The most telling reason over the row's sites: a lift failure, then nothing there, no call, other alleles.
  let reason = 'position_not_lifted';
  const rank = [
    'position_not_lifted',
    'position_not_in_genotype',
    'unlisted_reference_unknown',
    'listed_reference_unknown',
    'position_not_called_in_genotype',
    'alleles_differ_from_genotype',
  ];
  for (const site of row.sites) {
    const chrom = chromCode(site.chrom);
    const pos = positionIn(person.build, site, refs.lift);
    if (chrom === 0 || pos === null) continue;
    const inParsed = matchAtGenotypeSite(person, chrom, pos, effect, other);
    // The file itself where its parsed genotype has no line there.
    const m =
      refs.file && !inParsed.found && inParsed.reason === 'position_not_in_genotype'
        ? matchAtFileSite(refs.file.sites, refs.file.reading, chrom, pos, effect, other)
        : inParsed;
    if (m.found)
      return {
        ok: true,
        rsid: m.rsid,
        site,
        inGenotype: m === inParsed,
        inFile: m !== inParsed,
        lifted: site.build !== person.build,
        effect: m.effect,
        other: m.other,
        flipped: m.flipped,
      };
    if (rank.indexOf(m.reason) > rank.indexOf(reason)) reason = m.reason;
  }
  return { ok: false, reason };
}

/** Effect-allele frequency per population, counting where each came from; null when a population has none. */
function frequencies(
  row: ScoringRow,
  effect: string,
  other: string,
  ref: KgVariant | undefined,
  source: MatchCounts['frequency_source'],
): number[] | null {
  const freq: number[] = [];
  for (let p = 0; p < POPULATION_ORDER.length; p++) {
    const fromFile = row.populationFrequency[p];
    if (fromFile !== null) {
      freq.push(fromFile);
      source.file_population++;
    } else if (ref && sameSet(effect, other, ref.ref, ref.alt)) {
      freq.push(effect === ref.alt ? ref.altFreq[p] : 1 - ref.altFreq[p]);
      source.thousand_genomes++;
    } else if (row.overallFrequency !== null) {
      freq.push(row.overallFrequency);
      source.file_overall++;
    } else return null;
  }
  return freq;
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
  const chrom = chromCode(chr);
  if (chrom === 0 || !(pos > 0)) return null;
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
