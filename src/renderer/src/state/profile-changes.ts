/**
 * Saving a profile change that moves results (ethnicity, a reference mixture, sex): the
 * service recomputes every stored result before it answers, the list reloads at once, and
 * the page says what changed, counted by comparing the results before and after.
 */
import { create } from 'zustand';
import type { Profile, ProfileInput } from '../../../shared/api.js';
import { POPULATION_NAMES } from '../lib/format.js';
import { changedResults, commonReference, mixtureText, recalculatedText, type Mixture } from '../lib/reference.js';
import { genotypeNow, hasUsableGenotype, readGenotype, updateProfile } from './profiles.js';
import { queryClient, queryKeys } from './query-client.js';
import { refreshResults, type ProfileTraits } from './traits.js';

/** Writable fields, with the additive reference_mixture when the profile has one. */
export type ProfileChange = ProfileInput & { reference_mixture?: Mixture | null };

export interface Recalculation {
  profileId: string;
  message: string;
}

interface ChangesState {
  /** The latest recalculation message per profile (shown until dismissed). */
  notices: Record<string, Recalculation | undefined>;
  dismiss: (profileId: string) => void;
}

export const useProfileChanges = create<ChangesState>((set, get) => ({
  notices: {},
  dismiss: (profileId) => set({ notices: { ...get().notices, [profileId]: undefined } }),
}));

/** Every writable field of a profile, so a PUT keeps what it does not change. */
export function profileInput(p: Profile): ProfileChange {
  const mixture = (p as Profile & { reference_mixture?: Mixture | null }).reference_mixture;
  return {
    first_name: p.first_name,
    last_name: p.last_name,
    gender: p.gender,
    age: p.age,
    ethnicity: p.ethnicity,
    ...(mixture !== undefined ? { reference_mixture: mixture } : {}),
  };
}

const movesResults = (before: Profile, input: ProfileChange) =>
  (input.ethnicity !== undefined && input.ethnicity !== before.ethnicity) ||
  (input.gender !== undefined && input.gender !== before.gender) ||
  ('reference_mixture' in input &&
    JSON.stringify(input.reference_mixture ?? null) !==
      JSON.stringify((before as { reference_mixture?: unknown }).reference_mixture ?? null));

/**
 * Saves the change (PUT with every field). When it moves results, reloads the profile's
 * results and genotype summary and records what changed; returns that message, if any.
 */
export async function saveProfileChange(profile: Profile, change: ProfileChange): Promise<Profile> {
  const input = { ...profileInput(profile), ...change };
  const moves = movesResults(profile, input);
  const before = queryClient.getQueryData<ProfileTraits>(queryKeys.results(profile.id))?.results ?? {};
  const saved = await updateProfile(profile.id, input);
  if (!moves || !hasUsableGenotype(genotypeNow(profile.id))) return saved;
  // Full results, findings and drug–gene results were read against the old reference: read
  // them again when shown.
  void queryClient.invalidateQueries({
    queryKey: queryKeys.profile(profile.id),
    predicate: (query) => query.queryKey[2] !== 'results' && query.queryKey[2] !== 'genotype',
  });
  const [lists] = await Promise.all([refreshResults(profile.id), readGenotype(profile.id).catch(() => undefined)]);
  const after = lists.results;
  const ref = commonReference(Object.values(after));
  const name = !ref
    ? 'new'
    : ref.population === 'MIXED'
      ? `mixed (${mixtureText(ref.weights)})`
      : (POPULATION_NAMES[ref.population] ?? ref.population);
  const message = recalculatedText(name, changedResults(before, after));
  useProfileChanges.setState({
    notices: { ...useProfileChanges.getState().notices, [profile.id]: { profileId: profile.id, message } },
  });
  return saved;
}
