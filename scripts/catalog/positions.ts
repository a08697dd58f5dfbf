/**
 * Writes resources/catalog/positions.bin (src/service/genotype/positions.ts): every marker
 * Traitscope uses — catalog traits, the ancestry panel, the single-variant findings and the
 * 1000 Genomes table for imports — with its GRCh37 and GRCh38 position and its REF/ALT on
 * the forward strand, so files that carry positions instead of rsIDs can be read.
 *
 * Sources, in order of trust (the first that places a marker wins for its build):
 *  - GRCh37 position, REF, ALT: the 1000 Genomes phase 3 extracts of impute.me
 *    (DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz, the UK Biobank semi-curated table's
 *    CHROM/POS/REF/ALT, the ethnicity PCA loadings), derived_1kg_freqs/hirisplex (REF/ALT)
 *    and aisnp (position only).
 *  - GRCh38 position and REF/ALT: PharmCAT's drug–gene definitions (alleles/*_translation),
 *    whose rsIDs are included as markers in use; then reference-alleles.tsv, the few markers
 *    Traitscope reports on whose REF/ALT no shared source gives, each with its dbSNP citation.
 *  - GRCh38 position: the NHGRI-EBI GWAS Catalog associations e87 (CHR_ID, CHR_POS; single
 *    rsID rows only).
 * The other build comes from the UCSC chain files (liftover.ts). A marker with no source
 * position, or whose position does not lift, is counted in the report.
 *
 * Indel markers keep their VCF-style REF/ALT and a window of known reference bases
 * (positions.ts; parse/indels.ts reads records against it): PharmCAT's first, whose HGVS
 * names give the 3'-most place of each indel, so the repeat it can shift within is known
 * (the bases from the left-aligned anchor to there repeat the inserted or deleted unit);
 * else the 1000 Genomes table's, whose window is REF alone. The other build gets the window
 * where its whole span lifts on the same strand, unbroken. A marker's ALTs keep the
 * definitions' order: a VCF record matched to its k-th allele is stored as code 8 + k
 * (encoding.ts), which the drug–gene caller reads against the same definitions.
 *
 * Also writes the chains themselves, main chromosomes only, as resources/catalog/liftover.bin
 * (src/service/genotype/liftover.ts): a position-only scoring file is lifted with them to the
 * build of the person's file it is matched against.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { alleleFromLetter } from '../../src/service/genotype/encoding.js';
import { encodeLiftover, LIFTOVER_FILE } from '../../src/service/genotype/liftover.js';
import { trimAlleles } from '../../src/service/genotype/parse/indels.js';
import {
  encodePositionIndex,
  POSITION_INDEX_FILE,
  SEVERAL_ALTS,
  type IndelAlleles,
  type PositionColumns,
} from '../../src/service/genotype/positions.js';
import { loadAncestryPanel } from '../../src/service/science/ancestry/index.js';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import { FINDING_GENES } from '../../src/service/science/findings.js';
import { KG_TABLE_FILE, type KgTableFile } from '../../src/service/science/kg-table.js';
import { liftPosition, mainChromosome, readChain, type Chain } from './liftover.js';
import { readTsv } from './read.js';

export interface PositionReport {
  markers: number;
  placed_grch37: number;
  placed_grch38: number;
  lifted_37_to_38: number;
  lifted_38_to_37: number;
  with_ref_alt: number;
  /** Of them, with REF/ALT from reference-alleles.tsv. */
  with_ref_alt_curated: number;
  /** Markers whose GRCh38 source position differs from their lifted GRCh37 one (the lift is kept). */
  grch38_source_disagrees_with_lift: number;
  /** Markers with no position in one build or both, by why. */
  unplaced: { no_source_position: number; did_not_lift_to_grch38: number; did_not_lift_to_grch37: number };
  /** Indel markers with expected REF/ALT sequences, by source and build. */
  indels: {
    markers: number;
    from_pharmcat: number;
    from_1000_genomes: number;
    with_alleles_grch37: number;
    with_alleles_grch38: number;
    /** Whose window reaches past REF over a repeat the alleles can shift within. */
    with_repeat_window: number;
    /** With several ALT alleles (UGT1A1's TA repeat), read as defined-allele codes (encoding.ts), and of them with alleles in both builds. */
    with_several_alts: number;
    with_several_alts_both_builds: number;
    /** PharmCAT indel positions without an rsID: not markers of the index. */
    pharmcat_without_rsid: number;
  };
  sources: string[];
}

/** An indel as a source gives it: its build, VCF-style alleles and known reference window. */
interface IndelSource {
  build: 37 | 38;
  chrom: string;
  pos: number;
  ref: string;
  alts: string[];
  window: string;
  source: 'pharmcat' | '1000_genomes';
}

interface Placed {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
}

const CHROM_CODE: Record<string, number> = { X: 23, Y: 24 };
const chromCode = (c: string) => CHROM_CODE[c] ?? Number(c);

interface PharmcatVariant {
  chromosome: string;
  position: number;
  rsid?: string | null;
  ref: string;
  alts: string[];
  chromosomeHgvsName: string;
  cpicToVcfAlleleMap?: Record<string, string>;
}

const isIndel = (ref: string, alts: readonly string[]) =>
  [ref, ...alts].every((a) => /^[ACGT]+$/.test(a)) && alts.some((a) => a.length !== ref.length);

/**
 * The reference bases known from a PharmCAT indel's (left-aligned) position on: REF, then as
 * far as its HGVS names place the indel 3'-most (HGVS shifts 3', VCF left), the unit it
 * inserts or deletes repeated. Each name gives the unit's length and the stretch's last base:
 * g.X_Ydel / g.X_Ydup: Y; g.X_Yins…: X; g.XUNIT[n]: X + (the reference's count) · |UNIT| − 1,
 * the reference's count being the one cpicToVcfAlleleMap maps to REF.
 */
function pharmcatWindow(v: PharmcatVariant): string {
  let known = v.ref;
  const events = v.alts.map((alt) => {
    const t = trimAlleles(v.position, v.ref, alt);
    const longer = t.ref.length > t.alt.length ? t.ref : t.alt;
    const shorter = t.ref.length > t.alt.length ? t.alt : t.ref;
    return t.pos === v.position && shorter.length === 1 && longer[0] === shorter ? longer.slice(1) : '';
  });
  for (const name of v.chromosomeHgvsName.split(/;\s*/)) {
    let unit: number;
    let last: number;
    let m: RegExpExecArray | null;
    if ((m = /^g\.(\d+)(?:_(\d+))?(?:del|dup)$/.exec(name))) {
      last = Number(m[2] ?? m[1]);
      unit = last - Number(m[1]) + 1;
    } else if ((m = /^g\.(\d+)_\d+ins([ACGT]+)$/.exec(name))) {
      last = Number(m[1]);
      unit = m[2].length;
    } else if ((m = /^g\.(\d+)([ACGT]+)\[\d+\]$/.exec(name))) {
      const repeat = m[2];
      const refCount = Object.entries(v.cpicToVcfAlleleMap ?? {}).find(([, vcf]) => vcf === v.ref)?.[0];
      const n = refCount ? /^([ACGT]+)\((\d+)\)$/.exec(refCount) : null;
      if (!n || n[1] !== repeat) continue;
      unit = repeat.length;
      last = Number(m[1]) + Number(n[2]) * unit - 1;
    } else continue;
    const event = events.find((e) => e.length > 0 && e.length % unit === 0 && (unit === e.length || /\[/.test(name)));
    if (!event || last <= v.position) continue;
    let w = v.ref[0];
    for (let p = v.position + 1; p <= last; p++) w += event[(p - v.position - 1) % unit];
    const shared = Math.min(w.length, known.length);
    // A stretch that contradicts REF (or another name's stretch) is not trusted: REF alone.
    if (w.slice(0, shared) !== known.slice(0, shared)) return v.ref;
    if (w.length > known.length) known = w;
  }
  return known;
}

/** Drug–gene defining positions with an rsID: PharmCAT's GRCh38 position and REF/ALT. */
function pharmcatVariants(data: string): Array<{ rsid: string; chrom: string; pos: string; ref: string; alt: string }> {
  const dir = join(data, 'pharmcat', 'alleles');
  const rows: Array<{ rsid: string; chrom: string; pos: string; ref: string; alt: string }> = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('_translation.json.gz'))
    .sort()) {
    const gene = JSON.parse(gunzipSync(readFileSync(join(dir, file))).toString('utf8')) as {
      variants: Array<{ chromosome: string; position: number; rsid?: string | null; ref: string; alts: string[] }>;
    };
    for (const v of gene.variants)
      if (v.rsid)
        rows.push({
          rsid: v.rsid,
          chrom: v.chromosome,
          pos: String(v.position),
          ref: v.ref,
          alt: v.alts.length === 1 ? v.alts[0] : '',
        });
  }
  return rows;
}

/** PharmCAT's indel positions with an rsID (GRCh38), and how many have none. */
function pharmcatIndels(data: string): { indels: Map<number, IndelSource>; withoutRsid: number } {
  const dir = join(data, 'pharmcat', 'alleles');
  const indels = new Map<number, IndelSource>();
  let withoutRsid = 0;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('_translation.json.gz'))
    .sort()) {
    const gene = JSON.parse(gunzipSync(readFileSync(join(dir, file))).toString('utf8')) as {
      variants: PharmcatVariant[];
    };
    for (const v of gene.variants) {
      if (!isIndel(v.ref, v.alts)) continue;
      const rs = v.rsid ? rsNumber(v.rsid) : null;
      const chrom = mainChromosome(v.chromosome);
      if (rs === null || chrom === null) {
        withoutRsid++;
        continue;
      }
      if (!indels.has(rs))
        indels.set(rs, {
          build: 38,
          chrom,
          pos: v.position,
          ref: v.ref,
          alts: v.alts,
          window: pharmcatWindow(v),
          source: 'pharmcat',
        });
    }
  }
  return { indels, withoutRsid };
}

/** The 1000 Genomes table's indels (GRCh37, left-aligned as the phase 3 release is): REF is the whole window. */
function kgIndel(
  rows: Map<number, IndelSource>,
  id: string,
  chrom: string,
  pos: string,
  ref: string,
  alt: string,
): void {
  const rs = rsNumber(id);
  const c = mainChromosome(chrom.trim());
  const alts = alt.split(',');
  if (rs === null || c === null || rows.has(rs) || !isIndel(ref, alts)) return;
  rows.set(rs, { build: 37, chrom: c, pos: Number(pos), ref, alts, window: ref, source: '1000_genomes' });
}

/** An indel source's window in `build` for a marker placed at `placedAt` there ("" when it does not carry over). */
function windowIn(build: 37 | 38, d: IndelSource, placedAt: number, chain: Chain): string {
  if (placedAt === 0) return '';
  if (d.build === build) return d.pos === placedAt ? d.window : '';
  const first = liftPosition(chain, d.chrom, d.pos);
  const last = liftPosition(chain, d.chrom, d.pos + d.window.length - 1);
  const unbroken =
    first &&
    last &&
    !first.reverse &&
    !last.reverse &&
    first.pos === placedAt &&
    last.pos - first.pos === d.window.length - 1;
  return unbroken ? d.window : '';
}

/** The rsIDs of every marker the app reads (from the resources just written) and the drug–gene positions. */
function markersInUse(out: string, drugGene: Array<{ rsid: string }>): Set<number> {
  const rsids = new Set<number>();
  for (const v of drugGene) {
    const rs = rsNumber(v.rsid);
    if (rs !== null) rsids.add(rs);
  }
  for (const t of readCatalogFile(out).traits) for (const r of t.markers.rsid) rsids.add(r);
  for (const r of loadAncestryPanel(out).rsid) rsids.add(r);
  for (const list of Object.values(FINDING_GENES)) for (const id of list) rsids.add(Number(id.slice(2)));
  const kg = JSON.parse(gunzipSync(readFileSync(join(out, KG_TABLE_FILE))).toString('utf8')) as KgTableFile;
  for (const r of kg.rsid) rsids.add(r);
  return rsids;
}

function rsNumber(id: string): number | null {
  const m = /^rs(\d+)$/.exec(id.trim());
  return m ? Number(m[1]) : null;
}

function addPlaced(map: Map<number, Placed>, id: string, chrom: string, pos: string, ref = '', alt = ''): void {
  const rs = rsNumber(id);
  const c = mainChromosome(chrom.trim());
  const p = Number(pos);
  if (rs === null || c === null || !Number.isInteger(p) || p <= 0 || map.has(rs)) return;
  const single = /^[ACGT]$/;
  const known = single.test(ref) && single.test(alt);
  map.set(rs, { chrom: c, pos: p, ref: known ? ref : '', alt: known ? alt : '' });
}

/** The curated REF/ALT table (rsid, chrom, pos_grch38, ref, alt, source): every row must cite its source. */
export const REFERENCE_ALLELES_FILE = join(import.meta.dirname, 'reference-alleles.tsv');

function curatedReferenceAlleles(): Array<{ rsid: string; chrom: string; pos: string; ref: string; alt: string }> {
  return readTsv(REFERENCE_ALLELES_FILE).map((r) => {
    if (!/^[ACGT]$/.test(r.ref) || !/^[ACGT]$/.test(r.alt) || !r.source?.trim())
      throw new Error(`reference-alleles.tsv: ${r.rsid} needs single-base ref and alt and a source`);
    return { rsid: r.rsid, chrom: r.chrom, pos: r.pos_grch38, ref: r.ref, alt: r.alt };
  });
}

export function writePositionIndex(data: string, out: string): PositionReport {
  const im = (f: string) => join(data, 'impute-me', f);
  const grch37 = new Map<number, Placed>();
  for (const r of readTsv(im('DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz')))
    addPlaced(grch37, r.rsid, r.chrom, r.pos_grch37, r.ref, r.alt);
  for (const r of readTsv(im('ukbiobank_2017-09-28_semi_curated_version_ukbiobank.tsv.gz')))
    addPlaced(grch37, r.SNP, r.CHROM, r.POS, r.REF, r.ALT);
  for (const r of readTsv(im('ethnicity_2017-04-03_pca_snp_loadings.tsv')))
    addPlaced(grch37, r.rowname, r.chr_name, r.chrom_start, r.ref, r.alt);
  for (const r of readTsv(join(data, 'derived_1kg_freqs', 'hirisplex_s_41snp_superpop_ALT_freqs.tsv')))
    addPlaced(grch37, r.rsid, r.chrom, r.pos_grch37, r.ref, r.alt);
  for (const r of readTsv(join(data, 'derived_1kg_freqs', 'aisnp_kidd_seldin_superpop_allele_freqs.tsv')))
    addPlaced(grch37, r.rsid, r.chrom, r.pos_grch37);
  const kgIndels = new Map<number, IndelSource>();
  for (const r of readTsv(im('DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz')))
    kgIndel(kgIndels, r.rsid, r.chrom, r.pos_grch37, r.ref, r.alt);
  const grch38 = new Map<number, Placed>();
  const drugGene = pharmcatVariants(data);
  for (const v of drugGene) addPlaced(grch38, v.rsid, v.chrom, v.pos, v.ref, v.alt);
  const curated = curatedReferenceAlleles();
  for (const v of curated) addPlaced(grch38, v.rsid, v.chrom, v.pos, v.ref, v.alt);
  const curatedAt = new Map(curated.map((v) => [v.rsid, `${v.chrom}:${v.pos}`]));
  for (const r of readTsv(im('gwas_catalog_v1.0-associations_e87_r2017-02-06.tsv.gz'))) {
    // A curated row is checked against the GWAS Catalog's position for the same rsID.
    const at = curatedAt.get(r.SNPS);
    if (at && r.CHR_POS && at !== `${r.CHR_ID}:${r.CHR_POS}`)
      throw new Error(`reference-alleles.tsv: ${r.SNPS} is at ${at}, the GWAS Catalog has ${r.CHR_ID}:${r.CHR_POS}`);
    addPlaced(grch38, r.SNPS, r.CHR_ID, r.CHR_POS);
  }

  const to38: Chain = readChain(join(data, 'liftover', 'hg19ToHg38.over.chain.gz'));
  const to37: Chain = readChain(join(data, 'liftover', 'hg38ToHg19.over.chain.gz'));
  const rsids = Uint32Array.from([...markersInUse(out, drugGene)].sort((a, b) => a - b));
  const n = rsids.length;
  const cols: PositionColumns = {
    rsid: rsids,
    pos37: new Uint32Array(n),
    pos38: new Uint32Array(n),
    chrom: new Uint8Array(n),
    ref: new Uint8Array(n),
    alt: new Uint8Array(n),
  };
  const report: PositionReport = {
    markers: n,
    placed_grch37: 0,
    placed_grch38: 0,
    lifted_37_to_38: 0,
    lifted_38_to_37: 0,
    with_ref_alt: 0,
    with_ref_alt_curated: 0,
    grch38_source_disagrees_with_lift: 0,
    unplaced: { no_source_position: 0, did_not_lift_to_grch38: 0, did_not_lift_to_grch37: 0 },
    indels: {
      markers: 0,
      from_pharmcat: 0,
      from_1000_genomes: 0,
      with_alleles_grch37: 0,
      with_alleles_grch38: 0,
      with_repeat_window: 0,
      with_several_alts: 0,
      with_several_alts_both_builds: 0,
      pharmcat_without_rsid: 0,
    },
    sources: [
      'GRCh37 position and REF/ALT: 1000 Genomes phase 3 extracts (impute.me DERIVED_1kg_phase3_superpop_ALT_AF_merged, UK Biobank semi-curated table, ethnicity PCA loadings; derived_1kg_freqs)',
      'GRCh38 position and REF/ALT: PharmCAT drug–gene definitions (alleles/*_translation.json)',
      'GRCh38 position and REF/ALT of markers no shared source gives them for: NCBI dbSNP Reference SNP reports (scripts/catalog/reference-alleles.tsv)',
      'GRCh38 position: NHGRI-EBI GWAS Catalog associations e87 (r2017-02-06)',
      'Other build: UCSC liftOver chains hg19ToHg38 / hg38ToHg19',
      'Indel REF/ALT and repeat windows: PharmCAT definitions (VCF alleles, HGVS names), else the 1000 Genomes table',
    ],
  };
  const curatedRsids = new Set(curated.map((v) => rsNumber(v.rsid)));
  const severalAlts = new Set(
    drugGene.filter((v) => v.alt === '' && /^[ACGT]$/.test(v.ref)).map((v) => rsNumber(v.rsid)),
  );
  const pharmcat = pharmcatIndels(data);
  report.indels.pharmcat_without_rsid = pharmcat.withoutRsid;
  const indels: IndelAlleles[] = [];
  for (let i = 0; i < n; i++) {
    const a = grch37.get(rsids[i]);
    const b = grch38.get(rsids[i]);
    if (!a && !b) {
      report.unplaced.no_source_position++;
      continue;
    }
    const chrom = (a ?? b)!.chrom;
    cols.chrom[i] = chromCode(chrom);
    let reverse = false;
    if (a) {
      cols.pos37[i] = a.pos;
      const l = liftPosition(to38, chrom, a.pos);
      if (l) {
        cols.pos38[i] = l.pos;
        reverse = l.reverse;
        report.lifted_37_to_38++;
        if (b && (b.chrom !== chrom || b.pos !== l.pos)) report.grch38_source_disagrees_with_lift++;
      } else if (b && b.chrom === chrom) cols.pos38[i] = b.pos;
      else report.unplaced.did_not_lift_to_grch38++;
      // REF/ALT are GRCh37 forward-strand; a GRCh38 inversion would change them, so keep
      // them only where both builds read the same strand.
      if (a.ref && !reverse) {
        cols.ref[i] = alleleFromLetter(a.ref);
        cols.alt[i] = alleleFromLetter(a.alt);
        report.with_ref_alt++;
      }
    } else if (b) {
      cols.pos38[i] = b.pos;
      const l = liftPosition(to37, chrom, b.pos);
      if (l) {
        cols.pos37[i] = l.pos;
        report.lifted_38_to_37++;
      } else report.unplaced.did_not_lift_to_grch37++;
      // PharmCAT's REF/ALT are GRCh38 forward-strand: kept where GRCh37 reads the same strand.
      if (b.ref && l && !l.reverse) {
        cols.ref[i] = alleleFromLetter(b.ref);
        cols.alt[i] = alleleFromLetter(b.alt);
        report.with_ref_alt++;
        if (curatedRsids.has(rsids[i])) report.with_ref_alt_curated++;
      }
    }
    if (cols.ref[i] === 0 && severalAlts.has(rsids[i])) cols.alt[i] = SEVERAL_ALTS;
    if (cols.pos37[i] > 0) report.placed_grch37++;
    if (cols.pos38[i] > 0) report.placed_grch38++;
    const d = pharmcat.indels.get(rsids[i]) ?? kgIndels.get(rsids[i]);
    if (d && d.chrom === chrom) {
      const window37 = windowIn(37, d, cols.pos37[i], to37);
      const window38 = windowIn(38, d, cols.pos38[i], to38);
      if (window37 || window38) {
        indels.push({ row: i, ref: d.ref, alts: d.alts, window37, window38 });
        report.indels.markers++;
        if (d.source === 'pharmcat') report.indels.from_pharmcat++;
        else report.indels.from_1000_genomes++;
        if (window37) report.indels.with_alleles_grch37++;
        if (window38) report.indels.with_alleles_grch38++;
        if (d.window.length > d.ref.length) report.indels.with_repeat_window++;
        if (d.alts.length > 1) report.indels.with_several_alts++;
        if (d.alts.length > 1 && window37 && window38) report.indels.with_several_alts_both_builds++;
      }
    }
  }
  writeFileSync(join(out, POSITION_INDEX_FILE), encodePositionIndex(cols, indels));
  writeFileSync(join(out, LIFTOVER_FILE), encodeLiftover(to38, to37));
  return report;
}

/**
 * Writes the index and records its counts under "positions" in build-report.json (written
 * just before by build-catalog.ts). Also runs alone, on the resources already built:
 *   npx tsx scripts/catalog/positions.ts [--data <dir>] [--out <resources dir>]
 */
export function writePositionIndexWithReport(data: string, out: string): PositionReport {
  const report = writePositionIndex(data, out);
  const file = join(out, 'catalog', 'build-report.json');
  const build = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  build.positions = report;
  writeFileSync(file, JSON.stringify(build, null, 1) + '\n');
  return report;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]) : fallback;
  };
  const root = resolve(import.meta.dirname, '..', '..');
  const report = writePositionIndexWithReport(
    arg('--data', resolve(root, '..', 'shared', 'data')),
    arg('--out', join(root, 'resources')),
  );
  console.log(`positions: ${JSON.stringify(report)}`);
}
