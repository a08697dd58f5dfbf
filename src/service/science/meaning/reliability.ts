/**
 * How reliable a score is for this person, from their ancestry and the study's population
 * (docs/science.md, "What a result means"). Grounded in Ding et al. 2023 (Nature, PMID
 * 37198491): a score's accuracy falls with the person's genetic distance from the people it
 * was built in (r = −0.95 over 84 traits); relative to Europeans, people of African, East
 * Asian and South Asian ancestry keep about 24 %, 37 % and 51 % of its predictive power.
 * Nearly all of the catalog's studies, and UK Biobank's round-1 analyses, are of people of
 * European ancestry.
 */
import { POPULATIONS, type Population } from '../../../shared/populations.js';
import type { ReferencePopulation } from '../types.js';

export const PORTABILITY_SOURCE = 'Ding et al. 2023, Nature (PMID 37198491)';
/** Share of the predictive power kept relative to Europeans; none published there for admixed Americans. */
const POWER_KEPT: Partial<Record<Population, number>> = { EUR: 1, AFR: 0.24, EAS: 0.37, SAS: 0.51 };
const NAMES: Record<Population, string> = {
  EUR: 'European',
  AMR: 'admixed American',
  AFR: 'African',
  EAS: 'East Asian',
  SAS: 'South Asian',
};
/** At least this European share counts as the studies' own population. */
const EUROPEAN_SHARE = 0.9;

export interface Reliability {
  text: string;
  /** Absolute figures are less certain for this person (ancestry far from the studies', or unknown). */
  less_certain: boolean;
  /** Expected share of the score's power kept (1 = as in Europeans), or null when no figure applies. */
  power_kept: number | null;
}

/** The person's ancestry shares: the estimate from the file when there is one, else the reference's weights. */
function ancestryShares(ref: ReferencePopulation): Record<Population, number> {
  return (ref.ancestry?.sufficient ? ref.ancestry.proportions : null) ?? ref.weights;
}

/**
 * Per reference (one object for all the traits of a scoring call) and study population (a
 * handful of sentences): the same few texts serve every result of the call.
 */
const known = new WeakMap<ReferencePopulation, Map<string, Reliability>>();

export function reliabilityFor(ref: ReferencePopulation, studyPopulation: string): Reliability {
  let byStudy = known.get(ref);
  if (!byStudy) known.set(ref, (byStudy = new Map<string, Reliability>()));
  let r = byStudy.get(studyPopulation);
  if (!r) byStudy.set(studyPopulation, (r = reliabilityOf(ref, studyPopulation)));
  return r;
}

function reliabilityOf(ref: ReferencePopulation, studyPopulation: string): Reliability {
  const q = ancestryShares(ref);
  const described = POPULATIONS.filter((p) => q[p] >= 0.05)
    .sort((a, b) => q[b] - q[a])
    .map((p) => `${Math.round(100 * q[p])} % ${NAMES[p]}`)
    .join(', ');
  if (ref.source === 'assumed')
    return {
      text: `Your ancestry could not be estimated from the file, so a European reference was assumed; ${studyPopulation}. If your ancestry is not European, the score predicts less well for you (${PORTABILITY_SOURCE}) and the absolute figures are less certain.`,
      less_certain: true,
      power_kept: null,
    };
  if (q.EUR >= EUROPEAN_SHARE)
    return {
      text: `${capitalize(studyPopulation)}, like your ancestry (${described}): this is where such scores predict best, though still modestly.`,
      less_certain: false,
      power_kept: 1,
    };
  let kept = 0;
  let covered = 0;
  for (const p of POPULATIONS) {
    const f = POWER_KEPT[p];
    if (f !== undefined) {
      kept += q[p] * f;
      covered += q[p];
    }
  }
  // A figure only when the populations with a published figure make up nearly all of the ancestry.
  const power = covered >= 0.9 ? kept / covered : null;
  const figure =
    power === null
      ? 'no single figure applies to your mix of ancestries'
      : `for your ancestry mix that suggests roughly ${Math.round(100 * power)} % of the predictive power it has in Europeans`;
  return {
    text: `Your ancestry (${described}) differs from the people this score was built in: ${studyPopulation}. Scores predict less well the further a person's ancestry is from the study's (r = −0.95 between genetic distance and accuracy; relative to Europeans about 24 % of the predictive power in African, 37 % in East Asian and 51 % in South Asian ancestry: ${PORTABILITY_SOURCE}); ${figure}. The absolute figures are less certain for you.`,
    less_certain: true,
    power_kept: power,
  };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
