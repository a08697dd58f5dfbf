/**
 * The trait catalog of the app's client (with pricing types) and, per profile, each trait's
 * status, the computed results, and full assessments opened in detail.
 */
import { create } from 'zustand';
import type { ClientTrait, ProfileTrait, TraitStatus } from '../../../shared/api.js';
import { api } from '../api/client.js';

export interface ProfileTraits {
  statuses: Record<string, TraitStatus>;
  /** Why a trait is unavailable (too few markers, not applicable to the profile's sex). */
  reasons: Record<string, NonNullable<ProfileTrait['status_reason']>>;
  /** Computed results (summary form), by trait code. */
  results: Record<string, ProfileTrait>;
  loading: boolean;
  error: string | null;
  loaded: boolean;
}

export interface ComputeProgress {
  done: number;
  total: number;
}

interface TraitsState {
  catalog: ClientTrait[] | null;
  catalogError: string | null;
  byProfile: Record<string, ProfileTraits | undefined>;
  assessments: Record<string, ProfileTrait | undefined>;
  /** Traits being computed for a profile: a compute request, or the service's background scoring (state/jobs.ts). */
  computing: Record<string, ComputeProgress | undefined>;
  /** Codes being computed one at a time, "profile/code". */
  computingOne: Record<string, boolean>;
  loadCatalog: () => Promise<void>;
  loadProfileTraits: (id: string) => Promise<void>;
  computeMany: (id: string, codes: string[]) => Promise<number>;
  computeOne: (id: string, code: string) => Promise<ProfileTrait>;
  loadAssessment: (id: string, code: string) => Promise<ProfileTrait>;
  forget: (id: string) => void;
  clear: () => void;
}

export const assessmentKey = (id: string, code: string) => `${id}/${code}`;

/** List loads under way, per profile, and profiles to load once more when theirs ends. */
const loading = new Map<string, Promise<void>>();
const loadAgain = new Set<string>();

const EMPTY: ProfileTraits = { statuses: {}, reasons: {}, results: {}, loading: false, error: null, loaded: false };

export const useTraits = create<TraitsState>((set, get) => {
  const patch = (id: string, p: Partial<ProfileTraits>) =>
    set({ byProfile: { ...get().byProfile, [id]: { ...(get().byProfile[id] ?? EMPTY), ...p } } });

  const record = (id: string, computed: ProfileTrait[]) => {
    const entry = get().byProfile[id] ?? EMPTY;
    const statuses = { ...entry.statuses };
    const results = { ...entry.results };
    for (const r of computed) {
      statuses[r.trait.code] = r.status;
      if (r.status === 'computed') results[r.trait.code] = r;
    }
    patch(id, { statuses, results });
  };

  async function loadOnce(id: string): Promise<void> {
    patch(id, { loading: true, error: null });
    try {
      let [list, scored] = await Promise.all([api.profileTraits(id), api.scoredTraits(id)]);
      // A read genotype lists every trait; an empty list means the service is still
      // finishing a file. Ask again shortly rather than showing (or keeping) nothing.
      for (let attempt = 0; list.length === 0 && attempt < 20; attempt++) {
        await new Promise((r) => setTimeout(r, 250 + attempt * 100));
        [list, scored] = await Promise.all([api.profileTraits(id), api.scoredTraits(id)]);
      }
      const statuses: Record<string, TraitStatus> = {};
      const reasons: ProfileTraits['reasons'] = {};
      for (const t of list) {
        statuses[t.trait.code] = t.status;
        if (t.status_reason) reasons[t.trait.code] = t.status_reason;
      }
      const results: Record<string, ProfileTrait> = {};
      for (const t of scored) results[t.trait.code] = t;
      patch(id, { statuses, reasons, results, loading: false, loaded: true });
    } catch (err) {
      patch(id, { loading: false, error: (err as Error).message });
    }
  }

  return {
    catalog: null,
    catalogError: null,
    byProfile: {},
    assessments: {},
    computing: {},
    computingOne: {},

    async loadCatalog() {
      try {
        set({ catalog: await api.clientTraits(), catalogError: null });
      } catch (err) {
        set({ catalogError: (err as Error).message });
      }
    },

    loadProfileTraits(id) {
      // Several callers at once (a view opening, a finished upload, the service reporting new
      // results) share one request; a call during it asks for one more afterwards, since the
      // results may have changed after that request was answered.
      const running = loading.get(id);
      if (running) {
        loadAgain.add(id);
        return running;
      }
      const run = loadOnce(id).finally(() => {
        loading.delete(id);
        if (loadAgain.delete(id)) void get().loadProfileTraits(id);
      });
      loading.set(id, run);
      return run;
    },

    async computeMany(id, codes) {
      // One request for all of them: the service scores them in one pass (or has them stored).
      set({ computing: { ...get().computing, [id]: { done: 0, total: codes.length } } });
      try {
        const out = await api.computeTraits(id, codes);
        record(id, out);
        return out.length;
      } finally {
        set({ computing: { ...get().computing, [id]: undefined } });
      }
    },

    async computeOne(id, code) {
      const key = assessmentKey(id, code);
      set({ computingOne: { ...get().computingOne, [key]: true } });
      try {
        const full = await api.computeTrait(id, code);
        record(id, [full]);
        set({ assessments: { ...get().assessments, [key]: full } });
        return full;
      } finally {
        set({ computingOne: { ...get().computingOne, [key]: false } });
      }
    },

    async loadAssessment(id, code) {
      const full = await api.assessment(id, code);
      set({ assessments: { ...get().assessments, [assessmentKey(id, code)]: full } });
      if (full.status === 'computed') record(id, [full]);
      return full;
    },

    forget(id) {
      const byProfile = { ...get().byProfile };
      delete byProfile[id];
      const assessments = Object.fromEntries(Object.entries(get().assessments).filter(([k]) => !k.startsWith(`${id}/`)));
      set({ byProfile, assessments });
    },

    clear() {
      set({ byProfile: {}, assessments: {}, computing: {}, computingOne: {} });
    },
  };
});
