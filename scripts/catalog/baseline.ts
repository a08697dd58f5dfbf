/**
 * What each trait's score can mean in absolute terms (docs/science.md, "What a result
 * means"): the scale of its weights and, where a citable source gives one, the trait's
 * frequency. Two sources:
 * - UK Biobank traits: the cohort's case share, N.cases / (N.cases + N.controls), from the
 *   impute.me overview of the Neale lab's round-1 analyses (whose weights are changes in the
 *   probability of answering yes, from linear models of the 0/1 answer);
 * - GWAS disease traits: the curated table `disease-frequencies.tsv` (lifetime risk or
 *   prevalence, by sex and super-population where published), every row with its PMID.
 * Nothing is estimated here: a trait without a source keeps an empty list and its results
 * stay relative.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { POPULATIONS, type Population } from '../../src/shared/populations.js';
import type { BaselineFrequency, CatalogTrait, TraitBaseline } from '../../src/service/science/format.js';
import { num, readTsv, type Row } from './read.js';

export const FREQUENCY_TABLE = join(dirname(fileURLToPath(import.meta.url)), 'disease-frequencies.tsv');

/** The UK Biobank resource's own citation (Sudlow et al. 2015), the PMID impute.me gives every Neale lab trait. */
const UK_BIOBANK_PMID = '25826379';
export const UK_BIOBANK_LIMITS =
  'The frequency is the share of UK Biobank participants (volunteers aged 40–69 when recruited in 2006–2010, healthier than the UK population on average) who answered yes or had the diagnosis recorded; it is not a lifetime risk and may differ in other countries and ages.';

const MEASURES: ReadonlyArray<BaselineFrequency['measure']> = ['lifetime risk', 'prevalence', 'cohort share'];

/** Rows of the curated table by trait code, checked: every figure in (0, 1), a known sex, population and measure, and a PMID. */
export function readFrequencyTable(path = FREQUENCY_TABLE): Map<string, BaselineFrequency[]> {
  const byCode = new Map<string, BaselineFrequency[]>();
  readTsv(path).forEach((row, i) => {
    const where = `${path} line ${i + 2} (${row.code || 'no code'})`;
    const value = num(row.value);
    if (value === null || !(value > 0 && value < 1))
      throw new Error(`${where}: value must be a proportion between 0 and 1 (e.g. 0.12 for 12 %), not "${row.value}".`);
    if (!/^\d{6,9}$/.test(row.pmid ?? ''))
      throw new Error(`${where}: every frequency needs the PMID of the publication it comes from.`);
    if (!row.source?.trim()) throw new Error(`${where}: name the study and the people it measured in "source".`);
    if (row.sex !== '' && row.sex !== 'male' && row.sex !== 'female')
      throw new Error(`${where}: sex must be empty, "male" or "female".`);
    if (row.population !== '' && !POPULATIONS.includes(row.population as Population))
      throw new Error(`${where}: population must be empty or one of ${POPULATIONS.join(', ')}.`);
    if (!MEASURES.includes(row.measure as BaselineFrequency['measure']))
      throw new Error(`${where}: measure must be one of ${MEASURES.join(', ')}.`);
    if (!row.horizon?.trim()) throw new Error(`${where}: say when the figure applies in "horizon".`);
    const entry: BaselineFrequency = {
      value,
      sex: row.sex || null,
      population: (row.population || null) as Population | null,
      measure: row.measure as BaselineFrequency['measure'],
      horizon: row.horizon,
      source: row.source,
      pmid: row.pmid,
    };
    const list = byCode.get(row.code) ?? [];
    list.push(entry);
    byCode.set(row.code, list);
  });
  return byCode;
}

export interface CaseShare {
  cases: number;
  controls: number;
  share: number;
}

/**
 * The case share of each UK Biobank yes/no trait, by study id: the one reading of the overview's
 * N.cases and N.controls, for the baseline frequency here and for the scale of what a score
 * explains (information.ts). A trait without both counts above zero is not a yes/no trait.
 */
export function ukBiobankCaseShares(overview: Row[]): Map<string, CaseShare> {
  const out = new Map<string, CaseShare>();
  for (const o of overview) {
    const cases = num(o['N.cases']);
    const controls = num(o['N.controls']);
    if (cases === null || controls === null || !(cases > 0 && controls > 0)) continue;
    out.set(o.study_id, { cases, controls, share: cases / (cases + controls) });
  }
  return out;
}

/**
 * Case-control studies that report betas report log odds ratios; linear mixed models of 0/1
 * status in a biobank (BOLT-LMM) give betas on the probability scale, a hundred times smaller
 * (median |beta| ~0.002–0.004 in the catalog's such studies, against ≥ 0.02 for log odds).
 * Below this median a condition's betas are not read as log odds.
 */
const LOG_ODDS_FLOOR = 0.01;

function medianAbs(values: readonly number[]): number {
  const a = values.map(Math.abs).sort((x, y) => x - y);
  return a.length ? a[a.length >> 1] : 0;
}

/** Sets every trait's `baseline` (a null one only where the weights' scale is mixed); `shares` from ukBiobankCaseShares. */
export function attachBaselines(
  traits: CatalogTrait[],
  shares: Map<string, CaseShare>,
  tablePath = FREQUENCY_TABLE,
): void {
  const table = readFrequencyTable(tablePath);
  const known = new Set(traits.map((t) => t.code));
  for (const code of table.keys())
    if (!known.has(code))
      throw new Error(`${tablePath}: trait code "${code}" is not in the catalog. Fix the code or remove its rows.`);
  for (const t of traits) t.baseline = baselineOf(t, table, shares);
}

function baselineOf(
  t: CatalogTrait,
  table: Map<string, BaselineFrequency[]>,
  shares: Map<string, CaseShare>,
): TraitBaseline | null {
  if (t.weight_scale === 'mixed') return null;
  if (t.source.dataset === 'impute.me UK Biobank 2017-09-28') {
    const s = shares.get(t.source.study_id);
    if (!s) return { scale: 'trait_units', binary: false, frequencies: [], limits: null, scale_note: null };
    return {
      scale: 'probability',
      binary: true,
      frequencies: [
        {
          value: s.share,
          sex: null,
          population: null,
          measure: 'cohort share',
          horizon: 'UK Biobank participants aged 40–69',
          source: `UK Biobank (Neale lab round 1, 2017): ${s.cases.toLocaleString('en-US')} of ${(s.cases + s.controls).toLocaleString('en-US')} participants`,
          pmid: UK_BIOBANK_PMID,
        },
      ],
      limits: UK_BIOBANK_LIMITS,
      scale_note: null,
    };
  }
  const frequencies = table.get(t.code) ?? [];
  if (t.weight_scale === 'ln_or')
    return { scale: 'log_odds', binary: true, frequencies, limits: null, scale_note: null };
  const median = medianAbs(t.markers.weight);
  if (t.text_kind === 'condition' && median >= LOG_ODDS_FLOOR)
    return {
      scale: 'log_odds',
      binary: true,
      frequencies,
      limits: null,
      scale_note: `The source labels this study's effect sizes as betas; for a yes/no condition they are read as log odds ratios, as case-control studies report them (median ${median.toFixed(3)} per allele, an odds ratio of ${Math.exp(median).toFixed(3)}).`,
    };
  if (frequencies.length)
    throw new Error(
      `disease-frequencies.tsv: ${t.code} has frequencies but its weights are not log odds ratios (median |beta| ${median.toFixed(4)}: a linear model of 0/1 status in a cohort whose case share is not recorded); a frequency cannot be combined with them.`,
    );
  return { scale: 'trait_units', binary: t.text_kind === 'condition', frequencies: [], limits: null, scale_note: null };
}

/**
 * A featured yes/no condition must be answerable in absolute terms ("about N in 100 people
 * with a score like yours"), which needs a cited frequency on a scale its weights fit. One
 * without is left out of the featured set (it stays in the catalog, relative, saying why), so
 * the results people see first never rest on a rank alone. Returns what it unfeatured.
 */
export function unfeatureWithoutAbsoluteTerms(traits: CatalogTrait[]): Array<{ code: string; reason: string }> {
  const out: Array<{ code: string; reason: string }> = [];
  for (const t of traits) {
    if (!t.featured || t.text_kind !== 'condition' || !t.baseline?.binary || t.baseline.frequencies.length > 0)
      continue;
    t.featured = false;
    t.evidence.flags.push('featured_without_absolute_terms');
    out.push({
      code: t.code,
      reason:
        t.baseline.scale === 'log_odds'
          ? 'no cited lifetime risk or prevalence in disease-frequencies.tsv'
          : 'weights on the probability scale of a cohort whose case share the source does not give',
    });
  }
  return out;
}
