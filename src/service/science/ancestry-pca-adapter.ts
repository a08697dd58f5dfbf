/**
 * Temporary adapter: the PCA nearest-neighbour estimate in the AncestryInference shape,
 * until the likelihood/admixture model (docs/ancestry.md) replaces it.
 */
import type { Genotype } from '../genotype/types.js';
import { ANCESTRY_MIN_MARKERS, inferAncestryWith, type AncestryModel } from './ancestry.js';
import type { AncestryInference, Population } from './types.js';

const POPS: Population[] = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'];

export function pcaInference(model: AncestryModel, g: Genotype): AncestryInference {
  const est = inferAncestryWith(model, g);
  const zero = Object.fromEntries(POPS.map((p) => [p, 0])) as Record<Population, number>;
  if (!est) {
    return {
      method: 'PCA nearest neighbours (impute.me model)',
      best: null,
      posterior: zero,
      proportions: zero,
      proportions_se: null,
      markers_used: 0,
      aisnps_used: 0,
      confidence: 0,
      admixed: false,
      sufficient: false,
      reason: `Your file holds fewer than ${ANCESTRY_MIN_MARKERS} of the ancestry model's markers.`,
    };
  }
  return {
    method: 'PCA nearest neighbours (impute.me model)',
    best: est.population,
    posterior: est.proportions,
    proportions: est.proportions,
    proportions_se: null,
    markers_used: est.markers_used,
    aisnps_used: 0,
    confidence: est.proportions[est.population],
    admixed: false,
    sufficient: true,
    reason: null,
  };
}
