/**
 * Genome build (GRCh36/hg18, GRCh37/hg19, GRCh38) of the positions in a file: from its
 * header when it says so, otherwise from where a handful of common chip markers sit.
 *
 * Marker positions, per build, and where each comes from (each was read from a file in
 * ../shared/data):
 *  - GRCh36 (hg18): impute-me hairColour/SNPs_to_analyze.txt, column "Pos", which the
 *    impute.me source and the data README document as hg18 positions.
 *  - GRCh37: impute-me DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz, "pos_grch37"
 *    (1000 Genomes phase 3).
 *  - GRCh38: NHGRI-EBI GWAS Catalog associations e87 (r2017-02-06; Ensembl 87 mapping,
 *    GRCh38), column CHR_POS, as shipped in impute-me AllDiseases.
 * A position of 0 means "no cited position for that build".
 */
import type { Genotype } from '../types.js';
import { findRsid } from '../encoding.js';

export type Build = 36 | 37 | 38;

interface BuildMarker {
  rsid: number;
  chrom: number;
  /** Positions in GRCh36, GRCh37, GRCh38. */
  pos: [number, number, number];
}

export const BUILD_MARKERS: readonly BuildMarker[] = [
  { rsid: 12913832, chrom: 15, pos: [26039213, 28365618, 28120472] }, // HERC2
  { rsid: 4778138, chrom: 15, pos: [26009415, 28335820, 28090674] }, // OCA2
  { rsid: 16891982, chrom: 5, pos: [33987450, 33951693, 33951588] }, // SLC45A2
  { rsid: 12896399, chrom: 14, pos: [91843416, 92773663, 92307319] }, // SLC24A4
  { rsid: 12931267, chrom: 16, pos: [88346233, 89818732, 89752324] }, // MC1R region
  { rsid: 11648785, chrom: 16, pos: [88612062, 90084561, 90018153] }, // MC1R region
  { rsid: 619865, chrom: 20, pos: [33331111, 33867697, 35279894] }, // ASIP region
  { rsid: 7412, chrom: 19, pos: [0, 45412079, 44908822] }, // APOE
  { rsid: 429358, chrom: 19, pos: [0, 45411941, 44908684] }, // APOE
  { rsid: 1801133, chrom: 1, pos: [0, 11856378, 11796321] }, // MTHFR
  { rsid: 4680, chrom: 22, pos: [0, 19951271, 19963748] }, // COMT
  { rsid: 1426654, chrom: 15, pos: [0, 48426484, 48134287] }, // SLC24A5
  { rsid: 9939609, chrom: 16, pos: [0, 53820527, 53786615] }, // FTO
  { rsid: 7903146, chrom: 10, pos: [0, 114758349, 112998590] }, // TCF7L2
  { rsid: 6025, chrom: 1, pos: [0, 169519049, 169549811] }, // F5
  { rsid: 2187668, chrom: 6, pos: [0, 32605884, 32638107] }, // HLA-DQA1
  { rsid: 1800562, chrom: 6, pos: [0, 26093141, 26092913] }, // HFE
];

const BUILDS: Build[] = [36, 37, 38];

/**
 * Build from the positions of known markers, or null when they do not agree clearly or fewer
 * than `minChecked` of them are in the file.
 */
export function buildFromPositions(g: Genotype, minChecked = 1): Build | null {
  const matches = [0, 0, 0];
  let checked = 0;
  for (const m of BUILD_MARKERS) {
    const i = findRsid(g.rsids, m.rsid);
    if (i < 0) continue;
    const p = g.positions[i];
    if (p === 0) continue;
    if (g.chroms[i] !== 0 && g.chroms[i] !== m.chrom) continue;
    checked++;
    for (let b = 0; b < 3; b++) if (m.pos[b] === p) matches[b]++;
  }
  if (checked === 0 || checked < minChecked) return null;
  let best = -1;
  for (let b = 0; b < 3; b++) if (best < 0 || matches[b] > matches[best]) best = b;
  const unique = matches.filter((x) => x === matches[best]).length === 1;
  if (!unique || matches[best] === 0 || matches[best] * 3 < checked * 2) return null;
  return BUILDS[best];
}

/** chr1 length in each assembly (GRC assembly statistics), as VCF ##contig lines state it. */
const CHR1_LENGTH: Record<string, Build> = { '247249719': 36, '249250621': 37, '248956422': 38 };

const ASSEMBLY_NAME = '(hg18|hg19|hg38|grch3[678])';
const BUILD_OF_NAME: Record<string, Build> = { hg18: 36, hg19: 37, hg38: 38, grch36: 36, grch37: 37, grch38: 38 };

/**
 * Build named in header text ("build 37", "GRCh38", "hg19", "b37", a VCF chr1 contig length),
 * or null. A VCF's contig lengths describe its positions and come first; then the target of
 * a liftover (a lifted file keeps the original's ##reference line: CrossMap adds
 * ##targetRefGenome, and chain files are named "hg19ToHg38"); then the first name given.
 */
export function buildFromHeader(text: string): Build | null {
  const t = text.toLowerCase();
  const contig = /##contig=<id=(?:chr1|1|nc_000001\.\d+),[^>]*length=(\d+)/.exec(t);
  if (contig && CHR1_LENGTH[contig[1]]) return CHR1_LENGTH[contig[1]];
  const target =
    new RegExp(`##targetrefgenome=[^\\n]*?${ASSEMBLY_NAME}`).exec(t)?.[1] ??
    new RegExp(`${ASSEMBLY_NAME}[._-]?to[._-]?${ASSEMBLY_NAME}`).exec(t)?.[2];
  if (target) return BUILD_OF_NAME[target];
  const patterns: Array<[RegExp, (m: RegExpMatchArray) => Build | null]> = [
    [/grch(3[678])/, (m) => Number(m[1]) as Build],
    [/build[ _:=-]*(3[678])(?!\d)/, (m) => Number(m[1]) as Build],
    [/\bhg(18|19|38)\b/, (m) => ({ '18': 36, '19': 37, '38': 38 })[m[1]] as Build],
    [/ncbi[ _-]?36/, () => 36],
    [/\b(b37|hs37d5|human_g1k_v37)\b/, () => 37],
    [/\b(b38|hs38dh?)\b/, () => 38],
    // The Broad's references, as GATK VCFs name them: assembly19 is b37, assembly38 is hg38.
    [/homo_sapiens_assembly(19|38)\b/, (m) => (m[1] === '19' ? 37 : 38)],
  ];
  let best: { at: number; build: Build } | null = null;
  for (const [re, pick] of patterns) {
    const m = re.exec(t);
    if (!m) continue;
    const build = pick(m);
    if (build !== null && (best === null || (m.index ?? 0) < best.at)) best = { at: m.index ?? 0, build };
  }
  return best?.build ?? null;
}
