/** How the trait list is filtered and opened, kept while the user visits a trait and comes back. */
import { create } from 'zustand';

export type StatusFilter = 'all' | 'computed' | 'available' | 'unavailable';

interface BrowserState {
  query: string;
  status: StatusFilter;
  /** Expanded groups (category names, or "Featured"). */
  expanded: Record<string, boolean>;
  /** Rows shown per group beyond the first page. */
  shown: Record<string, number>;
  setQuery(q: string): void;
  setStatus(s: StatusFilter): void;
  toggle(group: string, open?: boolean): void;
  showMore(group: string, count: number): void;
}

export const useBrowser = create<BrowserState>((set, get) => ({
  query: '',
  status: 'all',
  expanded: { Featured: true },
  shown: {},
  setQuery: (query) => set({ query, shown: {} }),
  setStatus: (status) => set({ status, shown: {} }),
  toggle: (group, open) => set({ expanded: { ...get().expanded, [group]: open ?? !get().expanded[group] } }),
  showMore: (group, count) => set({ shown: { ...get().shown, [group]: count } }),
}));
