/**
 * A genome-wide score given by position only, and a person whose file covers it, for the
 * PGS import by position (docs/science.md, "Imported scores"). Like PGS000586 (1,023
 * variants by chr_name/chr_position, few of them markers Traitscope knows), built from real
 * rows: the 835 variants of PGS001229's chromosome 22 slice (test/science/fixtures,
 * SOURCE.txt) with their GRCh37 positions, alleles and weights, the rsID column removed.
 * The person's 23andMe-shaped file carries those rsIDs at those positions with calls drawn
 * from each row's two letters (test genotypes, not frequencies), among chip filler (the
 * slice's 8 indels are not in it: Traitscope drops them from the score anyway); it
 * leaves some of the score's variants out, with a no-call, or with a call of other letters,
 * and some rows of the score give their letters on the reverse strand.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { rowsAt } from '../../src/service/genotype/positions.js';
import { ALLELE_LETTERS } from '../../src/service/genotype/encoding.js';
import { chipMarkers, combine, positionIndex, sequencingVcf, type Marker } from './genotypes.js';
import { rng } from './prng.js';

export interface ScoreRow {
  rsid: number;
  /** GRCh37 position on chromosome 22 (PGS001229's chr_position). */
  pos37: number;
  effect: string;
  other: string;
  weight: number;
  /** The person's call ("--" for a no-call); null when the person's file leaves the variant out. */
  call: string | null;
  /** The score file gives this row's letters complemented (the reverse strand). */
  reverseInScore: boolean;
  /** A marker of the position index sits at the GRCh37 position. */
  known: boolean;
  /** Single-letter alleles (the chr22 slice has a few indels, which Traitscope does not score). */
  snv: boolean;
}

export const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };
export const isPalindromic = (r: Pick<ScoreRow, 'effect' | 'other'>) => COMPLEMENT[r.effect] === r.other;

/** How many of the score's rows the person's file leaves out, leaves uncalled, calls with other letters; how many the score gives reversed. */
export const LEFT_OUT = 30;
export const NO_CALLS = 10;
export const OTHER_LETTERS = 5;
export const REVERSED = 40;

const FIXTURE = path.resolve(import.meta.dirname, '..', 'science', 'fixtures', 'pgsc_calc_PGS001229_22.txt');

/** The score's rows and the person's calls at them (seeded: the same every run). */
export function positionScoreRows(seed = 586): ScoreRow[] {
  const lines = readFileSync(FIXTURE, 'utf8').split('\n');
  const header = lines.findIndex((l) => l !== '' && !l.startsWith('#'));
  const cols = lines[header].split('\t');
  const [rsid, pos, effect, other, weight] = [
    'rsID',
    'chr_position',
    'effect_allele',
    'other_allele',
    'effect_weight',
  ].map((c) => cols.indexOf(c));
  const index = positionIndex();
  const rand = rng(seed);
  const rows: ScoreRow[] = lines
    .slice(header + 1)
    .filter((l) => l !== '')
    .map((l) => {
      const f = l.split('\t');
      const row = {
        rsid: Number(f[rsid].slice(2)),
        pos37: Number(f[pos]),
        effect: f[effect],
        other: f[other],
        weight: Number(f[weight]),
        reverseInScore: false,
        known: rowsAt(index, 37, 22, Number(f[pos])).length > 0,
        snv: /^[ACGT]$/.test(f[effect]) && /^[ACGT]$/.test(f[other]),
      };
      const letter = () => (rand() < 0.5 ? row.effect : row.other);
      const call = letter() + letter();
      return { ...row, call: row.snv ? call : null };
    });
  // Changes go to rows no known marker sits at and whose strand their letters tell.
  const plain = rows.filter((r) => r.snv && !r.known && !isPalindromic(r));
  const pick = (n: number) => plain.splice(Math.floor(rand() * (plain.length - n)), n);
  for (const r of pick(LEFT_OUT)) r.call = null;
  for (const r of pick(NO_CALLS)) r.call = '--';
  for (const r of pick(OTHER_LETTERS)) r.call = r.effect + COMPLEMENT[r.other];
  for (const r of pick(REVERSED)) r.reverseInScore = true;
  return rows;
}

/**
 * The score as a PGS Catalog file by position only: chr_name/chr_position in `build`
 * (positions: the row's position in that build, null to leave the row out).
 */
export function positionScoreFile(
  rows: ScoreRow[],
  build: 37 | 38 = 37,
  position: (r: ScoreRow) => number | null = (r) => r.pos37,
): string {
  const lines = [
    '###PGS CATALOG SCORING FILE - see https://www.pgscatalog.org/downloads/#dl_ftp_scoring for additional information',
    '#format_version=2.0',
    '#pgs_name=PGS001229 chromosome 22, by position',
    '#trait_reported=Standing height',
    '#weight_type=NR',
    `#genome_build=GRCh${build}`,
    '#citation=Tanigawa Y et al. medRxiv (2021). doi:10.1101/2021.09.02.21262942',
    'chr_name\tchr_position\teffect_allele\tother_allele\teffect_weight',
  ];
  for (const r of rows) {
    const pos = position(r);
    if (pos === null) continue;
    const [e, o] = r.reverseInScore ? [COMPLEMENT[r.effect], COMPLEMENT[r.other]] : [r.effect, r.other];
    lines.push(`22\t${pos}\t${e}\t${o}\t${r.weight}`);
  }
  return lines.join('\n') + '\n';
}

/** The chip markers among which the person's file holds the score's rows. */
const CHIP_FILLER = () => chipMarkers(4000, 586, { internalIds: false });

/**
 * The person's markers: the score's rows the file has, at their GRCh37 positions or those
 * `position` gives (null: not in the file), among chip filler.
 */
export function personMarkers(rows: ScoreRow[], position: (r: ScoreRow) => number | null = (r) => r.pos37): Marker[] {
  const scored: Marker[] = rows.flatMap((r) => {
    const pos = position(r);
    return r.call === null || pos === null ? [] : [{ rsid: r.rsid, chrom: 22, pos, genotype: r.call }];
  });
  return combine([scored, CHIP_FILLER()]);
}

/**
 * The same person as a whole-genome VCF in `build` (positions from `position`, null: not in
 * the file), without rsIDs by default, listing all sites or only those with a non-reference
 * allele. The chip filler's markers Traitscope knows are written as sequencingVcf writes
 * them. Each score row is a line at its position: REF is the index's where a known marker
 * sits there, else the row's other letter (the source gives no reference bases; any choice
 * of REF among the row's letters makes the same genotypes), ALT the row's effect letter plus
 * any other letter the call holds (a multi-allelic line). A no-call is listed as `./.`.
 */
export function positionScoreVcf(
  rows: ScoreRow[],
  options: {
    build?: 37 | 38;
    position?: (r: ScoreRow) => number | null;
    ids?: 'rsid' | 'none';
    sites: 'all' | 'variants_only';
  },
): string {
  const build = options.build ?? 38;
  const position = options.position ?? ((r: ScoreRow) => r.pos37);
  const ids = options.ids ?? 'none';
  const filler = sequencingVcf(CHIP_FILLER(), { build, ids, sites: options.sites }).split('\n');
  const header = filler.filter((l) => l.startsWith('#'));
  const index = positionIndex();
  const contig = build === 38 ? 'chr22' : '22';
  const lines = new Map<string, string>();
  for (const l of filler) if (l !== '' && !l.startsWith('#')) lines.set(l.split('\t', 2).join(':'), l);
  for (const r of rows) {
    const pos = position(r);
    if (r.call === null || pos === null) continue;
    const known = rowsAt(index, build, 22, pos).find((i) => index.ref[i] !== 0);
    const indexRef = known === undefined ? '' : ALLELE_LETTERS[index.ref[known]];
    const ref = indexRef === r.effect || indexRef === r.other ? indexRef : r.other;
    const letters = r.call === '--' ? [] : [...r.call];
    const alts = [ref === r.effect ? r.other : r.effect];
    for (const l of letters) if (l !== ref && !alts.includes(l)) alts.push(l);
    const gt = r.call === '--' ? './.' : letters.map((l) => (l === ref ? 0 : alts.indexOf(l) + 1)).join('/');
    if (options.sites === 'variants_only' && gt === '0/0') continue;
    const id = ids === 'rsid' ? `rs${r.rsid}` : '.';
    lines.set(`${contig}:${pos}`, `${contig}\t${pos}\t${id}\t${ref}\t${alts.join(',')}\t50\tPASS\t.\tGT:DP\t${gt}:30`);
  }
  const chromOrder = (c: string) => {
    const name = c.replace(/^chr/, '');
    return /^\d+$/.test(name) ? Number(name) : 22 + ['X', 'Y', 'XY', 'M', 'MT'].indexOf(name) + 1;
  };
  const sorted = [...lines.values()].sort((a, b) => {
    const [ca, pa] = a.split('\t', 2);
    const [cb, pb] = b.split('\t', 2);
    return chromOrder(ca) - chromOrder(cb) || Number(pa) - Number(pb);
  });
  return [...header, ...sorted].join('\n') + '\n';
}

/** The raw score of a call for a row's forward-strand effect letter. */
export const effectCount = (r: ScoreRow) =>
  r.call === null || r.call === '--' ? 0 : [...r.call].filter((l) => l === r.effect).length;
