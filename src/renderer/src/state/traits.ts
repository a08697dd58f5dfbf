/**
 * The trait catalog of the app's client (with pricing types) and, per profile, each trait's
 * status, the computed results, and full assessments opened in detail.
 */
import { useMemo } from 'react';
import { create } from 'zustand';
import type { ClientTrait, ProfileTrait, Trait, TraitStatus } from '../../../shared/api.js';
import { api, type CompactProfileTrait, type Tagged } from '../api/client.js';
import { phenotypeRows, type PhenotypeRow } from '../lib/results.js';
import { markStep } from '../lib/timeline.js';

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
  /**
   * Loads a profile's lists. `changed`: its results changed just now (the service said so,
   * or a request of ours changed them), so a load sent before this moment will not do.
   */
  loadProfileTraits: (id: string, options?: { changed?: boolean }) => Promise<void>;
  /**
   * Traits being computed for a profile, or undefined when that ended; loads asked for
   * meanwhile wait for the end (see loadProfileTraits).
   */
  setComputing: (id: string, progress: ComputeProgress | undefined) => void;
  computeMany: (id: string, codes: string[]) => Promise<number>;
  computeOne: (id: string, code: string) => Promise<ProfileTrait>;
  loadAssessment: (id: string, code: string) => Promise<ProfileTrait>;
  forget: (id: string) => void;
  clear: () => void;
}

export const assessmentKey = (id: string, code: string) => `${id}/${code}`;

/** A compact list item in the shape every view reads: the trait object instead of its code. */
function withTrait(item: CompactProfileTrait, trait: Trait): ProfileTrait {
  const { trait_code: _code, ...rest } = item;
  return { ...rest, trait };
}

/** List loads under way per profile (and when each was sent), and profiles to load once more when theirs ends. */
const loading = new Map<string, { run: Promise<void>; sentAt: number; sentNow: boolean }>();
const loadAgain = new Set<string>();
/** When each profile's results last changed, as far as the UI knows. */
const changedAt = new Map<string, number>();
/** Loads asked for while the profile's traits are being computed: answered by one load at the end. */
const afterComputing = new Map<string, Array<() => void>>();
/** The lists last read per profile, with their entity tags, to ask the service only for changes. */
const lists = new Map<string, { scored: Tagged<CompactProfileTrait[]>; statuses: Tagged<CompactProfileTrait[]> }>();
/** The catalog load under way: the lists wait for it, as they name traits by code. */
let catalogLoad: Promise<void> | null = null;
/** The catalog's traits by code, for the compact lists; rebuilt when the catalog changes. */
let traitIndex: { catalog: ClientTrait[]; byCode: Map<string, Trait> } | null = null;

function traitsByCode(catalog: ClientTrait[]): Map<string, Trait> {
  if (traitIndex?.catalog !== catalog)
    traitIndex = { catalog, byCode: new Map(catalog.map((c) => [c.trait.code, c.trait])) };
  return traitIndex.byCode;
}

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

  /**
   * The catalog's traits by code, loaded first if need be; loaded again once when a list
   * names a trait it does not have (a score imported since, a catalog update).
   */
  async function catalogFor(codes: Iterable<string>): Promise<Map<string, Trait>> {
    if (!get().catalog) await get().loadCatalog();
    let byCode = traitsByCode(get().catalog ?? []);
    for (const code of codes) {
      if (byCode.has(code)) continue;
      await get().loadCatalog();
      byCode = traitsByCode(get().catalog ?? []);
      break;
    }
    if (!get().catalog) throw new Error(get().catalogError ?? 'The trait catalog could not be loaded.');
    return byCode;
  }

  async function loadOnce(id: string): Promise<void> {
    patch(id, { loading: true, error: null });
    try {
      const held = lists.get(id);
      // The results first: the service builds one list at a time, and these are what the person
      // waits for. The statuses are asked for as the results begin to arrive, so the service
      // builds them while the page reads the results.
      const read = async (heldScored = held?.scored, heldStatuses = held?.statuses) => {
        const scoredAnswer = await api.scoredTraits(id, heldScored);
        const statusAnswer = api.profileTraits(id, heldStatuses);
        const scoredList = await scoredAnswer.read();
        return [scoredList, await (await statusAnswer).read()] as const;
      };
      let [scored, statuses] = await read();
      // A read genotype lists every trait; an empty list means the service is still finishing a
      // file. Ask again shortly rather than showing (or keeping) nothing.
      for (let attempt = 0; statuses.body.length === 0 && attempt < 20; attempt++) {
        await new Promise((r) => setTimeout(r, 250 + attempt * 100));
        [scored, statuses] = await read(scored, statuses);
      }
      lists.set(id, { scored, statuses });
      markStep('results-received', id);
      // Both unchanged (the service answered 304 twice): nothing to build or render again.
      if (held?.scored === scored && held.statuses === statuses && get().byProfile[id]?.loaded) {
        patch(id, { loading: false });
        return;
      }
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
      patch(id, { statuses: statusByCode, reasons, results, loading: false, loaded: true });
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

    loadCatalog() {
      // Callers at the same moment share one request.
      catalogLoad ??= api
        .clientTraits()
        .then(
          (catalog) => set({ catalog, catalogError: null }),
          (err: unknown) => set({ catalogError: (err as Error).message }),
        )
        .finally(() => (catalogLoad = null));
      return catalogLoad;
    },

    loadProfileTraits(id, options = {}) {
      // Several callers at once (a view opening, a finished upload, the service reporting new
      // results) share one load. Only a change after that load was sent makes it stale: then
      // it is loaded once more when it ends (each extra load of the lists during background
      // scoring cost the service and the page hundreds of milliseconds under load).
      const now = performance.now();
      if (options.changed) changedAt.set(id, now);
      if (get().computing[id]) {
        // Listing while every trait is being scored would show none of the new results, and
        // makes the service check each unscored trait against the genotype on its event loop,
        // slowing the scoring itself: wait for the end, which loads once for every caller.
        return new Promise((resolve) => afterComputing.set(id, [...(afterComputing.get(id) ?? []), resolve]));
      }
      const running = loading.get(id);
      if (running) {
        // A change reported in the very moment the load was sent (the end of the scoring, then
        // the service's "results changed") is in what it reads.
        if (running.sentAt < (changedAt.get(id) ?? 0) && !running.sentNow) loadAgain.add(id);
        return running.run;
      }
      const sent = { run: Promise.resolve(), sentAt: now, sentNow: true };
      loading.set(id, sent);
      queueMicrotask(() => (sent.sentNow = false));
      sent.run = loadOnce(id).finally(() => {
        loading.delete(id);
        if (loadAgain.delete(id)) void get().loadProfileTraits(id);
      });
      return sent.run;
    },

    setComputing(id, progress) {
      set({ computing: { ...get().computing, [id]: progress } });
      const waiting = afterComputing.get(id);
      if (progress || !waiting) return;
      afterComputing.delete(id);
      // At once, before the render this change queued: the lists are what the person waits for.
      // The service's "results changed" that comes with the end shares this load (loads asked
      // for in the same moment share one), and an unchanged list costs a 304 after that.
      void get()
        .loadProfileTraits(id)
        .finally(() => waiting.forEach((resolve) => resolve()));
    },

    async computeMany(id, codes) {
      // One request for all of them: the service scores them in one pass (or has them stored).
      get().setComputing(id, { done: 0, total: codes.length });
      try {
        const out = await api.computeTraits(id, codes);
        record(id, out);
        return out.length;
      } finally {
        get().setComputing(id, undefined);
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
      const assessments = Object.fromEntries(
        Object.entries(get().assessments).filter(([k]) => !k.startsWith(`${id}/`)),
      );
      lists.delete(id);
      set({ byProfile, assessments });
    },

    clear() {
      lists.clear();
      set({ byProfile: {}, assessments: {}, computing: {}, computingOne: {} });
    },
  };
});

/** A profile's rows (lib/results.ts), built again only when its data changes, not when a load starts or ends. */
export function useProfileRows(id: string): PhenotypeRow[] {
  const catalog = useTraits((s) => s.catalog);
  const entry = useTraits((s) => s.byProfile[id]);
  const statuses = entry?.loaded ? entry.statuses : undefined;
  const results = entry?.results;
  const reasons = entry?.reasons;
  return useMemo(
    () => (catalog && statuses && results && reasons ? phenotypeRows(catalog, { statuses, results, reasons }) : []),
    [catalog, statuses, results, reasons],
  );
}
