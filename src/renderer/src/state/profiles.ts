/**
 * The profiles and the state of each one's genotype file, read through the query cache
 * (state/query-client.ts) and kept current by the service's events (state/service-events.ts).
 * Which failures the person dismissed is the one thing here that only the window knows.
 */
import { hashKey, useQueries, useQuery } from '@tanstack/react-query';
import { create } from 'zustand';
import type { GenotypeMetadata, Profile, ProfileInput } from '../../../shared/api.js';
import { api } from '../api/client.js';
import { eventsConnected } from '../api/events.js';
import { errorText, queryClient, queryKeys } from './query-client.js';

export type GenotypeInfo = Extract<GenotypeMetadata, { metadata: unknown }>;

export function hasFile(g: GenotypeMetadata | undefined): g is GenotypeInfo {
  return !!g && 'metadata' in g;
}

export function isBusy(g: GenotypeMetadata | undefined): boolean {
  return hasFile(g) && (g.metadata.status === 'uploaded' || g.metadata.status === 'processing');
}

/** True when a genotype has been read at some point (its summary is present), even if a later file failed. */
export function hasUsableGenotype(g: GenotypeMetadata | undefined): boolean {
  return hasFile(g) && typeof g.metadata.snp_count === 'number';
}

const profilesQuery = { queryKey: queryKeys.profiles, queryFn: () => api.listProfiles() };
const genotypeQuery = (id: string) => ({ queryKey: queryKeys.genotype(id), queryFn: () => api.genotype(id) });

/** The profiles as last read (empty before the first read). */
export function profilesNow(): Profile[] {
  return queryClient.getQueryData<Profile[]>(queryKeys.profiles) ?? [];
}

/** A profile's genotype metadata as last read. */
export function genotypeNow(id: string): GenotypeMetadata | undefined {
  return queryClient.getQueryData<GenotypeMetadata>(queryKeys.genotype(id));
}

export function useProfileList(): { profiles: Profile[]; loaded: boolean; error: string | null } {
  const { data, error, isPending } = useQuery(profilesQuery);
  return { profiles: data ?? [], loaded: !isPending, error: errorText(error) };
}

export function useProfile(id: string | undefined): Profile | undefined {
  const { profiles } = useProfileList();
  return id ? profiles.find((p) => p.id === id) : undefined;
}

export function useGenotype(id: string): GenotypeMetadata | undefined {
  return useQuery(genotypeQuery(id)).data;
}

/** Every profile's genotype metadata, by profile id. */
export function useGenotypes(): Record<string, GenotypeMetadata | undefined> {
  const { profiles } = useProfileList();
  return useQueries({
    queries: profiles.map((p) => genotypeQuery(p.id)),
    combine: (results) => Object.fromEntries(profiles.map((p, i) => [p.id, results[i]?.data])),
  });
}

/** Reads the profiles and each one's genotype (the app's start, and "Try again"). */
export async function loadProfiles(): Promise<void> {
  const profiles = await queryClient.fetchQuery({ ...profilesQuery, staleTime: 0 });
  await Promise.all(
    profiles.map(async (p) => {
      const g = await queryClient.ensureQueryData(genotypeQuery(p.id)).catch(() => undefined);
      // Still being read: the events (or, without them, asking) bring its end to every screen.
      if (isBusy(g)) void genotypeWhenProcessed(p.id).catch(() => undefined);
    }),
  );
}

/**
 * Reads a profile's genotype metadata now. Callers at the same moment share one request, and
 * an answer never replaces a newer one (the cache keeps one read per key under way).
 */
export function readGenotype(id: string): Promise<GenotypeMetadata> {
  return queryClient.fetchQuery({ ...genotypeQuery(id), staleTime: 0 });
}

/** Records a profile the service has just created (the drop flow sends its next request first). */
export function addedProfile(profile: Profile): void {
  queryClient.setQueryData<Profile[]>(queryKeys.profiles, (list = []) => [...list, profile]);
  queryClient.setQueryData<GenotypeMetadata>(queryKeys.genotype(profile.id), {});
}

export async function createProfile(input: ProfileInput): Promise<Profile> {
  const profile = await api.createProfile(input);
  addedProfile(profile);
  return profile;
}

export async function updateProfile(id: string, input: ProfileInput): Promise<Profile> {
  const profile = await api.updateProfile(id, input);
  queryClient.setQueryData<Profile[]>(queryKeys.profiles, (list = []) => list.map((p) => (p.id === id ? profile : p)));
  return profile;
}

/** Deletes a profile; everything cached about it goes with it. */
export async function removeProfile(id: string): Promise<void> {
  await api.deleteProfile(id);
  queryClient.setQueryData<Profile[]>(queryKeys.profiles, (list = []) => list.filter((p) => p.id !== id));
  queryClient.removeQueries({ queryKey: queryKeys.profile(id) });
}

/** After "delete all data": nothing cached is true any more. */
export function forgetAllProfiles(): void {
  queryClient.removeQueries({ queryKey: ['profile'] });
  queryClient.setQueryData<Profile[]>(queryKeys.profiles, []);
  useFailureNotices.setState({ dismissed: {} });
}

/** How long to wait for the event stream to open before asking the service instead. */
const STREAM_GRACE_MS = 3_000;

/**
 * Resolves with the genotype metadata once processing of the profile's file has ended. The
 * service's `job` events refresh the cached metadata (state/service-events.ts); this waits
 * for that. Without the event stream it asks the service until processing ends.
 */
export function genotypeWhenProcessed(id: string): Promise<GenotypeMetadata> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (g: GenotypeMetadata) => {
      if (settled) return;
      settled = true;
      stop();
      clearTimeout(timer);
      resolve(g);
    };
    const genotypeHash = hashKey(queryKeys.genotype(id));
    // Listen first, then look: an end between the two cannot be missed.
    const stop = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      if (event.query.queryHash !== genotypeHash) return;
      const g = event.query.state.data as GenotypeMetadata;
      if (!isBusy(g)) finish(g);
    });
    const askUntilDone = async (delayMs: number) => {
      if (settled) return;
      const g = await readGenotype(id);
      if (!isBusy(g)) return finish(g);
      timer = setTimeout(() => void askUntilDone(Math.min(1500, delayMs * 1.3)).catch(fail), delayMs);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      stop();
      clearTimeout(timer);
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    readGenotype(id).then((g) => {
      if (!isBusy(g)) return finish(g);
      timer = setTimeout(() => {
        if (!eventsConnected()) void askUntilDone(400).catch(fail);
      }, STREAM_GRACE_MS);
    }, fail);
  });
}

interface FailureNotices {
  /** Failed uploads the person has acknowledged, by profile: the updated_at they dismissed. */
  dismissed: Record<string, string>;
  dismiss: (id: string) => void;
}

export const useFailureNotices = create<FailureNotices>((set, get) => ({
  dismissed: {},
  dismiss(id) {
    const g = genotypeNow(id);
    if (hasFile(g)) set({ dismissed: { ...get().dismissed, [id]: g.updated_at } });
  },
}));
