/** The profiles and the state of each one's genotype file. */
import { create } from 'zustand';
import type { GenotypeMetadata, Profile, ProfileInput } from '../../../shared/api.js';
import { api } from '../api/client.js';

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

interface ProfilesState {
  profiles: Profile[];
  loaded: boolean;
  loadError: string | null;
  genotypes: Record<string, GenotypeMetadata | undefined>;
  /** Failed uploads the user has acknowledged, by profile: the updated_at they dismissed. */
  dismissedFailures: Record<string, string>;
  load: () => Promise<void>;
  create: (input: ProfileInput) => Promise<Profile>;
  /** Records a profile the service has just created (the drop flow sends its next request first). */
  added: (profile: Profile) => void;
  update: (id: string, input: ProfileInput) => Promise<Profile>;
  remove: (id: string) => Promise<void>;
  refreshGenotype: (id: string) => Promise<GenotypeMetadata>;
  /** Polls the genotype until processing ends; resolves with the final metadata. */
  watchProcessing: (id: string) => Promise<GenotypeMetadata>;
  dismissFailure: (id: string) => void;
  clear: () => void;
}

const watches = new Map<string, Promise<GenotypeMetadata>>();
const refreshes = new Map<string, Promise<GenotypeMetadata>>();
/**
 * Per profile: the number of the last genotype request sent, and of the last one whose answer
 * was kept. Answers can arrive out of order (the browser may hold a request for a free
 * connection): an older one, say "processing", must not replace a newer "failed", or the
 * page would wait for an end it has already been told of.
 */
const sent = new Map<string, number>();
const kept = new Map<string, number>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const useProfiles = create<ProfilesState>((set, get) => ({
  profiles: [],
  loaded: false,
  loadError: null,
  genotypes: {},
  dismissedFailures: {},

  async load() {
    try {
      const profiles = await api.listProfiles();
      set({ profiles, loaded: true, loadError: null });
      await Promise.all(
        profiles.map(async (p) => {
          const g = await get()
            .refreshGenotype(p.id)
            .catch(() => undefined);
          if (isBusy(g)) void get().watchProcessing(p.id);
        }),
      );
    } catch (err) {
      set({ loaded: true, loadError: (err as Error).message });
    }
  },

  async create(input) {
    const profile = await api.createProfile(input);
    get().added(profile);
    return profile;
  },

  added(profile) {
    set({ profiles: [...get().profiles, profile], genotypes: { ...get().genotypes, [profile.id]: {} } });
  },

  async update(id, input) {
    const profile = await api.updateProfile(id, input);
    set({ profiles: get().profiles.map((p) => (p.id === id ? profile : p)) });
    return profile;
  },

  async remove(id) {
    await api.deleteProfile(id);
    const genotypes = { ...get().genotypes };
    delete genotypes[id];
    set({ profiles: get().profiles.filter((p) => p.id !== id), genotypes });
  },

  refreshGenotype(id) {
    // Callers in the same moment (the drop flow and the app, both told that processing ended)
    // share one request; a later caller asks again, as the state may have changed since.
    const asked = refreshes.get(id);
    if (asked) return asked;
    const number = (sent.get(id) ?? 0) + 1;
    sent.set(id, number);
    const run = api.genotype(id).then((g) => {
      if (number > (kept.get(id) ?? 0)) {
        kept.set(id, number);
        set({ genotypes: { ...get().genotypes, [id]: g } });
      }
      return g;
    });
    refreshes.set(id, run);
    queueMicrotask(() => refreshes.delete(id));
    return run;
  },

  watchProcessing(id) {
    const running = watches.get(id);
    if (running) return running;
    const run = (async () => {
      let delay = 400;
      for (;;) {
        const g = await get().refreshGenotype(id);
        if (!isBusy(g)) return g;
        await sleep(delay);
        delay = Math.min(1500, delay * 1.3);
      }
    })().finally(() => watches.delete(id));
    watches.set(id, run);
    return run;
  },

  dismissFailure(id) {
    const g = get().genotypes[id];
    if (hasFile(g)) set({ dismissedFailures: { ...get().dismissedFailures, [id]: g.updated_at } });
  },

  clear() {
    set({ profiles: [], genotypes: {}, dismissedFailures: {} });
  },
}));

export function useProfile(id: string | undefined): Profile | undefined {
  return useProfiles((s) => (id ? s.profiles.find((p) => p.id === id) : undefined));
}
