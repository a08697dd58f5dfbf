/**
 * The trait catalog of the app's client and, per profile, each trait's status, the computed
 * results and full results opened in detail — read through the query cache and read again
 * when the service says they changed (state/service-events.ts) — plus the progress of the
 * service's background scoring, which only its events tell.
 */
import { isCancelledError, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { create } from 'zustand';
import type { ClientTrait, ProfileTrait, Trait, TraitStatus } from '../../../shared/api.js';
import { api, type CompactProfileTrait, type Tagged } from '../api/client.js';
import { phenotypeRows, type PhenotypeRow } from '../lib/results.js';
import { markStep } from '../lib/timeline.js';
import { hasUsableGenotype, isBusy, useGenotype } from './profiles.js';
import { errorText, queryClient, queryKeys } from './query-client.js';

export interface ProfileTraits {
  statuses: Record<string, TraitStatus>;
  /** Why a trait is unavailable (too few markers, not applicable to the profile's sex). */
  reasons: Record<string, NonNullable<ProfileTrait['status_reason']>>;
  /** Computed results (summary form), by trait code. */
  results: Record<string, ProfileTrait>;
  /** The lists as the service sent them, with their entity tags, to ask only for changes. */
  lists: { scored: Tagged<CompactProfileTrait[]>; statuses: Tagged<CompactProfileTrait[]> };
}

export interface ComputeProgress {
  done: number;
  total: number;
}

interface ScoringState {
  /** Traits being scored for a profile in the service's background, from its `job` events. */
  progress: Record<string, ComputeProgress | undefined>;
  set: (id: string, progress: ComputeProgress | undefined) => void;
}

export const useScoring = create<ScoringState>((set, get) => ({
  progress: {},
  set: (id, progress) => set({ progress: { ...get().progress, [id]: progress } }),
}));

const catalogQuery = { queryKey: queryKeys.catalog, queryFn: () => api.clientTraits() };

export function useCatalog(): { catalog: ClientTrait[] | null; error: string | null } {
  const { data, error } = useQuery(catalogQuery);
  return { catalog: data ?? null, error: errorText(error) };
}

export function loadCatalog(): Promise<ClientTrait[]> {
  return queryClient.ensureQueryData(catalogQuery);
}

/** The catalog's traits by code, for the compact lists; built again when the catalog changes. */
let traitIndex: { catalog: ClientTrait[]; byCode: Map<string, Trait> } | null = null;

function traitsByCode(catalog: ClientTrait[]): Map<string, Trait> {
  if (traitIndex?.catalog !== catalog)
    traitIndex = { catalog, byCode: new Map(catalog.map((c) => [c.trait.code, c.trait])) };
  return traitIndex.byCode;
}

/** The catalog by code; read again once when a list names a trait it lacks (a score imported since). */
async function catalogFor(codes: Iterable<string>): Promise<Map<string, Trait>> {
  let byCode = traitsByCode(await loadCatalog());
  for (const code of codes) {
    if (byCode.has(code)) continue;
    byCode = traitsByCode(await queryClient.fetchQuery({ ...catalogQuery, staleTime: 0 }));
    break;
  }
  return byCode;
}

/** A compact list item in the shape every view reads: the trait object instead of its code. */
function withTrait(item: CompactProfileTrait, trait: Trait): ProfileTrait {
  const { trait_code: _code, ...rest } = item;
  return { ...rest, trait };
}

/**
 * Reads a profile's two lists. The results first: the service builds one list at a time, and
 * these are what the person waits for; the statuses are asked for as the results begin to
 * arrive. With the tags of the lists held, an unchanged list costs a 304 and the same object
 * is kept, so nothing renders again.
 */
async function readProfileTraits(id: string): Promise<ProfileTraits> {
  const held = queryClient.getQueryData<ProfileTraits>(queryKeys.results(id));
  const scoredAnswer = await api.scoredTraits(id, held?.lists.scored);
  const statusAnswer = api.profileTraits(id, held?.lists.statuses);
  const scored = await scoredAnswer.read();
  const statuses = await (await statusAnswer).read();
  markStep('results-received', id);
  if (held && held.lists.scored === scored && held.lists.statuses === statuses) return held;
  const byCode = await catalogFor(statuses.body.map((t) => t.trait_code));
  const statusByCode: Record<string, TraitStatus> = {};
  const reasons: ProfileTraits['reasons'] = {};
  for (const t of statuses.body) {
    statusByCode[t.trait_code] = t.status;
    if (t.status_reason) reasons[t.trait_code] = t.status_reason;
  }
  const results: Record<string, ProfileTrait> = {};
  for (const t of scored.body) {
    const trait = byCode.get(t.trait_code);
    if (trait) results[t.trait_code] = withTrait(t, trait);
  }
  return { statuses: statusByCode, reasons, results, lists: { scored, statuses } };
}

const profileTraitsQuery = (id: string) => ({
  queryKey: queryKeys.results(id),
  queryFn: () => readProfileTraits(id),
  // A list read again unchanged is the same object already (304); comparing 2,000 items deeply
  // for nothing cost more than it saved.
  structuralSharing: false,
});

/**
 * A profile's lists, read once its genotype is ready and not while the service scores its
 * traits in the background: the service says both (the genotype's status, the scoring `job`
 * events), and a list read meanwhile would be empty or miss what is being stored.
 */
export function useProfileTraits(id: string): { data: ProfileTraits | undefined; error: string | null } {
  const genotype = useGenotype(id);
  const scoring = useScoring((s) => !!s.progress[id]);
  const ready = hasUsableGenotype(genotype) && !isBusy(genotype) && !scoring;
  const { data, error } = useQuery({ ...profileTraitsQuery(id), enabled: ready });
  return { data, error: errorText(error) };
}

/** The profile's lists: the cached ones, or read now (shared with a read under way). */
export function readResults(id: string): Promise<ProfileTraits> {
  return queryClient.fetchQuery(profileTraitsQuery(id));
}

/** Reads the profile's lists again now (after a change the page made itself). */
export async function refreshResults(id: string): Promise<ProfileTraits> {
  const fresh = { ...profileTraitsQuery(id), staleTime: 0 };
  try {
    return await queryClient.fetchQuery(fresh);
  } catch (err) {
    // An event of the service replaced this read with a newer one: that one's answer.
    if (isCancelledError(err)) return queryClient.fetchQuery(fresh);
    throw err;
  }
}

/** A profile's rows (lib/results.ts), built again only when its data changes. */
export function useProfileRows(id: string): PhenotypeRow[] {
  const { catalog } = useCatalog();
  const { data } = useProfileTraits(id);
  return useMemo(() => (catalog && data ? phenotypeRows(catalog, data) : []), [catalog, data]);
}

/** One full result (markers, distribution), read when opened and again after its results change. */
export function useAssessment(id: string, code: string) {
  const { data, error, isPending } = useQuery({
    queryKey: queryKeys.assessment(id, code),
    queryFn: () => api.assessment(id, code),
  });
  return { full: data, error: errorText(error), loading: isPending };
}

/** Asks the service for one result (PUT): it is computed if it was not, and cached. */
export async function computeOne(id: string, code: string): Promise<ProfileTrait> {
  const full = await api.computeTrait(id, code);
  queryClient.setQueryData(queryKeys.assessment(id, code), full);
  const lists = queryClient.getQueryData<ProfileTraits>(queryKeys.results(id));
  if (lists)
    queryClient.setQueryData<ProfileTraits>(queryKeys.results(id), {
      ...lists,
      statuses: { ...lists.statuses, [code]: full.status },
      results: full.status === 'computed' ? { ...lists.results, [code]: full } : lists.results,
    });
  return full;
}
