/**
 * Builds Traitscope's trait catalog and ancestry model from ../shared/data.
 *
 *   npx tsx scripts/build-catalog.ts [--data <dir>] [--out <resources dir>]
 *
 * Writes (deterministically; same input, same bytes):
 *   resources/catalog/catalog.json.gz   every trait with its markers, weights and frequencies
 *   resources/catalog/traits.tsv        one line per trait, for review and diffs
 *   resources/catalog/build-report.json what was dropped and why, per trait and in total
 *   resources/ancestry/pca-model.json.gz the PCA ancestry model (loadings + reference samples)
 * Every number comes from the source tables; each trait records its study id and PMID.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildAncestryModel } from './catalog/ancestry.js';
import { FEATURED, type FeaturedDef } from './catalog/featured.js';
import { cleanStudy, MAX_UNUSABLE_SHARE, POPULATIONS, type CleanResult, type KgEntry } from './catalog/markers.js';
import { num, readTsv, type Row } from './catalog/read.js';
import { citation, formatCount } from './catalog/texts.js';
import { evidenceLabel } from '../src/service/science/evidence.js';
import { CATALOG_FORMAT, type CatalogFile, type CatalogSource, type CatalogTrait } from '../src/service/science/format.js';
import { traitRevision } from '../src/service/science/revision.js';
import { KG_TABLE_FILE, type KgTableFile } from '../src/service/science/kg-table.js';
import type { Connotation, PricingType } from '../src/service/science/types.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]) : fallback;
}

const DATA = arg('--data', resolve(repoRoot, '..', 'shared', 'data'));
const OUT = arg('--out', join(repoRoot, 'resources'));
const IM = join(DATA, 'impute-me');
const ALLDISEASES = 'impute.me AllDiseases 2021-01-28' as const;
const UKB = 'impute.me UK Biobank 2017-09-28' as const;

interface Dropped {
  code: string;
  study_id: string;
  reason: string;
  detail: string;
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function capitalize(s: string): string {
  return s.length ? s[0].toUpperCase() + s.slice(1) : s;
}

function yearOf(date: string | undefined): number | null {
  const m = /^(\d{4})/.exec(date ?? '');
  return m ? Number(m[1]) : null;
}

function loadKg(): Map<string, KgEntry> {
  const kg = new Map<string, KgEntry>();
  for (const r of readTsv(join(IM, 'DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz'))) {
    if (kg.has(r.rsid)) continue;
    kg.set(r.rsid, {
      chrom: r.chrom,
      pos: Number(r.pos_grch37),
      ref: r.ref.toUpperCase(),
      alt: r.alt.toUpperCase(),
      alt_af: POPULATIONS.map((p) => num(r[`${p}_AF`])),
    });
  }
  return kg;
}

function groupBy(rows: Row[], key: string): Map<string, Row[]> {
  const m = new Map<string, Row[]>();
  for (const r of rows) {
    const k = r[key];
    let list = m.get(k);
    if (!list) m.set(k, (list = []));
    list.push(r);
  }
  return m;
}

/** Why a cleaned study cannot become a trait, or null when it can. */
function unusableReason(c: CleanResult): { reason: string; detail: string } | null {
  const detail = `${c.markers.length} of ${c.source_markers} markers usable; dropped rows: ${JSON.stringify(c.dropped)}`;
  if (c.markers.length === 0) return { reason: 'no_usable_markers', detail };
  const unusable = 1 - c.markers.length / c.source_markers;
  if (unusable > MAX_UNUSABLE_SHARE) return { reason: 'mostly_unusable_markers', detail };
  if (c.scale_problem) return { reason: c.scale_problem.reason, detail: `${c.scale_problem.detail}; ${detail}` };
  if (c.weight_scale === 'mixed') return { reason: 'mixed_weight_scales', detail };
  return null;
}

interface TraitTexts {
  code: string;
  name: string;
  overview: string;
  connotation: Connotation;
  category: string;
  featured: boolean;
  pricing: PricingType;
  phrase: string;
  condition: boolean;
}

function makeTrait(
  t: TraitTexts,
  c: CleanResult,
  src: { dataset: CatalogSource['dataset']; study_id: string; pmid: string | null; trait: string; first_author: string | null; year: number | null; sample_size: number | null },
): CatalogTrait {
  const cite = citation(src.first_author, src.year, src.pmid, src.dataset === UKB ? 'impute.me (UK Biobank, Neale lab round 1)' : 'impute.me from the NHGRI-EBI GWAS Catalog');
  const markers = {
    rsid: c.markers.map((m) => m.rsid),
    effect: c.markers.map((m) => m.effect).join(''),
    other: c.markers.map((m) => m.other).join(''),
    weight: c.markers.map((m) => m.weight),
    freq: Object.fromEntries(POPULATIONS.map((p, i) => [p, c.markers.map((m) => m.freq[i])])) as CatalogTrait['markers']['freq'],
  };
  const trait: CatalogTrait = {
    code: t.code,
    name: t.name,
    overview: `${t.overview} Source: ${cite}`,
    connotation: t.connotation,
    category: t.category,
    featured: t.featured,
    default_pricing: t.pricing,
    quality: {
      markers: c.markers.length,
      sample_size: src.sample_size,
      publication_year: src.year,
      evidence: evidenceLabel(c.markers.length, src.sample_size),
      study_id: src.study_id,
      pmid: src.pmid,
      first_author: src.first_author,
      citation: cite,
    },
    revision: '',
    weight_scale: c.weight_scale === 'mixed' ? 'mixed' : c.weight_scale,
    text_kind: t.condition ? 'condition' : t.connotation === 'risky' ? 'risk_measure' : 'trait',
    phrase: t.phrase,
    source: {
      dataset: src.dataset,
      study_id: src.study_id,
      pmid: src.pmid,
      source_trait: src.trait,
      source_rows: c.source_rows,
      dropped: c.dropped,
    },
    markers,
  };
  trait.revision = traitRevision(trait);
  return trait;
}

const CATEGORY_BY_FLAG: Array<[string, string, Connotation]> = [
  ['disease', 'Disease', 'risky'],
  ['biomarker', 'Biomarker', 'neutral'],
  ['biometrics', 'Body measurement', 'neutral'],
  ['response', 'Treatment response', 'neutral'],
  ['other', 'Other', 'neutral'],
];

function generatedTexts(prefix: string, studyId: string, niceName: string, flags: Row, firstAuthor: string, year: number | null, sampleSize: number | null, markers: number, uniqueCodes: Set<string>): TraitTexts {
  const [, category, connotation] = CATEGORY_BY_FLAG.find(([flag]) => flags[flag] === '1' || flags[flag] === 'TRUE') ?? ['', 'Other', 'neutral' as Connotation];
  let code = `${prefix}_${slug(studyId)}`;
  for (let i = 2; uniqueCodes.has(code); i++) code = `${prefix}_${slug(studyId)}_${i}`;
  uniqueCodes.add(code);
  const who = firstAuthor ? `${firstAuthor} et al.` : 'one study';
  const people = sampleSize ? ` of about ${formatCount(sampleSize)} people` : '';
  const direction =
    connotation === 'risky'
      ? 'A higher score means more of the variants that were linked to a higher risk in that study.'
      : 'A higher score means more of the variants that were linked to a higher value or a higher chance of the trait in that study.';
  const overview =
    `A genetic score for “${niceName}”, built from ${markers} variant${markers === 1 ? '' : 's'} reported by ${who}${year ? ` (${year})` : ''} in a genome-wide association study${people}. ` +
    `${direction} Scores like this usually explain only a small part of a trait, and this one was generated automatically from published results without individual review.`;
  return {
    code,
    name: `${capitalize(niceName)} (${firstAuthor || 'unknown'}${year ? `, ${year}` : ''})`,
    overview,
    connotation,
    category,
    featured: false,
    pricing: 'basic',
    phrase: `“${niceName}”`,
    condition: connotation === 'risky',
  };
}

function main(): void {
  const t0 = Date.now();
  const kg = loadKg();
  const overview = new Map(readTsv(join(IM, 'AllDiseases_2021-01-28_trait_overview.tsv')).map((r) => [r.study_id, r]));
  const weights = groupBy(readTsv(join(IM, 'AllDiseases_2021-01-28_snp_weights.tsv.gz')), 'study_id');
  const traits: CatalogTrait[] = [];
  const dropped: Dropped[] = [];
  const codes = new Set<string>();
  const featuredStudies = new Set<string>();

  const allDiseasesSource = (studyId: string) => {
    const o = overview.get(studyId)!;
    return {
      dataset: ALLDISEASES,
      study_id: studyId,
      pmid: o.pmid || null,
      trait: o.trait,
      first_author: o.first_author || null,
      year: yearOf(o.publication_date),
      sample_size: num(o.sampleSize),
    };
  };

  // Featured traits.
  for (const def of FEATURED as FeaturedDef[]) {
    if (codes.has(def.code)) throw new Error(`featured code ${def.code} is used twice`);
    const rows = weights.get(def.study);
    if (!rows || !overview.has(def.study)) throw new Error(`featured trait ${def.code}: study ${def.study} not found in the source`);
    const c = cleanStudy(rows, kg);
    const bad = unusableReason(c);
    if (bad) {
      dropped.push({ code: def.code, study_id: def.study, ...bad });
      continue;
    }
    codes.add(def.code);
    featuredStudies.add(def.study);
    traits.push(makeTrait({ ...def, featured: true }, c, allDiseasesSource(def.study)));
  }
  const featuredCount = traits.length;

  // The full GWAS set: every study not flagged omit (featured studies appear once, as featured traits).
  for (const [studyId, o] of overview) {
    if (o.omit !== '0' || featuredStudies.has(studyId)) continue;
    const rows = weights.get(studyId);
    if (!rows) {
      dropped.push({ code: '', study_id: studyId, reason: 'no_rows_in_snp_weights', detail: 'study listed in the overview without SNP rows' });
      continue;
    }
    const c = cleanStudy(rows, kg);
    const bad = unusableReason(c);
    if (bad) {
      dropped.push({ code: '', study_id: studyId, ...bad });
      continue;
    }
    const src = allDiseasesSource(studyId);
    const texts = generatedTexts('gwas', studyId, o.niceName || o.trait, o, src.first_author ?? '', src.year, src.sample_size, c.markers.length, codes);
    traits.push(makeTrait(texts, c, src));
  }
  const gwasCount = traits.length - featuredCount;

  // The UK Biobank set (Neale lab round 1 via impute.me), when it passes the same checks.
  const ukbOverview = readTsv(join(IM, 'ukbiobank_2017-09-28_trait_overoverview.tsv.gz'));
  const ukbRows = groupBy(readTsv(join(IM, 'ukbiobank_2017-09-28_semi_curated_version_ukbiobank.tsv.gz')), 'study_id');
  for (const o of ukbOverview) {
    if (o.omit.toUpperCase() !== 'FALSE') continue;
    const rows = ukbRows.get(o.study_id);
    if (!rows) {
      dropped.push({ code: '', study_id: o.study_id, reason: 'no_rows_in_snp_weights', detail: 'UK Biobank trait without SNP rows' });
      continue;
    }
    const c = cleanStudy(rows, kg);
    const bad = unusableReason(c);
    if (bad) {
      dropped.push({ code: '', study_id: o.study_id, ...bad });
      continue;
    }
    const n = num(o['N.non.missing']);
    const flags: Row = { disease: o.diagnosis === 'TRUE' ? '1' : '0', other: '1' };
    const src = { dataset: UKB, study_id: o.study_id, pmid: o.PMID || null, trait: o.trait, first_author: 'Neale lab (UK Biobank)', year: 2017, sample_size: n };
    const texts = generatedTexts('ukb', o.study_id, o.niceName || o.trait, flags, 'UK Biobank (Neale lab)', 2017, n, c.markers.length, codes);
    texts.name = `${capitalize(o.niceName || o.trait)} (UK Biobank)`;
    traits.push(makeTrait(texts, c, src));
  }
  const ukbCount = traits.length - featuredCount - gwasCount;

  const catalog: CatalogFile = {
    format: CATALOG_FORMAT,
    generated_by: 'scripts/build-catalog.ts from ../shared/data (see resources/THIRD_PARTY_NOTICES.md)',
    populations: POPULATIONS,
    traits,
  };
  mkdirSync(join(OUT, 'catalog'), { recursive: true });
  writeFileSync(join(OUT, 'catalog', 'catalog.json.gz'), gzipSync(JSON.stringify(catalog), { level: 9 }));
  const tsv = ['code\tname\tcategory\tfeatured\tpricing\tconnotation\tmarkers\tsample_size\tyear\tevidence\tstudy_id\tpmid\trevision'];
  for (const t of traits) {
    const q = t.quality;
    tsv.push([t.code, t.name, t.category, t.featured, t.default_pricing, t.connotation, q.markers, q.sample_size ?? '', q.publication_year ?? '', q.evidence, q.study_id, q.pmid ?? '', t.revision].join('\t'));
  }
  writeFileSync(join(OUT, 'catalog', 'traits.tsv'), tsv.join('\n') + '\n');

  const byReason: Record<string, number> = {};
  for (const d of dropped) byReason[d.reason] = (byReason[d.reason] ?? 0) + 1;
  const markerDrops: Record<string, number> = {};
  for (const t of traits) for (const [k, v] of Object.entries(t.source.dropped)) markerDrops[k] = (markerDrops[k] ?? 0) + v;
  const report = {
    counts: { featured: featuredCount, gwas: gwasCount, ukbiobank: ukbCount, total: traits.length, markers: traits.reduce((a, t) => a + t.quality.markers, 0) },
    dropped_traits_by_reason: byReason,
    dropped_marker_rows_in_kept_traits_by_reason: markerDrops,
    dropped_traits: dropped,
  };
  writeFileSync(join(OUT, 'catalog', 'build-report.json'), JSON.stringify(report, null, 1) + '\n');

  // The 1000 Genomes frequency table, for PGS files imported by users (pgs-import.ts).
  const kgRows = [...kg.entries()]
    .map(([id, e]) => ({ rs: Number(id.slice(2)), e }))
    .filter(({ rs, e }) => Number.isInteger(rs) && rs > 0 && /^[ACGT]$/.test(e.ref) && /^[ACGT]$/.test(e.alt) && e.alt_af.every((x) => x !== null) && Number.isInteger(e.pos))
    .sort((a, b) => a.rs - b.rs);
  const kgTable: KgTableFile = {
    source: 'DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz (impute.me 1000 Genomes phase 3 extracts; GRCh37)',
    rsid: kgRows.map((r) => r.rs),
    chrom: kgRows.map((r) => r.e.chrom),
    pos: kgRows.map((r) => r.e.pos),
    ref: kgRows.map((r) => r.e.ref).join(''),
    alt: kgRows.map((r) => r.e.alt).join(''),
    alt_freq: Object.fromEntries(POPULATIONS.map((p, i) => [p, kgRows.map((r) => r.e.alt_af[i] as number)])) as KgTableFile['alt_freq'],
  };
  writeFileSync(join(OUT, 'catalog', KG_TABLE_FILE.split('/')[1]), gzipSync(JSON.stringify(kgTable), { level: 9 }));

  const model = buildAncestryModel(IM);
  mkdirSync(join(OUT, 'ancestry'), { recursive: true });
  writeFileSync(join(OUT, 'ancestry', 'pca-model.json.gz'), gzipSync(JSON.stringify(model), { level: 9 }));

  console.log(`catalog: ${featuredCount} featured, ${gwasCount} GWAS, ${ukbCount} UK Biobank traits (${report.counts.markers} markers)`);
  console.log(`dropped traits: ${dropped.length} ${JSON.stringify(byReason)}`);
  console.log(`dropped marker rows within kept traits: ${JSON.stringify(markerDrops)}`);
  console.log(`1000 Genomes table for PGS import: ${kgTable.rsid.length} SNPs`);
  console.log(`ancestry model: ${model.snps.rsid.length} SNPs, ${model.samples.super_pop.length} reference samples`);
  console.log(`done in ${Date.now() - t0} ms`);
}

main();
