/**
 * The one seeded generator of synthetic genotypes for tests, benches and the ancestry
 * validation scripts. Markers are drawn from real frequencies by the seeded PRNG
 * (prng.ts), so a seed always gives the same file:
 *  - catalogMarkers: the markers of catalog traits (featured, all, or chosen), under
 *    Hardy–Weinberg at one population's frequencies or a mixture's;
 *  - panelMarkers: the ancestry panel's SNPs (its AISNPs, or a share of all), drawn under
 *    the admixture model from a population or a mixture;
 *  - chipMarkers: chip-sized filler shaped like a real export (chromosomes in order,
 *    rsIDs over the dbSNP range, internal ids, haploid X/Y for a male, no-calls);
 *  - sexMarkers: X and Y markers that read as a female or a male sample;
 * combined with `combine`, written in a vendor's export shape by `vendorFile` (23andMe,
 * AncestryDNA, FamilyTreeDNA) or as a sequencing VCF by `sequencingVcf` (either build, with
 * or without rsIDs, all sites, variants only or a gVCF), or turned straight into a Genotype
 * by `genotypeOf`.
 */
import path from 'node:path';
import { alleleFromLetter, ALLELE_LETTERS, makeCall } from '../../src/service/genotype/encoding.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import { loadPositionIndex, rowOfRsid, rowsAt, type PositionIndex } from '../../src/service/genotype/positions.js';
import { loadAncestryPanel } from '../../src/service/science/ancestry/index.js';
import { K, POPULATIONS } from '../../src/service/science/ancestry/panel.js';
import type { AncestryPanel } from '../../src/service/science/ancestry/reference.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import type { Population } from '../../src/service/science/types.js';
import { rng } from './prng.js';
import { shippedCatalog } from './shipped-catalog.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const RESOURCES = path.join(ROOT, 'resources');

/**
 * One line of a raw-data file. `chrom` is 1–22, 23 (X), 24 (Y) or 26 (MT); `genotype` is
 * two letters, one letter for a haploid call, "--" for a no-call.
 */
export interface Marker {
  rsid: number;
  chrom: number;
  pos: number;
  genotype: string;
  /** The file's identifier when it is not rs<rsid> (a 23andMe internal id such as i3000123). */
  id?: string;
  /**
   * The marker's two letters as its source gives them (a catalog trait's effect and other
   * allele), on that source's strand: tells sequencingVcf the strand of a call whose letters
   * alone cannot (a third allele at a site the index knows two of).
   */
  alleles?: string;
}

/** Where alleles come from: one super-population, or shares of each (an admixed person). */
export type Ancestry = Population | Partial<Record<Population, number>>;

/** Draws one allele's population index: no draw for one population, one draw per allele for a mixture (even of one). */
function populationDrawer(ancestry: Ancestry | number[], rand: () => number): () => number {
  if (typeof ancestry === 'string') {
    const k = POPULATIONS.indexOf(ancestry);
    return () => k;
  }
  const q = Array.isArray(ancestry) ? ancestry : POPULATIONS.map((p) => ancestry[p] ?? 0);
  const cumulative = q.map((_, k) => q.slice(0, k + 1).reduce((a, b) => a + b, 0));
  return () => {
    const u = rand();
    let k = 0;
    while (k < K - 1 && u >= cumulative[k]) k++;
    return k;
  };
}

// ---- catalog traits ----

export interface CatalogMarkerOptions {
  /** Population or mixture whose frequencies the genotypes are drawn from (EUR by default). */
  population?: Ancestry;
  /** Which traits' markers: 'featured' (default), 'all', or those a predicate picks. */
  traits?: 'featured' | 'all' | ((t: CatalogTrait) => boolean);
  /** Also the markers of the first `n` traits that are not featured (with 'featured'). */
  fillerTraits?: number;
  /**
   * 'index' (default): chromosome 1–22 and position 1000 + i by the marker's place in the
   * list (a made-up layout); 'panel': the GRCh37 position where the ancestry panel or the
   * position index knows the SNP, else a made-up one, as a chip file places them.
   */
  positions?: 'index' | 'panel';
}

/** The shipped catalog's traits (test/support/shipped-catalog.ts: read once per process, frozen). */
export const catalogTraits = () => shippedCatalog().traits;
let panelCache: AncestryPanel | undefined;
/** The shipped ancestry panel (loaded once per process). */
export const ancestryPanel = () => (panelCache ??= loadAncestryPanel(RESOURCES));

/** The markers of catalog traits (each rsID once, sorted), genotyped at random under Hardy–Weinberg. */
export function catalogMarkers(seed = 1, options: CatalogMarkerOptions = {}): Marker[] {
  const rand = rng(seed);
  const all = catalogTraits();
  const which = options.traits ?? 'featured';
  const traits =
    which === 'all'
      ? all
      : which === 'featured'
        ? [...all.filter((t) => t.featured), ...all.filter((t) => !t.featured).slice(0, options.fillerTraits ?? 0)]
        : all.filter(which);
  const population = populationDrawer(options.population ?? 'EUR', rand);
  const calls = new Map<number, string>();
  const alleles = new Map<number, string>();
  for (const t of traits) {
    const m = t.markers;
    m.rsid.forEach((rsid, i) => {
      if (calls.has(rsid)) return;
      const allele = () => {
        const pop = POPULATIONS[population()];
        const p = (m.freq[pop] ?? m.freq.EUR)[i];
        return rand() < p ? m.effect[i] : m.other[i];
      };
      calls.set(rsid, allele() + allele());
      alleles.set(rsid, m.effect[i] + m.other[i]);
    });
  }
  const sorted = [...calls].sort((a, b) => a[0] - b[0]);
  if (options.positions === 'panel') {
    const panel = ancestryPanel();
    const row = new Map(Array.from(panel.rsid, (rsid, i) => [rsid, i]));
    const index = positionIndex();
    return sorted.map(([rsid, genotype], j) => {
      const i = row.get(rsid);
      const pair = alleles.get(rsid);
      if (i !== undefined && panel.pos[i] > 0)
        return { rsid, chrom: panel.chrom[i], pos: panel.pos[i], genotype, alleles: pair };
      const k = rowOfRsid(index, rsid);
      if (k >= 0 && index.pos37[k] > 0)
        return { rsid, chrom: index.chrom[k], pos: index.pos37[k], genotype, alleles: pair };
      // A marker no shipped source places: a made-up position inside the chromosome (a chip
      // file's positions fit in 32 bits), at no marker of the index.
      const chrom = (j % 22) + 1;
      let pos = 10_000 + Math.floor(j / 22) * 1_000;
      while (rowsAt(index, 37, chrom, pos).length > 0) pos++;
      return { rsid, chrom, pos, genotype, alleles: pair };
    });
  }
  return sorted.map(([rsid, genotype], i) => ({
    rsid,
    chrom: (i % 22) + 1,
    pos: 1000 + i,
    genotype,
    alleles: alleles.get(rsid),
  }));
}

// ---- the ancestry panel ----

/** GRCh37 chromosome lengths, for placing markers without a known position. */
const CHROM_LENGTHS = [
  249250621, 243199373, 198022430, 191154276, 180915260, 171115067, 159138663, 146364022, 141213431, 135534747,
  135006516, 133851895, 115169878, 107349540, 102531392, 90354753, 81195210, 78077248, 59128983, 63025520, 48129895,
  51304566,
];

export function randomPosition(rand: () => number, chrom: number): number {
  return 1 + Math.floor(rand() * (CHROM_LENGTHS[chrom - 1] - 1));
}

/** Panel rows a file holds, with where it places them. */
export interface PanelRows {
  rows: number[];
  chrom: number[];
  pos: number[];
}

/**
 * Markers a realistic consumer chip would hold: the AISNPs plus a seeded random `share` of
 * the panel's other SNPs (0: the AISNPs alone). No chip manifest is available to us, so the
 * share is an assumption (see docs/ancestry.md); markers without a GRCh37 position in the
 * panel get a random one.
 */
export function chipMarkerRows(panel: AncestryPanel, seed: number, share: number): PanelRows {
  const rand = rng(seed);
  const rows: number[] = [];
  const chrom: number[] = [];
  const pos: number[] = [];
  for (let i = 0; i < panel.size; i++) {
    if (!panel.aisnp[i] && !(rand() < share)) continue;
    rows.push(i);
    chrom.push(panel.chrom[i]);
    pos.push(panel.pos[i] || randomPosition(rand, panel.chrom[i]));
  }
  return { rows, chrom, pos };
}

/**
 * A genome simulated under the admixture model on the given panel rows: each allele comes
 * from a super-population with the mixture's probability and carries the counted allele
 * with that population's reference frequency.
 */
export function simulateMixture(
  panel: AncestryPanel,
  markers: PanelRows,
  ancestry: Ancestry | number[],
  rand: () => number,
): Marker[] {
  const population = populationDrawer(ancestry, rand);
  const draw = (i: number) => {
    const k = population();
    return rand() < panel.p[i * K + k] ? ALLELE_LETTERS[panel.counted[i]] : ALLELE_LETTERS[panel.other[i]];
  };
  return markers.rows.map((i, u) => ({
    rsid: panel.rsid[i],
    chrom: markers.chrom[u],
    pos: markers.pos[u],
    genotype: draw(i) + draw(i),
  }));
}

/** The panel's AISNPs (share 0) or a chip-like share of all its SNPs, drawn from a population or mixture. */
export function panelMarkers(
  seed: number,
  options: { population?: Ancestry; share?: number; panel?: AncestryPanel } = {},
): Marker[] {
  const panel = options.panel ?? ancestryPanel();
  return simulateMixture(
    panel,
    chipMarkerRows(panel, seed, options.share ?? 0),
    options.population ?? 'EUR',
    rng(seed + 1),
  );
}

export interface ChipBackgroundOptions {
  /** Markers in the whole file (default 600,000). */
  size?: number;
  /** Panel (non-AISNP) markers among them whose genotypes are noise (default 40,000). */
  panelNoise?: number;
}

/**
 * A chip-like file's other markers, carrying no population signal: `panelNoise` of the
 * panel's non-AISNP SNPs with genotypes that ignore every reference frequency (half drawn
 * uniformly from the SNP's three genotypes, half under Hardy–Weinberg at a frequency drawn
 * uniformly from 0–1), and random rsIDs outside the panel with random genotypes for the rest.
 * The AISNPs are left out, for a sample's own genotypes to be added.
 */
export function chipBackground(panel: AncestryPanel, seed: number, options: ChipBackgroundOptions = {}): Marker[] {
  const size = options.size ?? 600_000;
  const rand = rng(seed);
  const out: Marker[] = [];
  const candidates: number[] = [];
  for (let i = 0; i < panel.size; i++) if (!panel.aisnp[i]) candidates.push(i);
  const noise = Math.min(options.panelNoise ?? 40_000, candidates.length);
  // Partial Fisher–Yates: the first `noise` candidates become a uniform random subset.
  for (let t = 0; t < noise; t++) {
    const s = t + Math.floor(rand() * (candidates.length - t));
    [candidates[t], candidates[s]] = [candidates[s], candidates[t]];
    const i = candidates[t];
    const a = ALLELE_LETTERS[panel.counted[i]];
    const b = ALLELE_LETTERS[panel.other[i]];
    let count: number;
    if (t % 2 === 0) count = Math.floor(rand() * 3);
    else {
      const f = rand();
      count = (rand() < f ? 1 : 0) + (rand() < f ? 1 : 0);
    }
    const chrom = panel.chrom[i];
    out.push({
      rsid: panel.rsid[i],
      chrom,
      pos: panel.pos[i] || randomPosition(rand, chrom),
      genotype: count === 2 ? a + a : count === 1 ? a + b : b + b,
    });
  }
  const inPanel = new Set(panel.rsid);
  const bases = 'ACGT';
  const used = new Set<number>();
  while (out.length < size - panel.data.aisnp.length) {
    const rsid = 1 + Math.floor(rand() * 200_000_000);
    if (inPanel.has(rsid) || used.has(rsid)) continue;
    used.add(rsid);
    const chrom = 1 + Math.floor(rand() * 22);
    const x = bases[Math.floor(rand() * 4)];
    const y = rand() < 0.5 ? x : bases[Math.floor(rand() * 4)];
    out.push({ rsid, chrom, pos: randomPosition(rand, chrom), genotype: x + y });
  }
  return out;
}

// ---- chip filler ----

/** Chromosome share of chip markers, roughly proportional to chromosome length (1–22, X, Y, MT). */
const CHROM_WEIGHTS = [
  8.1, 8.0, 6.6, 6.2, 5.9, 5.6, 5.1, 4.7, 4.2, 4.4, 4.4, 4.3, 3.2, 3.0, 2.8, 3.0, 2.8, 2.6, 1.9, 2.1, 1.2, 1.2, 2.5,
  0.3, 0.3,
];

/**
 * `count` chip-like markers carrying no trait or population signal: ordered by chromosome
 * and position, rsIDs spread over the dbSNP range, ~2% 23andMe internal ids, biallelic SNPs
 * with random allele frequency in Hardy–Weinberg proportions, ~1.5% no-calls; a male
 * sample (haploid X/Y calls) unless `haploidXY` is false.
 */
export function chipMarkers(
  count: number,
  seed: number,
  options: { internalIds?: boolean; haploidXY?: boolean } = {},
): Marker[] {
  const rnd = rng(seed);
  const bases = 'ACGT';
  const total = CHROM_WEIGHTS.reduce((a, b) => a + b, 0);
  const internalIds = options.internalIds ?? true;
  const out: Marker[] = [];
  let written = 0;
  for (let ci = 0; ci < CHROM_WEIGHTS.length; ci++) {
    const chrom = ci + 1 <= 24 ? ci + 1 : 26;
    const n = ci === CHROM_WEIGHTS.length - 1 ? count - written : Math.round((count * CHROM_WEIGHTS[ci]) / total);
    let pos = 10_000 + Math.floor(rnd() * 50_000);
    const haploid = chrom >= 23 && options.haploidXY !== false;
    for (let k = 0; k < n; k++) {
      pos += 1 + Math.floor(rnd() * 5_000);
      const internal = internalIds && rnd() < 0.02;
      const number = internal ? 3_000_000 + Math.floor(rnd() * 4_000_000) : 1 + Math.floor(rnd() * 900_000_000);
      const ref = bases[Math.floor(rnd() * 4)];
      const alt = bases[(bases.indexOf(ref) + 1 + Math.floor(rnd() * 3)) % 4];
      const p = rnd() * 0.5;
      const r1 = rnd();
      const r2 = rnd();
      let genotype = (r1 < p ? alt : ref) + (haploid ? '' : r2 < p ? alt : ref);
      if (rnd() < 0.015) genotype = '--'; // vendors write a haploid no-call as "--" too
      out.push(internal ? { rsid: 0, id: `i${number}`, chrom, pos, genotype } : { rsid: number, chrom, pos, genotype });
    }
    written += n;
  }
  return out;
}

/** X and Y markers that read as a female (heterozygous X, Y no-calls) or a male (haploid X and Y) sample. */
export function sexMarkers(sex: 'female' | 'male'): Marker[] {
  const out: Marker[] = [];
  for (let i = 0; i < 80; i++)
    out.push({
      rsid: 70_000_000 + i * 7,
      chrom: 23,
      pos: 3_000_000 + i * 75_000,
      genotype: sex === 'male' ? 'A' : i % 3 === 0 ? 'AA' : 'AG',
    });
  for (let i = 0; i < 30; i++)
    out.push({
      rsid: 71_000_000 + i * 11,
      chrom: 24,
      pos: 2_700_000 + i * 40_000,
      genotype: sex === 'male' ? 'G' : '--',
    });
  return out;
}

/** Calls given as ['rs123', 'AG'] pairs, placed one per megabase on chromosome 1 unless told. */
export function markersOf(calls: Array<[string, string]>, chrom = 1): Marker[] {
  return calls.map(([rs, genotype], i) => ({
    rsid: Number(rs.replace(/^rs/, '')),
    chrom,
    pos: 1_000_000 * (i + 1),
    genotype,
  }));
}

/**
 * The markers of several lists, each rsID once (the first list that has it wins), ordered
 * by chromosome and position as a chip export is (rsID order with `order: 'rsid'`).
 */
export function combine(lists: Marker[][], order: 'position' | 'rsid' = 'position'): Marker[] {
  const seen = new Set<number>();
  const out: Marker[] = [];
  for (const list of lists) {
    for (const m of list) {
      if (m.rsid !== 0 && seen.has(m.rsid)) continue;
      seen.add(m.rsid);
      out.push(m);
    }
  }
  return out.sort(
    order === 'rsid' ? (a, b) => a.rsid - b.rsid : (a, b) => a.chrom - b.chrom || a.pos - b.pos || a.rsid - b.rsid,
  );
}

// ---- files ----

export type Vendor = '23andme' | 'ancestrydna' | 'ftdna';

const HEADERS: Record<Vendor, { short: string[]; full: string[] }> = {
  '23andme': {
    short: [
      '# This data file generated by 23andMe at: Thu Jan 01 00:00:00 2026',
      '# rsid\tchromosome\tposition\tgenotype',
    ],
    full: [
      '# This data file generated by 23andMe at: Tue Mar 05 11:21:09 2024',
      '#',
      '# This file contains raw genotype data, including data that is not used in 23andMe reports.',
      '# This data has undergone a general quality review however only a subset of markers have been',
      '# individually validated for accuracy. As such, this data is suitable only for research,',
      '# educational, and informational use and not for medical or other use.',
      '#',
      '# Below is a text version of your data.  Fields are TAB-separated',
      '# Each line corresponds to a single SNP.  For each SNP, we provide its identifier',
      '# (an rsid or an internal id), its location on the reference human genome, and the',
      '# genotype call oriented with respect to the plus strand on the human reference sequence.',
      '# We are using reference human assembly build 37 (also known as Annotation Release 104).',
      '# Note that it is possible that data downloaded at different times may be different due to ongoing',
      '# improvements in our ability to call genotypes. More information about these changes can be found at:',
      '#',
      '# rsid\tchromosome\tposition\tgenotype',
    ],
  },
  ancestrydna: {
    short: ['#AncestryDNA raw data download', 'rsid\tchromosome\tposition\tallele1\tallele2'],
    full: [
      '#AncestryDNA raw data download',
      '#This file was generated by AncestryDNA at: 03/05/2024 09:21:34 MDT',
      '#Data was collected using AncestryDNA array version: V2.0',
      '#Data is formatted using AncestryDNA converter version: V1.0',
      '#Below is a text version of your DNA file from Ancestry.com DNA, LLC.',
      '#Genetic data is provided below as five TAB delimited columns.  Each line',
      '#corresponds to a SNP.  Column one provides the SNP identifier (rsID where',
      '#possible).  Columns two and three contain the chromosome and basepair position',
      '#of the SNP using human reference build 37.1 coordinates.  Columns four and five',
      '#contain the two alleles observed at this SNP (genotype).',
      'rsid\tchromosome\tposition\tallele1\tallele2',
    ],
  },
  ftdna: { short: ['RSID,CHROMOSOME,POSITION,RESULT'], full: ['RSID,CHROMOSOME,POSITION,RESULT'] },
};

function chromLabel(chrom: number, vendor: Vendor): string {
  if (chrom <= 22 || vendor === 'ancestrydna') return String(chrom);
  return chrom === 23 ? 'X' : chrom === 24 ? 'Y' : 'MT';
}

function line(m: Marker, vendor: Vendor): string {
  const id = m.id ?? `rs${m.rsid}`;
  const chrom = chromLabel(m.chrom, vendor);
  const noCall = m.genotype === '--';
  if (vendor === '23andme') return `${id}\t${chrom}\t${m.pos}\t${m.genotype}`;
  const [a, b] = noCall ? ['-', '-'] : [m.genotype[0], m.genotype[1] ?? m.genotype[0]];
  if (vendor === 'ancestrydna')
    return noCall ? `${id}\t${chrom}\t${m.pos}\t0\t0` : `${id}\t${chrom}\t${m.pos}\t${a}\t${b}`;
  return `"${id}","${chrom}","${m.pos}","${a}${b}"`;
}

/**
 * The markers as a vendor's export, in the given order: 23andMe (tab-separated, one
 * genotype column), AncestryDNA (split alleles, "0" for no-calls, CRLF line ends when
 * `header` is 'short', as its older exports), FamilyTreeDNA (quoted CSV). `header`: 'short'
 * (the lines that name the vendor and columns, no genome build) or 'full' (a real export's
 * comment block, naming build 37).
 */
export function vendorFile(vendor: Vendor, markers: Marker[], header: 'short' | 'full' = 'short'): string {
  const eol = vendor === 'ancestrydna' && header === 'short' ? '\r\n' : '\n';
  return [...HEADERS[vendor][header], ...markers.map((m) => line(m, vendor))].join(eol) + eol;
}

/** A 23andMe-shaped export (the most common shape in the tests). */
export const twentyThreeAndMe = (markers: Marker[], header: 'short' | 'full' = 'short') =>
  vendorFile('23andme', markers, header);
/** An AncestryDNA-shaped export. */
export const ancestryDna = (markers: Marker[], header: 'short' | 'full' = 'short') =>
  vendorFile('ancestrydna', markers, header);

/** The Genotype the parser would give for these markers (no file, no parser: for tests about scoring and inference). */
export function genotypeOf(markers: Marker[]): Genotype {
  const sorted = markers.filter((m) => m.rsid !== 0).sort((a, b) => a.rsid - b.rsid);
  const call = (g: string) =>
    g === '--' ? 0 : makeCall(alleleFromLetter(g[0]), g.length > 1 ? alleleFromLetter(g[1]) : 0);
  return {
    rsids: Uint32Array.from(sorted, (m) => m.rsid),
    calls: Uint8Array.from(sorted, (m) => call(m.genotype)),
    chroms: Uint8Array.from(sorted, (m) => m.chrom),
    positions: Uint32Array.from(sorted, (m) => m.pos),
  };
}

/** Calls at the single-variant finding markers: APOE ε3/ε4, no Factor V Leiden, HFE H63D carrier, lactase persistent, no ALDH2*2. */
export const FINDING_CALLS: Array<[string, string]> = [
  ['rs429358', 'CT'],
  ['rs7412', 'CC'],
  ['rs6025', 'CC'],
  ['rs1800562', 'GG'],
  ['rs1799945', 'CG'],
  ['rs4988235', 'AG'],
  ['rs671', 'GG'],
];

export interface PersonOptions {
  seed?: number;
  population?: Population;
  /** Which catalog traits' markers (default: the featured ones plus `fillerTraits` others). */
  traits?: CatalogMarkerOptions['traits'];
  /** Traits beyond the featured ones whose markers are in the file (default 400). */
  fillerTraits?: number;
  /** The panel's AISNPs, drawn from the population, so ancestry is estimated from the file (default true). */
  ancestryMarkers?: boolean;
  /** Calls that override the drawn ones, e.g. FINDING_CALLS. */
  extra?: Array<[string, string]>;
  sex?: 'female' | 'male';
}

/**
 * A person's raw-data file as the UI tests upload it (23andMe, a real export's header): a
 * few thousand catalog markers, the AISNPs and X/Y markers (female by default), sorted by
 * chromosome and position.
 */
export function personFile(options: PersonOptions = {}): string {
  const seed = options.seed ?? 7;
  const population = options.population ?? 'EUR';
  return twentyThreeAndMe(
    combine([
      markersOf(options.extra ?? []),
      catalogMarkers(seed, {
        population,
        traits: options.traits,
        fillerTraits: options.traits ? 0 : (options.fillerTraits ?? 400),
        positions: 'panel',
      }),
      options.ancestryMarkers === false ? [] : panelMarkers(seed, { population }),
      sexMarkers(options.sex ?? 'female'),
    ]),
    'full',
  );
}

// ---- sequencing files ----

export interface SequencingVcfOptions {
  /** The build of the positions (GRCh38 by default): "chr1"-style contigs for 38, "1" for 37. */
  build?: 37 | 38;
  /** rsIDs in the ID column, or "." everywhere as many whole-genome VCFs have (default 'rsid'). */
  ids?: 'rsid' | 'none';
  /**
   * 'all' (default): every marker a line, REF/REF as 0/0; 'variants_only': only the sites
   * with a non-reference allele, as Nebula's or Dante's VCFs; 'gvcf': variant sites plus
   * <NON_REF> reference blocks over everything between them.
   */
  sites?: 'all' | 'variants_only' | 'gvcf';
  /** Name the build in the header (##reference and the chr1 contig length; default true). */
  headerBuild?: boolean;
}

const CHR1_LENGTH = { 37: 249250621, 38: 248956422 } as const;
const COMPLEMENT_LETTER: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };
let positionIndexCache: PositionIndex | undefined;
/** The shipped position index (resources/catalog/positions.bin), loaded once per process. */
export const positionIndex = () => (positionIndexCache ??= loadPositionIndex(RESOURCES));

/**
 * The markers as a single-sample whole-genome VCF in one of the layouts sequencing
 * services deliver. Each marker sits at its position in the build with the index's
 * forward-strand REF/ALT (calls given on the other strand are complemented; the marker's
 * `alleles` tell the strand where its call's letters alone cannot). A marker the
 * index cannot place keeps its made-up position and needs its rsID (left out with
 * `ids: 'none'`); one without a known REF gets the call's first allele as a made-up REF,
 * so a homozygous call is REF/REF and left out of variants-only layouts, as a real file
 * would leave out a REF/REF site. No-calls are "./.".
 */
export function sequencingVcf(markers: Marker[], options: SequencingVcfOptions = {}): string {
  const build = options.build ?? 38;
  const ids = options.ids ?? 'rsid';
  const sites = options.sites ?? 'all';
  const index = positionIndex();
  const contig = (chrom: number) => {
    const name = chrom <= 22 ? String(chrom) : (['X', 'Y', 'XY', 'MT'][chrom - 23] ?? String(chrom));
    return build === 38 ? `chr${name === 'MT' ? 'M' : name}` : name;
  };
  interface Site {
    chrom: number;
    pos: number;
    id: string;
    ref: string;
    alts: string[];
    gt: string;
  }
  const out: Site[] = [];
  for (const m of markers) {
    if (m.rsid === 0) continue;
    const row = rowOfRsid(index, m.rsid);
    const pos = row < 0 ? 0 : build === 37 ? index.pos37[row] : index.pos38[row];
    const placed = pos > 0;
    const knownRef = placed && index.ref[row] !== 0;
    const noCall = m.genotype === '--';
    let letters = noCall ? [] : m.genotype.split('');
    if ((!placed && ids === 'none') || (!knownRef && noCall)) continue;
    let ref: string;
    const alts: string[] = [];
    if (knownRef) {
      ref = ALLELE_LETTERS[index.ref[row]];
      const alt = index.alt[row] ? ALLELE_LETTERS[index.alt[row]] : '';
      if (alt) alts.push(alt);
      // The strand: the one on which more of the marker's letters are the index's REF/ALT.
      // A tie keeps them as they are: a palindromic pair, or a third allele (T/A at a T>C
      // site is T>A on the forward strand, not A/T complemented).
      const pair = [...(m.alleles ?? m.genotype)];
      const onIndex = (ls: string[]) => ls.filter((l) => l === ref || l === alt).length;
      const complementable = [...pair, ...letters].every((l) => COMPLEMENT_LETTER[l]);
      if (complementable && onIndex(pair.map((l) => COMPLEMENT_LETTER[l])) > onIndex(pair))
        letters = letters.map((l) => COMPLEMENT_LETTER[l]);
    } else ref = letters[0];
    for (const l of letters) if (l !== ref && !alts.includes(l)) alts.push(l);
    const gt = noCall
      ? './.'
      : letters.map((l) => (l === ref ? 0 : alts.indexOf(l) + 1)).join(m.genotype.length > 1 ? '/' : '');
    const variant = !noCall && letters.some((l) => l !== ref);
    if (sites !== 'all' && !variant && !noCall && (sites === 'variants_only' || !knownRef)) continue;
    out.push({
      chrom: placed ? index.chrom[row] : m.chrom,
      pos: placed ? pos : m.pos,
      id: ids === 'rsid' ? `rs${m.rsid}` : '.',
      ref,
      alts,
      gt,
    });
  }
  out.sort((a, b) => a.chrom - b.chrom || a.pos - b.pos);
  const header = [
    '##fileformat=VCFv4.2',
    '##source=GATK HaplotypeCaller',
    ...(options.headerBuild === false
      ? []
      : [
          `##reference=${build === 38 ? 'GRCh38' : 'GRCh37'}`,
          `##contig=<ID=${contig(1)},length=${CHR1_LENGTH[build]}>`,
        ]),
    ...(sites === 'gvcf' ? ['##ALT=<ID=NON_REF,Description="Represents any possible alternative allele">'] : []),
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Read depth">',
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tSAMPLE1',
  ];
  const lines: string[] = [];
  for (let i = 0; i < out.length; i++) {
    const s = out[i];
    const gvcfRef = sites === 'gvcf' && s.gt.split('/').every((a) => a === '0');
    if (gvcfRef) {
      // One reference block from this REF/REF site up to just before the next site of the chromosome.
      const next = out[i + 1];
      const end = next && next.chrom === s.chrom ? next.pos - 1 : s.pos + 1000;
      lines.push(`${contig(s.chrom)}\t${s.pos}\t.\t${s.ref}\t<NON_REF>\t.\t.\tEND=${end}\tGT:DP\t0/0:30`);
      continue;
    }
    const alt = [...s.alts, ...(sites === 'gvcf' ? ['<NON_REF>'] : [])].join(',') || '.';
    lines.push(`${contig(s.chrom)}\t${s.pos}\t${s.id}\t${s.ref}\t${alt}\t50\tPASS\t.\tGT:DP\t${s.gt}:30`);
  }
  return [...header, ...lines].join('\n') + '\n';
}

/**
 * A whole-genome variants-only VCF of about `lines` data lines, in chunks of text (for
 * files of millions of lines): the markers as `sequencingVcf` writes them, among filler
 * variant sites (random SNVs, a tenth of them short indels, 0/1 or 1/1) spread over
 * chromosomes 1–22 and X in order, as a Nebula or Dante VCF lists some 4–5 million sites.
 * Filler rsIDs (with `ids: 'rsid'`) are drawn above the catalog's range. With
 * `sites: 'all'`, every marker has its line (REF/REF as 0/0) and a third of the filler
 * sites are 0/0 too: a file that lists every site it called.
 */
export function* wholeGenomeVcf(
  markers: Marker[],
  lines: number,
  seed: number,
  options: Pick<SequencingVcfOptions, 'build' | 'ids'> & { sites?: 'variants_only' | 'all' } = {},
): Generator<string> {
  const rand = rng(seed);
  const allSites = options.sites === 'all';
  const text = sequencingVcf(markers, { ...options, sites: allSites ? 'all' : 'variants_only' }).split('\n');
  text.pop();
  const header = text.filter((l) => l.startsWith('#'));
  // The markers' lines by contig, each with its position read once.
  const known = new Map<string, Array<{ pos: number; line: string }>>();
  for (const line of text) {
    if (line.startsWith('#')) continue;
    const chromEnd = line.indexOf('\t');
    const contig = line.slice(0, chromEnd);
    let lines = known.get(contig);
    if (!lines) known.set(contig, (lines = []));
    lines.push({ pos: Number(line.slice(chromEnd + 1, line.indexOf('\t', chromEnd + 1))), line });
  }
  yield header.join('\n') + '\n';
  const build = options.build ?? 38;
  const chroms = [...Array.from({ length: 22 }, (_, i) => i + 1), 23];
  const total = CHROM_WEIGHTS.slice(0, 23).reduce((a, b) => a + b, 0);
  const bases = 'ACGT';
  let k = 0;
  for (const chrom of chroms) {
    const name = chrom === 23 ? 'X' : String(chrom);
    const contig = build === 38 ? `chr${name}` : name;
    const here = (known.get(contig) ?? []).sort((a, b) => a.pos - b.pos);
    const n = Math.round((lines * CHROM_WEIGHTS[chrom - 1]) / total);
    const gap = Math.max(2, Math.floor(150_000_000 / Math.max(n, 1)));
    let pos = 10_000;
    let chunk: string[] = [];
    for (let i = 0; i < n; i++) {
      pos += 1 + Math.floor(rand() * gap);
      while (k < here.length && here[k].pos <= pos) chunk.push(here[k++].line);
      const ref = bases[Math.floor(rand() * 4)];
      let alt = bases[(bases.indexOf(ref) + 1 + Math.floor(rand() * 3)) % 4];
      if (rand() < 0.1) alt = ref + alt; // a short insertion
      const id = options.ids === 'none' ? '.' : `rs${2_000_000_000 + Math.floor(rand() * 1_000_000_000)}`;
      const r = rand();
      // All sites: a third of the filler sites called REF/REF as well.
      const gt = allSites ? (r < 0.3 ? '0/0' : r < 0.72 ? '0/1' : '1/1') : r < 0.6 ? '0/1' : '1/1';
      chunk.push(`${contig}\t${pos}\t${id}\t${ref}\t${alt}\t50\tPASS\tDP=30\tGT:DP\t${gt}:30`);
      if (chunk.length >= 20_000) {
        yield chunk.join('\n') + '\n';
        chunk = [];
      }
    }
    while (k < here.length) chunk.push(here[k++].line);
    k = 0;
    if (chunk.length > 0) yield chunk.join('\n') + '\n';
  }
}

/**
 * A single-sample VCF (sequencingVcf) made a VCF of two people: a relative first, who shares
 * the person's calls but for `differsAt` (REF/REF there), then the person, named "me".
 */
export function withRelativeSample(vcf: string, differsAt: string): string {
  return vcf
    .split('\n')
    .map((line) => {
      if (line.startsWith('#CHROM')) return line.replace(/\tSAMPLE1$/, '\trelative\tme');
      if (line === '' || line.startsWith('#')) return line;
      const fields = line.split('\t');
      const mine = fields[9];
      return [...fields.slice(0, 9), fields[2] === differsAt ? mine.replace(/^[^:]+/, '0/0') : mine, mine].join('\t');
    })
    .join('\n');
}
