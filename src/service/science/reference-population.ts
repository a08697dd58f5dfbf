/**
 * Which reference population a person's scores are compared with, and how it was chosen
 * (docs/science.md, "Reference population"; docs/ancestry.md for the estimate itself):
 *  1. ethnicity 1–5 in the profile: that 1000 Genomes super-population (source `ethnicity`);
 *  2. a mixed reference the person chose (ethnicity 0): built from their proportions (`ethnicity`);
 *  3. otherwise the estimate from the DNA file, when it is sufficient: the most likely
 *     super-population, or — when the person is admixed — a reference built from the
 *     estimated proportions, each marker's frequency Σ qₖ pₖ (`inferred`);
 *  4. otherwise European, said plainly (`assumed`): most studies behind the scores were done
 *     in people of European ancestry, and the person is asked to choose.
 */
import { POPULATION_NAMES } from '../../shared/populations.js';
import { POPULATION_ORDER } from './format.js';
import type { AncestryInference, AssessContext, Population, ReferencePopulation } from './types.js';

/** Components below this share are left out of a mixed reference (and the rest rescaled). */
export const MIXTURE_MIN_SHARE = 0.05;
export const ASSUMED_POPULATION: Population = 'EUR';

export function populationLabel(p: Population): string {
  return `${POPULATION_NAMES[p]} (${p})`;
}

function oneHot(p: Population): Record<Population, number> {
  return Object.fromEntries(POPULATION_ORDER.map((q) => [q, q === p ? 1 : 0])) as Record<Population, number>;
}

/** Proportions without the smallest components, rescaled to sum to 1. */
export function cleanMixture(q: Record<Population, number>): Record<Population, number> {
  const kept = POPULATION_ORDER.map((p) => (q[p] >= MIXTURE_MIN_SHARE ? q[p] : 0));
  const sum = kept.reduce((a, b) => a + b, 0);
  return Object.fromEntries(POPULATION_ORDER.map((p, i) => [p, sum > 0 ? kept[i] / sum : 0])) as Record<
    Population,
    number
  >;
}

function single(weights: Record<Population, number>): Population | null {
  const nonzero = POPULATION_ORDER.filter((p) => weights[p] > 0);
  return nonzero.length === 1 ? nonzero[0] : null;
}

export function mixtureLabel(weights: Record<Population, number>): string {
  const parts = POPULATION_ORDER.filter((p) => weights[p] > 0)
    .sort((a, b) => weights[b] - weights[a])
    .map((p) => `${Math.round(100 * weights[p])} % ${POPULATION_NAMES[p]} (${p})`);
  return `Mixed: ${parts.join(', ')}`;
}

function summary(a: AncestryInference | null): ReferencePopulation['ancestry'] {
  return a
    ? {
        best: a.best,
        proportions: a.proportions,
        markers_used: a.markers_used,
        confidence: a.confidence,
        admixed: a.admixed,
        sufficient: a.sufficient,
        proportions_se: a.proportions_se,
        mixture_frequency_error: a.mixture_frequency_error ?? null,
      }
    : null;
}

function referenceOf(
  weights: Record<Population, number>,
  source: ReferencePopulation['source'],
  reason: string,
  ancestry: AncestryInference | null,
): ReferencePopulation {
  const pop = single(weights);
  return {
    population: pop ?? 'MIXED',
    label: pop ? populationLabel(pop) : mixtureLabel(weights),
    source,
    weights,
    reason,
    ancestry: summary(ancestry),
  };
}

export function chooseReference(
  ctx: Pick<AssessContext, 'ethnicity' | 'mixture'>,
  ancestry: AncestryInference | null,
): ReferencePopulation {
  if (ctx.ethnicity >= 1 && ctx.ethnicity <= 5) {
    const p = POPULATION_ORDER[ctx.ethnicity - 1];
    return referenceOf(oneHot(p), 'ethnicity', `You chose ${populationLabel(p)} in the profile.`, ancestry);
  }
  if (ctx.mixture) {
    const w = cleanMixture(ctx.mixture);
    if (single(w) || POPULATION_ORDER.some((p) => w[p] > 0)) {
      return referenceOf(w, 'ethnicity', 'You chose this mixed reference in the profile.', ancestry);
    }
  }
  if (ancestry?.sufficient && ancestry.best) {
    const markers = `${ancestry.markers_used.toLocaleString('en-US')} ancestry markers in your file`;
    if (ancestry.admixed) {
      const w = cleanMixture(ancestry.proportions);
      const se = ancestry.proportions_se;
      const shares = se ? POPULATION_ORDER.filter((p) => w[p] > 0 && Number.isFinite(se[p])) : [];
      const uncertainty = shares.length
        ? ` The shares are uncertain by about ±${Math.round(100 * Math.max(...shares.map((p) => se![p])))} percentage points${ancestry.mixture_frequency_error ? `, the reference's allele frequencies by about ±${(100 * ancestry.mixture_frequency_error).toFixed(1)}` : ''}.`
        : '';
      return referenceOf(
        w,
        'inferred',
        `Estimated from ${markers}: your DNA looks admixed, so each result is compared with a reference mixed in the same proportions.${uncertainty}`,
        ancestry,
      );
    }
    return referenceOf(
      oneHot(ancestry.best),
      'inferred',
      `Estimated from ${markers} (confidence ${Math.round(100 * ancestry.confidence)} %).`,
      ancestry,
    );
  }
  const why = ancestry?.reason ?? 'Your file holds too few ancestry-informative markers to estimate your ancestry.';
  return referenceOf(
    oneHot(ASSUMED_POPULATION),
    'assumed',
    `${why} Results are compared with the ${populationLabel(ASSUMED_POPULATION)} reference, because most studies behind the scores were done in people of European ancestry. Choose your ancestry in the profile so results are compared with the right people.`,
    ancestry,
  );
}
