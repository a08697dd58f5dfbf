/**
 * How the result list is sorted and filtered, how far it is shown and where it was
 * scrolled: kept while the person visits a result and comes back.
 */
import { create } from 'zustand';
import type { ShowKey, SortKey } from '../lib/results.js';

export const PAGE = 50;

interface BrowserState {
  query: string;
  sort: SortKey;
  show: ShowKey;
  evidence: string[];
  category: string;
  /** Rows shown, per profile. */
  shown: Record<string, number>;
  /** Phenotypes whose other studies are open, "profile/key". */
  open: Record<string, boolean>;
  /** Scroll position of the main area per address, restored on back. */
  scroll: Record<string, number>;
  set: (patch: Partial<Pick<BrowserState, 'query' | 'sort' | 'show' | 'evidence' | 'category'>>) => void;
  showMore: (profileId: string, count: number) => void;
  toggle: (key: string) => void;
  rememberScroll: (hash: string, top: number) => void;
}

export const useBrowser = create<BrowserState>((set, get) => ({
  query: '',
  sort: 'notable',
  show: 'results',
  evidence: [],
  category: '',
  shown: {},
  open: {},
  scroll: {},
  set: (patch) => set({ ...patch, shown: {} }),
  showMore: (profileId, count) => set({ shown: { ...get().shown, [profileId]: count } }),
  toggle: (key) => set({ open: { ...get().open, [key]: !get().open[key] } }),
  rememberScroll: (hash, top) => set({ scroll: { ...get().scroll, [hash]: top } }),
}));
