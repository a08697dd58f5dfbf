/**
 * What a result means for this person (docs/science.md, "What a result means"): the score's
 * effect on a known scale, the chance or expected value for people with this score where a
 * frequency or the share explained is known (else why it stays relative), and how reliable
 * that is for the person's ancestry. Every absolute figure rests on a frequency with its
 * source (the catalog's `baseline`, scripts/catalog/baseline.ts); nothing is filled in.
 */
import type { CompiledTrait } from '../catalog.js';
import type { BaselineFrequency, TraitBaseline } from '../format.js';
import type { MeaningFrequency, ReferencePopulation, ResultMeaning, SexInfo } from '../types.js';
import {
  discretize,
  expit,
  liabilityShareLogistic,
  logisticIntercept,
  observedShareProbability,
  probabilityRisk,
  type Discretized,
  type ScoreReference,
} from './model.js';
import { reliabilityFor } from './reliability.js';

export type { ScoreReference };

/**
 * The logistic intercept depends only on the distribution (a shipped table, or one built for
 * a trait, reference and set of markers), its mean and the frequency: solved once per
 * distribution object and frequency and kept as long as the distribution is. The
 * discretized cells are kept with it for a second frequency (sex-specific figures).
 */
const calibrations = new WeakMap<object, { d: Discretized; intercepts: Map<number, number> }>();

function interceptFor(key: object, ref: ScoreReference, frequency: number): number {
  let c = calibrations.get(key);
  if (!c) calibrations.set(key, (c = { d: discretize(ref), intercepts: new Map() }));
  let a = c.intercepts.get(frequency);
  if (a === undefined) c.intercepts.set(frequency, (a = logisticIntercept(c.d, frequency)));
  return a;
}

/** A proportion as a percentage, without binary-fraction noise (0.0014 → 0.14, not 0.13999…). */
function percentOf(proportion: number): number {
  return Math.round(proportion * 1e8) / 1e6;
}

/**
 * What every result of a trait shares for one sex and reference population: the frequency
 * chosen (chooseFrequency) and the risk model's text, worked out once per baseline (results
 * are stored, never mutated, so they may share these objects).
 */
interface FrequencyChoice {
  frequency: MeaningFrequency | null;
  /** The risk model's sentence for this frequency (log odds or probability scale). */
  model: string;
}
const choices = new WeakMap<TraitBaseline, Map<string, FrequencyChoice>>();

function frequencyChoice(
  baseline: TraitBaseline,
  sex: SexInfo['value'],
  population: ReferencePopulation['population'],
): FrequencyChoice {
  let byPerson = choices.get(baseline);
  if (!byPerson) choices.set(baseline, (byPerson = new Map<string, FrequencyChoice>()));
  const key = `${sex}:${population}`;
  let c = byPerson.get(key);
  if (!c) {
    const frequency = chooseFrequency(baseline.frequencies, sex, population);
    byPerson.set(key, (c = { frequency, model: frequency ? riskModel(baseline, frequency) : '' }));
  }
  return c;
}

function riskModel(baseline: TraitBaseline, frequency: MeaningFrequency): string {
  if (baseline.scale === 'probability')
    return `Linear probability model, as UK Biobank's round-1 analyses fitted it: chance = ${frequency.value.toFixed(1)} % + (score − reference mean), the weights being changes in the probability per allele; the ${frequency.value.toFixed(1)} % is the cohort's case share (${frequency.source}).`;
  return `Logistic model: chance = 1 / (1 + e^−(a + score)), with the study's log odds ratios as weights (markers independent) and the intercept a set so that the average chance over the reference distribution equals the ${frequency.measure} ${frequency.value.toFixed(1)} % (${frequency.source}, PMID ${frequency.pmid}).${baseline.scale_note ? ` ${baseline.scale_note}` : ''}`;
}

/** The frequency that applies to this person: their sex and reference population where the source splits by them. */
export function chooseFrequency(
  frequencies: readonly BaselineFrequency[],
  sex: SexInfo['value'],
  population: ReferencePopulation['population'],
): MeaningFrequency | null {
  if (!frequencies.length) return null;
  const forPopulation = frequencies.filter((f) => f.population !== null && f.population === population);
  const pool = forPopulation.length ? forPopulation : frequencies.filter((f) => f.population === null);
  if (!pool.length) return null;
  const both = pool.filter((f) => f.sex === null);
  const own = sex ? pool.filter((f) => f.sex === sex) : [];
  const pick = own[0] ?? both[0];
  if (pick) return { ...pick, value: percentOf(pick.value) };
  // Figures for men and for women only, and the sex is unknown: their mean, said so.
  const men = pool.find((f) => f.sex === 'male');
  const women = pool.find((f) => f.sex === 'female');
  if (!men || !women) return null;
  return {
    value: percentOf((men.value + women.value) / 2),
    source: `${men.source}: the mean of the figures for men and women, as your sex is not known`,
    pmid: men.pmid,
    measure: men.measure,
    horizon: men.horizon,
    sex: null,
    population: men.population,
  };
}

export interface MeaningInput {
  trait: CompiledTrait;
  score: number;
  /** The reference distribution, and the object it is cached under; null for raw-score-only results. */
  reference: (ScoreReference & { key: object }) | null;
  ref: ReferencePopulation;
  sex: SexInfo;
}

function studyPopulation(t: CompiledTrait): string {
  if (!t.baseline)
    return 'the population the score was built in is given by its source (for PGS Catalog scores, their catalog entry)';
  if (t.baseline.scale === 'probability')
    return "UK Biobank's round-1 analyses were of participants of British ancestry";
  return "the studies behind the catalog's scores were mostly of people of European ancestry (the source does not record this study's population)";
}

const percent = (x: number): number => Math.round(x * 1e4) / 1e4;

function inHundred(x: number): string {
  if (x > 99.5) return 'more than 99 in 100';
  if (x < 1) return x < 0.1 ? 'fewer than 1 in 1,000' : `about ${(10 * x).toFixed(0)} in 1,000`;
  return `about ${x >= 10 ? Math.round(x) : x.toFixed(1).replace(/\.0$/, '')} in 100`;
}

function difference(points: number): string {
  const a = Math.abs(points);
  if (a < 1)
    return `The score moves the chance by only ${a < 0.05 ? 'a tiny fraction of a' : `${a.toFixed(1)} of a`} percentage point: it tells you very little.`;
  return `That is ${a.toFixed(a < 10 ? 1 : 0)} percentage points ${points > 0 ? 'above' : 'below'} average.`;
}

export function resultMeaning(input: MeaningInput): ResultMeaning {
  const { trait: t, score, reference, ref, sex } = input;
  const baseline: TraitBaseline | null = t.baseline;
  const published = t.info.evidence.variance_explained?.value ?? null;
  const reliability = reliabilityFor(ref, studyPopulation(t));
  const base = {
    horizon: null,
    effect_per_sd: null,
    effect_scale: null,
    variance_explained: published,
    variance_explained_from_score: null,
    spread: null,
    odds_vs_average: null,
    frequency: null,
    reliability: reliability.text,
    less_certain: reliability.less_certain,
    limits: null,
  } satisfies Partial<ResultMeaning>;
  const relative = (reason: string, extra: Partial<ResultMeaning> = {}): ResultMeaning => ({
    kind: 'relative',
    yours: null,
    average: null,
    unit: null,
    ...base,
    ...extra,
    model: extra.model ?? 'None: the result is a rank in the reference population.',
    reason,
    summary: `Your result is a rank among the reference population only. ${reason}`,
  });
  if (!reference || !baseline)
    return relative(
      !reference
        ? 'This imported score has no reference distribution, so it has no rank or absolute meaning either.'
        : 'The scale of this score’s weights is not known (an imported score, or a study mixing scales), so it cannot be turned into a chance or a value.',
    );
  const { mean, sd } = reference;
  const name = t.info.name;
  if (baseline.scale === 'log_odds') {
    const fromScore = liabilityShareLogistic(sd);
    const oddsRatioPerSd = Math.exp(sd);
    const common = {
      effect_per_sd: oddsRatioPerSd,
      effect_scale: 'odds_ratio' as const,
      variance_explained: published ?? fromScore,
      variance_explained_from_score: fromScore,
      odds_vs_average: Math.exp(score - mean),
    };
    const { frequency, model } = frequencyChoice(baseline, sex.value, ref.population);
    if (!frequency)
      return relative(
        `No frequency of ${name.toLowerCase()} from a citable study is in Traitscope's table, so the score cannot be turned into a chance. Your odds are ${common.odds_vs_average.toFixed(2)} times those of a person with an average score (odds ratio ${oddsRatioPerSd.toFixed(2)} per standard deviation of the score).`,
        {
          ...common,
          model:
            'The weights are per-allele log odds ratios from the study; without a frequency only the odds relative to an average score can be given.',
        },
      );
    const a = interceptFor(reference.key, reference, frequency.value / 100);
    const yours = 100 * expit(a + score);
    const verb = frequency.measure === 'prevalence' ? 'have' : 'develop';
    return {
      kind: 'risk',
      yours: percent(yours),
      average: percent(frequency.value),
      unit: 'percent',
      ...base,
      ...common,
      horizon: frequency.horizon,
      frequency,
      limits: baseline.limits,
      model,
      reason: null,
      summary: `${capitalize(inHundred(yours))} people with a score like yours ${verb} ${name.toLowerCase()} (${frequency.measure}, ${frequency.horizon}), compared with ${inHundred(frequency.value)} on average. ${difference(yours - frequency.value)}`,
    };
  }
  if (baseline.scale === 'probability') {
    const { frequency, model } = frequencyChoice(baseline, sex.value, ref.population);
    if (!frequency) return relative('The UK Biobank source gives no case and control counts for this trait.');
    const k = frequency.value / 100;
    const fromScore = observedShareProbability(sd, k);
    const yours = 100 * probabilityRisk(k, score, mean);
    return {
      kind: 'risk',
      yours: percent(yours),
      average: percent(frequency.value),
      unit: 'percent',
      ...base,
      effect_per_sd: 100 * sd,
      effect_scale: 'percentage_points',
      variance_explained: published ?? fromScore,
      variance_explained_from_score: fromScore,
      horizon: frequency.horizon,
      frequency,
      limits: baseline.limits,
      model,
      reason: null,
      summary: `${capitalize(inHundred(yours))} UK Biobank participants with a score like yours answered yes or had it recorded (“${name}”), compared with ${inHundred(frequency.value)} of all participants. ${difference(yours - frequency.value)}`,
    };
  }
  if (baseline.binary)
    return relative(
      'The study gives its effects as betas of a linear model of yes/no status in a cohort whose share of cases is not recorded in the source, so they cannot be turned into a chance.',
    );
  // Measurements: the expected difference in trait SDs, from the share of the variance explained.
  if (published === null || !(published > 0) || published >= 1)
    return relative(
      "The study's unit is not recorded in the source and how much of the trait the score explains is not known, so no expected value can be given.",
    );
  const r = Math.sqrt(published);
  const z = sd > 0 ? (score - mean) / sd : 0;
  const delta = r * z;
  const spread = Math.sqrt(1 - published);
  return {
    kind: 'value',
    yours: Math.round(delta * 1e4) / 1e4,
    average: 0,
    unit: 'SD',
    ...base,
    effect_per_sd: r,
    effect_scale: 'trait_sd',
    spread,
    model: additiveModel(published),
    reason: null,
    summary:
      `People with a score like yours are on average ${Math.abs(delta).toFixed(2)} standard deviations ${delta >= 0 ? 'above' : 'below'} the average ${name.toLowerCase()}; among them it still varies with a spread of ${spread.toFixed(2)} standard deviations (1 for everyone). ${Math.abs(delta) < 0.1 ? 'That difference is small next to how much people differ anyway.' : ''}`.trim(),
  };
}

/** The additive model's sentence, per share explained (one per trait), made once. */
const additiveModels = new Map<number, string>();
function additiveModel(published: number): string {
  let text = additiveModels.get(published);
  if (text === undefined)
    additiveModels.set(
      published,
      (text = `Additive model on the trait's standard scale: expected difference from average = √R² × (score − mean) / sd, with R² = ${(100 * published).toFixed(2)} % the share of the trait's variance the score explains; people with the same score still vary with an SD of √(1 − R²).`),
    );
  return text;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
