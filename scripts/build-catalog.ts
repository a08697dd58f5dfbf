/**
 * Builds Traitscope's trait catalog, its distribution tables and the ancestry panel from ../shared/data.
 *
 *   npx tsx scripts/build-catalog.ts [--data <dir>] [--out <resources dir>] [--compiled-only]
 *
 * Writes (deterministically; same input, same bytes):
 *   resources/catalog/catalog.json.gz   every trait with its markers, weights and frequencies
 *   resources/catalog/catalog.bin       the same catalog compiled for the engine's load
 *   resources/catalog/traits.tsv        one line per trait, for review and diffs
 *   resources/catalog/build-report.json what was dropped and why, per trait and in total
 * Every number comes from the source tables; each trait records its study id and PMID.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { writeAncestryPanel } from './catalog/ancestry-panel.js';
import { attachBaselines, ukBiobankCaseShares, unfeatureWithoutAbsoluteTerms } from './catalog/baseline.js';
import { writePositionIndexWithReport } from './catalog/positions.js';
import { checkCitations } from './catalog/curation.js';
import { buildDistributionTables } from './catalog/distributions.js';
import { FEATURED } from './catalog/featured.js';
import { CURATION_EXCEPTIONS, isExcepted, MAX_FEATURED_VARIANCE_LOSS } from './catalog/exceptions.js';
import { assignGroups, groupKeyOf, phenotypeKey } from './catalog/groups.js';
import {
  applyInformation,
  applyInformationFloor,
  headlinePower,
  heritabilityOf,
  FLOOR_OR98,
  HEADLINE_MEASURE,
  FLOOR_R2,
  type InformationInput,
  type PublishedFigure,
  type TraitInformation,
} from './catalog/information.js';
import { PALINDROME_MAF_LIMIT } from '../src/service/science/match.js';
import { POPULATIONS } from '../src/shared/populations.js';
import {
  cleanStudy,
  isPalindromic,
  MAX_UNUSABLE_SHARE,
  type CleanResult,
  type KgEntry,
  type ReportedByRsid,
  type ReportedFrequencies,
} from './catalog/markers.js';
import { num, readTsv, type Row } from './catalog/read.js';
import { sexOf } from './catalog/sex.js';
import { citation, formatCount } from './catalog/texts.js';
import { DOMINANT_MARKER_SHARE, evidenceLabel, GENOME_WIDE_P } from '../src/service/science/evidence.js';
import { COMPILED_CATALOG_FILE, encodeCompiledCatalog } from '../src/service/science/compiled-catalog.js';
import {
  CATALOG_FILE,
  CATALOG_FORMAT,
  type CatalogFile,
  type CatalogSource,
  type CatalogTrait,
} from '../src/service/science/format.js';
import { traitRevision } from '../src/service/science/revision.js';
import { readCatalogFile } from '../src/service/science/catalog.js';
import { KG_TABLE_FILE, type KgTableFile } from '../src/service/science/kg-table.js';
import type { Connotation, PricingType } from '../src/service/science/types.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]) : fallback;
}

const DATA = arg('--data', resolve(repoRoot, '..', 'shared', 'data'));
/** Reuse the shipped distribution tables (for quick iterations on texts; the engine ignores tables of other revisions). */
const SKIP_TABLES = process.argv.includes('--skip-tables');
/** Only recompute the distribution tables of the catalog already in --out. */
const TABLES_ONLY = process.argv.includes('--tables-only');
/** Only compile the catalog already in --out (catalog.json.gz → catalog.bin). */
const COMPILED_ONLY = process.argv.includes('--compiled-only');
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

/** Risk-allele frequencies the studies reported (GWAS Catalog 2017), for the strand of palindromic markers: by study and SNP, and by SNP over all studies. */
function loadReportedFrequencies(): { byStudy: ReportedFrequencies; byRsid: ReportedByRsid } {
  const byStudy: ReportedFrequencies = new Map();
  const byRsid: ReportedByRsid = new Map();
  for (const r of readTsv(join(IM, 'gwas_catalog_v1.0-associations_e87_r2017-02-06.tsv.gz'))) {
    const m = /^(rs\d+)-([ACGT])$/.exec((r['STRONGEST SNP-RISK ALLELE'] ?? '').trim());
    const f = num(r['RISK ALLELE FREQUENCY']);
    if (!m || f === null || !(f > 0 && f < 1)) continue;
    byStudy.set(`${r.PUBMEDID}:${m[1]}`, { allele: m[2], frequency: f });
    const list = byRsid.get(m[1]);
    if (list) list.push({ allele: m[2], frequency: f });
    else byRsid.set(m[1], [{ allele: m[2], frequency: f }]);
  }
  return { byStudy, byRsid };
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
  /** The phenotype as the source names it (groups, sex rules). */
  phenotype: string;
}

/** Share of the score's variance on its largest marker, worst over the populations. */
function topMarkerShare(c: CleanResult): number {
  let worst = 0;
  for (let p = 0; p < POPULATIONS.length; p++) {
    let total = 0;
    let top = 0;
    for (const m of c.markers) {
      const f = m.freq[p];
      const v = 2 * f * (1 - f) * m.weight * m.weight;
      total += v;
      top = Math.max(top, v);
    }
    if (total > 0) worst = Math.max(worst, top / total);
  }
  return worst;
}

function studyLabel(dataset: CatalogSource['dataset'], firstAuthor: string | null, year: number | null): string {
  if (dataset === UKB) return 'UK Biobank (Neale lab, 2017)';
  return `${firstAuthor ? `${firstAuthor} et al.` : 'Unknown authors'}${year ? ` ${year}` : ''}`;
}

function makeTrait(
  t: TraitTexts,
  c: CleanResult,
  src: {
    dataset: CatalogSource['dataset'];
    study_id: string;
    pmid: string | null;
    trait: string;
    first_author: string | null;
    year: number | null;
    sample_size: number | null;
  },
): CatalogTrait {
  const cite = citation(
    src.first_author,
    src.year,
    src.pmid,
    src.dataset === UKB ? 'impute.me (UK Biobank, Neale lab round 1)' : 'impute.me from the NHGRI-EBI GWAS Catalog',
  );
  const markers = {
    rsid: c.markers.map((m) => m.rsid),
    effect: c.markers.map((m) => m.effect).join(''),
    other: c.markers.map((m) => m.other).join(''),
    weight: c.markers.map((m) => m.weight),
    freq: Object.fromEntries(
      POPULATIONS.map((p, i) => [p, c.markers.map((m) => m.freq[i])]),
    ) as CatalogTrait['markers']['freq'],
    p: c.markers.map((m) => m.p),
    ...(c.markers.some((m) => m.chrom === 'X') ? { x: c.markers.flatMap((m, i) => (m.chrom === 'X' ? [i] : [])) } : {}),
  };
  const withP = c.markers.filter((m) => m.p !== null);
  const gws =
    withP.length === c.markers.length
      ? withP.filter((m) => m.p! <= GENOME_WIDE_P).length
      : withP.length
        ? withP.filter((m) => m.p! <= GENOME_WIDE_P).length
        : null;
  // Rounded as shipped, so the reasons quote the same share the UI shows beside them.
  const top = Math.round(topMarkerShare(c) * 1e4) / 1e4;
  const label = evidenceLabel({
    markers: c.markers.length,
    sampleSize: src.sample_size,
    genomeWideMarkers: gws,
    topMarkerShare: top,
    curated: t.featured,
    automatedBiobank: src.dataset === UKB,
    // What the score explains is known only once every trait is built (applyInformation);
    // relabelEvidence sets the final label then.
    varianceExplained: null,
  });
  const flags: string[] = [];
  if (top >= DOMINANT_MARKER_SHARE) flags.push('dominated_by_one_marker');
  if (gws === 0) flags.push('suggestive_only');
  if (src.dataset === UKB) flags.push('automated_biobank_analysis');
  const sex = sexOf(t.phenotype);
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
      evidence: label.label,
      study_id: src.study_id,
      pmid: src.pmid,
      first_author: src.first_author,
      citation: cite,
    },
    study_label: studyLabel(src.dataset, src.first_author, src.year),
    group: { code: t.code, name: t.name, size: 1, headline: true }, // set by assignGroups
    sex: sex?.sex ?? null,
    sex_reason: sex ? `Applies to ${sex.sex === 'male' ? 'males' : 'females'} only: ${sex.why}.` : null,
    evidence: {
      label: label.label,
      reasons: label.reasons,
      genome_wide_markers: gws,
      top_marker_share: Math.round(top * 1e4) / 1e4,
      curated: t.featured,
      flags,
      variance_explained: null, // set by applyInformation
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
  return trait;
}

const CATEGORY_BY_FLAG: Array<[string, string, Connotation]> = [
  ['disease', 'Disease', 'risky'],
  ['biomarker', 'Biomarker', 'neutral'],
  ['biometrics', 'Body measurement', 'neutral'],
  ['response', 'Treatment response', 'neutral'],
  ['other', 'Other', 'neutral'],
];

function generatedTexts(
  prefix: string,
  studyId: string,
  niceName: string,
  flags: Row,
  firstAuthor: string,
  year: number | null,
  sampleSize: number | null,
  markers: number,
  uniqueCodes: Set<string>,
): TraitTexts {
  const [, category, connotation] = CATEGORY_BY_FLAG.find(
    ([flag]) => flags[flag] === '1' || flags[flag] === 'TRUE',
  ) ?? ['', 'Other', 'neutral'];
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
    name: capitalize(cleanPhenotype(niceName)),
    overview,
    connotation,
    category,
    featured: false,
    pricing: 'basic',
    phrase: `“${cleanPhenotype(niceName)}”`,
    condition: connotation === 'risky',
    phenotype: niceName,
  };
}

/** The evidence label and its reasons, now that what the score explains is known. */
function relabelEvidence(t: CatalogTrait): void {
  const label = evidenceLabel({
    markers: t.markers.rsid.length,
    sampleSize: t.quality.sample_size,
    genomeWideMarkers: t.evidence.genome_wide_markers,
    topMarkerShare: t.evidence.top_marker_share,
    curated: t.featured,
    automatedBiobank: t.source.dataset === UKB,
    varianceExplained: t.evidence.variance_explained?.value ?? null,
  });
  t.evidence.label = label.label;
  t.evidence.reasons = label.reasons;
  t.quality.evidence = label.label;
}

/** A phenotype name for people: without "[PMID …]" tags the source adds to tell studies apart. */
function cleanPhenotype(name: string): string {
  return name
    .replace(/\s*\[[^\]]*\]\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What the source says the known variants explain, where it cites a PMID for it (impute.me's GWAS-ROC estimates are not published figures). */
function publishedVarianceExplained(o: Row): PublishedFigure | null {
  const value = num(o.known_heritability);
  const source = (o.known_heritability_pmid ?? '').trim();
  if (value === null || !(value > 0 && value < 1) || !/^\d{6,9}$/.test(source)) return null;
  return { value, pmid: source };
}

/**
 * Every curation rule applied, with counts per rule for the build report, and the
 * post-conditions the catalog must meet: a violation stops the build.
 */
function qualityChecks(
  traits: CatalogTrait[],
  cleaned: Map<string, CleanResult>,
  citations: ReturnType<typeof checkCitations>,
  dropped: Dropped[],
  grouping: ReturnType<typeof assignGroups>,
) {
  const violations: string[] = [];
  const sum = (f: (c: CleanResult) => number) => [...cleaned.values()].reduce((a, c) => a + f(c), 0);
  const count = (f: (t: CatalogTrait) => boolean) => traits.filter(f).length;
  const byLabel: Record<string, number> = {};
  for (const t of traits) byLabel[t.evidence.label] = (byLabel[t.evidence.label] ?? 0) + 1;
  const codes = new Set<string>();
  for (const t of traits) {
    if (codes.has(t.code)) violations.push(`${t.code}: code used twice`);
    codes.add(t.code);
    const m = t.markers;
    for (let i = 0; i < m.rsid.length; i++) {
      if (!Number.isFinite(m.weight[i])) violations.push(`${t.code}: rs${m.rsid[i]} has weight ${m.weight[i]}`);
      if (isPalindromic(m.effect[i], m.other[i])) {
        const mean = POPULATIONS.reduce((a, p) => a + m.freq[p][i], 0) / POPULATIONS.length;
        if (Math.min(mean, 1 - mean) >= PALINDROME_MAF_LIMIT)
          violations.push(`${t.code}: palindromic rs${m.rsid[i]} with effect-allele frequency ${mean.toFixed(2)} kept`);
      }
    }
    if (t.source.dataset !== UKB && !t.quality.pmid) violations.push(`${t.code}: no PMID`);
    if (
      t.source.dataset !== UKB &&
      t.quality.pmid &&
      /_(\d{6,9})$/.exec(t.source.study_id)?.[1] !== t.quality.pmid &&
      /_(\d{6,9})$/.test(t.source.study_id)
    ) {
      violations.push(`${t.code}: cites PMID ${t.quality.pmid} but its study is ${t.source.study_id}`);
    }
    if (/\(([^)]*\d{4}|[^)]*et al)\)|PMID/i.test(t.name))
      violations.push(`${t.code}: name "${t.name}" carries an author, year or PMID`);
  }
  const unverified = sum((c) => c.palindromic_unverified_kept);
  const markerCount = traits.reduce((a, t) => a + t.markers.rsid.length, 0);
  if (unverified > MAX_UNVERIFIED_PALINDROME_SHARE * markerCount)
    violations.push(
      `${unverified} palindromic markers kept without a strand check, more than ${MAX_UNVERIFIED_PALINDROME_SHARE * 100} % of ${markerCount}`,
    );
  const effects = ruleEffectsByTrait(traits, cleaned);
  for (const e of effects.violations) violations.push(e);
  const rules = {
    counts: {
      citation_pmid_corrected: citations.corrected.length,
      reverse_strand_rows_recovered: sum((c) => c.reverse_strand_recovered),
      palindromic_excluded_frequency_0_4_to_0_6: sum((c) => c.dropped.palindromic_ambiguous ?? 0),
      palindromic_kept: sum((c) => c.palindromic_kept),
      palindromic_strand_confirmed_by_reported_frequency: sum((c) => c.palindromic_confirmed),
      palindromic_strand_flipped_by_reported_frequency: sum((c) => c.palindromic_flipped),
      palindromic_strand_checked_by_other_studies: sum((c) => c.palindromic_checked_by_other_studies),
      palindromic_strand_unverifiable_dropped: sum((c) => c.dropped.palindromic_strand_unverifiable ?? 0),
      palindromic_strand_unverified_kept_featured_strong_loci: sum((c) => c.palindromic_unverified_kept),
      markers_dropped_weight_outliers: sum((c) => c.dropped.weight_outlier ?? 0),
      studies_dropped_logged_betas: dropped.filter((d) => d.reason === 'logged_effect_sizes_look_like_betas').length,
      studies_dropped_test_statistics: dropped.filter((d) => d.reason === 'effect_sizes_look_like_test_statistics')
        .length,
      marker_rows_odds_ratio_converted_to_log: sum((c) => c.rule_effects.odds_ratio_converted_to_log?.rows ?? 0),
      marker_rows_odds_ratio_like_kept_as_log_odds: sum(
        (c) => c.rule_effects.odds_ratio_like_kept_as_log_odds?.rows ?? 0,
      ),
      traits_dominated_by_one_marker: count((t) => t.evidence.flags.includes('dominated_by_one_marker')),
      traits_suggestive_only: count((t) => t.evidence.flags.includes('suggestive_only')),
      traits_male_only: count((t) => t.sex === 'male'),
      traits_female_only: count((t) => t.sex === 'female'),
      traits_with_x_chromosome_markers: count((t) => (t.markers.x?.length ?? 0) > 0),
      phenotype_groups: grouping.groups,
      phenotype_groups_with_several_studies: grouping.multi,
      phenotype_groups_headed_by_best_informed: grouping.best_informed,
      phenotype_groups_headed_by_exception: grouping.exceptions.length,
    },
    evidence_labels: byLabel,
    citation_corrections: citations.corrected,
    sex_specific: traits
      .filter((t) => t.sex)
      .map((t) => ({ code: t.code, sex: t.sex, phenotype: t.source.source_trait })),
    largest_groups: grouping.largest,
    headlines: {
      measure: HEADLINE_MEASURE,
      multi_study_groups: grouping.multi,
      headed_by_best_informed: grouping.best_informed,
      best_informed_share: grouping.best_informed_share,
      exceptions: grouping.exceptions,
    },
    variance_loss_limit_featured: MAX_FEATURED_VARIANCE_LOSS,
    variance_loss_exceptions: CURATION_EXCEPTIONS,
    effects_by_rule: effects.byRule,
    effects_by_trait: effects.byTrait,
  };
  return { violations, rules };
}

/** Score variance Σ 2pq·w² of a trait's kept markers (European frequencies, like the rule effects). */
function keptVariance(c: CleanResult): number {
  const eur = POPULATIONS.indexOf('EUR');
  return c.markers.reduce((a, m) => a + 2 * m.freq[eur] * (1 - m.freq[eur]) * m.weight * m.weight, 0);
}

/** At most this share of the catalog's markers may be palindromes kept without a strand check. */
const MAX_UNVERIFIED_PALINDROME_SHARE = 0.01;

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * What each rule removed or rescaled, by trait: rows and the share of the score's variance
 * (kept + dropped by any rule) the dropped rows carried. A featured trait losing more than
 * MAX_FEATURED_VARIANCE_LOSS to one rule stops the build unless curation-exceptions.json
 * documents why.
 */
function ruleEffectsByTrait(traits: CatalogTrait[], cleaned: Map<string, CleanResult>) {
  const violations: string[] = [];
  const byRule: Record<string, { traits: number; rows: number; featured_traits: number }> = {};
  const byTrait: Array<{
    code: string;
    featured: boolean;
    rules: Record<
      string,
      { action: string; rows: number; variance_share_lost: number; variance_before: number; variance_after: number }
    >;
  }> = [];
  for (const t of traits) {
    const c = cleaned.get(t.code);
    if (!c || Object.keys(c.rule_effects).length === 0) continue;
    const lostTotal = Object.values(c.rule_effects).reduce(
      (a, e) => a + (e.action === 'dropped' ? e.variance_before : 0),
      0,
    );
    const base = keptVariance(c) + lostTotal;
    const rules: (typeof byTrait)[number]['rules'] = {};
    for (const [rule, e] of Object.entries(c.rule_effects)) {
      const lost = e.action === 'dropped' ? e.variance_before : 0;
      const share = base > 0 ? lost / base : 0;
      rules[rule] = {
        action: e.action,
        rows: e.rows,
        variance_share_lost: round4(share),
        variance_before: Number(e.variance_before.toPrecision(4)),
        variance_after: Number(e.variance_after.toPrecision(4)),
      };
      const r = (byRule[rule] ??= { traits: 0, rows: 0, featured_traits: 0 });
      r.traits++;
      r.rows += e.rows;
      if (t.featured) r.featured_traits++;
      if (t.featured && share > MAX_FEATURED_VARIANCE_LOSS && !isExcepted(t.code, rule))
        violations.push(
          `${t.code}: rule ${rule} removes ${(share * 100).toFixed(1)} % of the score's variance (${e.rows} rows); fix the rule or document an exception in scripts/catalog/curation-exceptions.json`,
        );
    }
    byTrait.push({ code: t.code, featured: t.featured, rules });
  }
  return { violations, byRule, byTrait };
}

/** What the scores explain, by the build's own computation (docs/science.md, sections 6 and 7). */
function informationReport(
  traits: CatalogTrait[],
  info: Map<string, TraitInformation>,
  floor: ReturnType<typeof applyInformationFloor>,
) {
  const shown: Record<string, number> = {};
  const scales: Record<string, number> = {};
  for (const i of info.values()) {
    shown[i.shown] = (shown[i.shown] ?? 0) + 1;
    scales[i.scale] = (scales[i.scale] ?? 0) + 1;
  }
  const r = (x: number | null, d = 3) => (x === null ? null : Number(x.toPrecision(d)));
  const wasFeatured = new Set(floor.map((f) => f.code));
  return {
    floor: { quantitative_r2: FLOOR_R2, disease_or98: FLOOR_OR98 },
    scales,
    variance_explained_shown: shown,
    featured_below_floor_unfeatured: floor,
    featured: traits
      .filter((t) => t.featured || wasFeatured.has(t.code))
      .map((t) => {
        const i = info.get(t.code)!;
        const h = info.get(t.group.code)!;
        return {
          code: t.code,
          featured: t.featured,
          scale: i.scale,
          r2: r(i.r2),
          or98: r(i.or98, 4),
          headline: t.group.code,
          headline_r2: r(h.r2),
          headline_or98: r(h.or98, 4),
          variance_explained: t.evidence.variance_explained,
        };
      }),
  };
}

/** catalog.bin from the catalog.json.gz just written (compiled-catalog.ts), as the engine loads it. */
function writeCompiledCatalog(): void {
  const bytes = encodeCompiledCatalog(readCatalogFile(OUT), readFileSync(join(OUT, CATALOG_FILE)));
  writeFileSync(join(OUT, COMPILED_CATALOG_FILE), bytes);
  console.log(`compiled catalog: ${bytes.length} bytes`);
}

function main(): void {
  const t0 = Date.now();
  if (COMPILED_ONLY) return writeCompiledCatalog();
  if (TABLES_ONLY) {
    const tables = buildDistributionTables(readCatalogFile(OUT).traits, join(OUT, 'catalog'));
    console.log(
      `distribution tables: ${tables.tables} for ${tables.traits} traits (${tables.bytes} bytes); ${tables.exactAtRuntime} trait × population pairs exact at scoring time`,
    );
    return;
  }
  const kg = loadKg();
  const reported = loadReportedFrequencies();
  const overview = new Map(readTsv(join(IM, 'AllDiseases_2021-01-28_trait_overview.tsv')).map((r) => [r.study_id, r]));
  const weights = groupBy(readTsv(join(IM, 'AllDiseases_2021-01-28_snp_weights.tsv.gz')), 'study_id');
  const citations = checkCitations(overview, weights);
  if (citations.violations.length) throw new Error(`Citation check failed:\n  ${citations.violations.join('\n  ')}`);
  const traits: CatalogTrait[] = [];
  const dropped: Dropped[] = [];
  const codes = new Set<string>();
  const featuredStudies = new Set<string>();
  const cleaned = new Map<string, CleanResult>();
  const information = new Map<string, InformationInput>();

  const allDiseasesSource = (studyId: string) => {
    const o = overview.get(studyId)!;
    return {
      dataset: ALLDISEASES,
      study_id: studyId,
      pmid: citations.pmid.get(studyId) ?? null,
      trait: o.trait,
      first_author: o.first_author || null,
      year: yearOf(o.publication_date),
      sample_size: num(o.sampleSize),
    };
  };
  const allDiseasesInput = (studyId: string, condition: boolean, c: CleanResult): InformationInput => {
    const o = overview.get(studyId)!;
    return {
      scale: condition || o.disease === '1' || c.weight_scale === 'ln_or' ? 'log_odds' : 'quantitative',
      heritability: heritabilityOf(o.total_heritability),
      caseShare: null,
      published: publishedVarianceExplained(o),
      usableShare: c.markers.length / c.source_markers,
    };
  };

  // Featured traits.
  for (const def of FEATURED) {
    if (codes.has(def.code)) throw new Error(`featured code ${def.code} is used twice`);
    const rows = weights.get(def.study);
    if (!rows || !overview.has(def.study))
      throw new Error(`featured trait ${def.code}: study ${def.study} not found in the source`);
    const c = cleanStudy(rows, kg, reported.byStudy, reported.byRsid, true);
    const bad = unusableReason(c);
    if (bad) {
      dropped.push({ code: def.code, study_id: def.study, ...bad });
      continue;
    }
    codes.add(def.code);
    featuredStudies.add(def.study);
    cleaned.set(def.code, c);
    traits.push(
      makeTrait({ ...def, featured: true, phenotype: overview.get(def.study)!.trait }, c, allDiseasesSource(def.study)),
    );
    information.set(def.code, allDiseasesInput(def.study, def.condition, c));
  }
  const featuredCount = traits.length;

  // The full GWAS set: every study not flagged omit (featured studies appear once, as featured traits).
  for (const [studyId, o] of overview) {
    if (o.omit !== '0' || featuredStudies.has(studyId)) continue;
    const rows = weights.get(studyId);
    if (!rows) {
      dropped.push({
        code: '',
        study_id: studyId,
        reason: 'no_rows_in_snp_weights',
        detail: 'study listed in the overview without SNP rows',
      });
      continue;
    }
    const c = cleanStudy(rows, kg, reported.byStudy, reported.byRsid);
    const bad = unusableReason(c);
    if (bad) {
      dropped.push({ code: '', study_id: studyId, ...bad });
      continue;
    }
    const src = allDiseasesSource(studyId);
    const texts = generatedTexts(
      'gwas',
      studyId,
      o.niceName || o.trait,
      o,
      src.first_author ?? '',
      src.year,
      src.sample_size,
      c.markers.length,
      codes,
    );
    texts.phenotype = o.trait;
    cleaned.set(texts.code, c);
    traits.push(makeTrait(texts, c, src));
    information.set(texts.code, allDiseasesInput(studyId, texts.condition, c));
  }
  const gwasCount = traits.length - featuredCount;

  // The UK Biobank set (Neale lab round 1 via impute.me), when it passes the same checks.
  const ukbOverview = readTsv(join(IM, 'ukbiobank_2017-09-28_trait_overoverview.tsv.gz'));
  const ukbCaseShares = ukBiobankCaseShares(ukbOverview);
  const ukbRows = groupBy(readTsv(join(IM, 'ukbiobank_2017-09-28_semi_curated_version_ukbiobank.tsv.gz')), 'study_id');
  for (const o of ukbOverview) {
    if (o.omit.toUpperCase() !== 'FALSE') continue;
    const rows = ukbRows.get(o.study_id);
    if (!rows) {
      dropped.push({
        code: '',
        study_id: o.study_id,
        reason: 'no_rows_in_snp_weights',
        detail: 'UK Biobank trait without SNP rows',
      });
      continue;
    }
    const c = cleanStudy(rows, kg, reported.byStudy, reported.byRsid);
    const bad = unusableReason(c);
    if (bad) {
      dropped.push({ code: '', study_id: o.study_id, ...bad });
      continue;
    }
    const n = num(o['N.non.missing']);
    const flags: Row = { disease: o.diagnosis === 'TRUE' ? '1' : '0', other: '1' };
    const src = {
      dataset: UKB,
      study_id: o.study_id,
      pmid: o.PMID || null,
      trait: o.trait,
      first_author: 'Neale lab (UK Biobank)',
      year: 2017,
      sample_size: n,
    };
    const texts = generatedTexts(
      'ukb',
      o.study_id,
      o.niceName || o.trait,
      flags,
      'UK Biobank (Neale lab)',
      2017,
      n,
      c.markers.length,
      codes,
    );
    texts.phenotype = o.trait;
    cleaned.set(texts.code, c);
    traits.push(makeTrait(texts, c, src));
    const caseShare = ukbCaseShares.get(o.study_id)?.share ?? null;
    information.set(texts.code, {
      scale: caseShare !== null ? 'linear_probability' : 'quantitative',
      heritability: null,
      caseShare,
      published: null,
      usableShare: c.markers.length / c.source_markers,
    });
  }
  const ukbCount = traits.length - featuredCount - gwasCount;

  // Scale and frequency for absolute terms (scripts/catalog/baseline.ts).
  attachBaselines(traits, ukbCaseShares);

  // What each score explains; one answer per phenotype, headed by its best-informed study;
  // then every definition is final and gets its revision.
  const info = applyInformation(traits, information);
  for (const t of traits) relabelEvidence(t);
  const grouping = assignGroups(
    traits,
    (t) => groupKeyOf(phenotypeKey(t.source.source_trait)),
    (t) => headlinePower(t, info.get(t.code)!, information.get(t.code)!.caseShare),
  );
  const floor = applyInformationFloor(traits, info);
  const withoutAbsoluteTerms = unfeatureWithoutAbsoluteTerms(traits);
  for (const t of traits) t.revision = traitRevision(t);
  const qc = qualityChecks(traits, cleaned, citations, dropped, grouping);
  if (qc.violations.length) throw new Error(`Catalog QC failed:\n  ${qc.violations.join('\n  ')}`);

  const catalog: CatalogFile = {
    format: CATALOG_FORMAT,
    generated_by: 'scripts/build-catalog.ts from ../shared/data (see resources/THIRD_PARTY_NOTICES.md)',
    populations: POPULATIONS,
    traits,
  };
  mkdirSync(join(OUT, 'catalog'), { recursive: true });
  writeFileSync(join(OUT, CATALOG_FILE), gzipSync(JSON.stringify(catalog), { level: 9 }));
  writeCompiledCatalog();
  const tsv = [
    'code\tname\tcategory\tfeatured\tpricing\tconnotation\tmarkers\tsample_size\tyear\tevidence\tstudy_id\tpmid\trevision',
  ];
  for (const t of traits) {
    const q = t.quality;
    tsv.push(
      [
        t.code,
        t.name,
        t.category,
        t.featured,
        t.default_pricing,
        t.connotation,
        q.markers,
        q.sample_size ?? '',
        q.publication_year ?? '',
        q.evidence,
        q.study_id,
        q.pmid ?? '',
        t.revision,
      ].join('\t'),
    );
  }
  writeFileSync(join(OUT, 'catalog', 'traits.tsv'), tsv.join('\n') + '\n');

  const byReason: Record<string, number> = {};
  for (const d of dropped) byReason[d.reason] = (byReason[d.reason] ?? 0) + 1;
  const markerDrops: Record<string, number> = {};
  for (const t of traits)
    for (const [k, v] of Object.entries(t.source.dropped)) markerDrops[k] = (markerDrops[k] ?? 0) + v;
  const report = {
    counts: {
      featured_studies_built: featuredCount,
      featured: traits.filter((t) => t.featured).length,
      gwas: gwasCount,
      ukbiobank: ukbCount,
      total: traits.length,
      markers: traits.reduce((a, t) => a + t.quality.markers, 0),
    },
    rules: qc.rules,
    information: informationReport(traits, info, floor),
    featured_conditions_without_absolute_terms_unfeatured: withoutAbsoluteTerms,
    dropped_traits_by_reason: byReason,
    dropped_marker_rows_in_kept_traits_by_reason: markerDrops,
    dropped_traits: dropped,
  };
  writeFileSync(join(OUT, 'catalog', 'build-report.json'), JSON.stringify(report, null, 1) + '\n');
  console.log(`QC rules: ${JSON.stringify(qc.rules.counts)}`);

  if (!SKIP_TABLES) {
    const tables = buildDistributionTables(traits, join(OUT, 'catalog'));
    console.log(
      `distribution tables: ${tables.tables} for ${tables.traits} traits (${tables.bytes} bytes); ${tables.exactAtRuntime} trait × population pairs exact at scoring time`,
    );
  }

  // The 1000 Genomes frequency table, for PGS files imported by users (pgs-import.ts).
  const kgRows = [...kg.entries()]
    .map(([id, e]) => ({ rs: Number(id.slice(2)), e }))
    .filter(
      ({ rs, e }) =>
        Number.isInteger(rs) &&
        rs > 0 &&
        /^[ACGT]$/.test(e.ref) &&
        /^[ACGT]$/.test(e.alt) &&
        e.alt_af.every((x) => x !== null) &&
        Number.isInteger(e.pos),
    )
    .sort((a, b) => a.rs - b.rs);
  const kgTable: KgTableFile = {
    source: 'DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz (impute.me 1000 Genomes phase 3 extracts; GRCh37)',
    rsid: kgRows.map((r) => r.rs),
    chrom: kgRows.map((r) => r.e.chrom),
    pos: kgRows.map((r) => r.e.pos),
    ref: kgRows.map((r) => r.e.ref).join(''),
    alt: kgRows.map((r) => r.e.alt).join(''),
    alt_freq: Object.fromEntries(
      POPULATIONS.map((p, i) => [p, kgRows.map((r) => r.e.alt_af[i] as number)]),
    ) as KgTableFile['alt_freq'],
  };
  writeFileSync(join(OUT, 'catalog', KG_TABLE_FILE.split('/')[1]), gzipSync(JSON.stringify(kgTable), { level: 9 }));

  mkdirSync(join(OUT, 'ancestry'), { recursive: true });
  writeAncestryPanel(DATA, OUT);
  const positions = writePositionIndexWithReport(DATA, OUT);

  console.log(
    `catalog: ${featuredCount} featured, ${gwasCount} GWAS, ${ukbCount} UK Biobank traits (${report.counts.markers} markers)`,
  );
  console.log(`dropped traits: ${dropped.length} ${JSON.stringify(byReason)}`);
  console.log(`dropped marker rows within kept traits: ${JSON.stringify(markerDrops)}`);
  console.log(`1000 Genomes table for PGS import: ${kgTable.rsid.length} SNPs`);
  console.log(`positions in both builds: ${JSON.stringify(positions)}`);
  console.log(`done in ${Date.now() - t0} ms`);
}

main();
