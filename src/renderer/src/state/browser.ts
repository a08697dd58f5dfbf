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
  /**
   * The link that had focus when the person left each address, focused again on back: its
   * href, and which of the links with that href it was (a result can be linked twice on a
   * screen, in a summary and in its row).
   */
  focus: Record<string, FocusedLink>;
  set: (patch: Partial<Pick<BrowserState, 'query' | 'sort' | 'show' | 'evidence' | 'category'>>) => void;
  showMore: (profileId: string, count: number) => void;
  toggle: (key: string) => void;
  /** Where the main area was scrolled and which link had focus when leaving an address. */
  rememberPlace: (hash: string, top: number, focused: FocusedLink | undefined) => void;
}

export interface FocusedLink {
  href: string;
  /** Its place among the screen's links with that href. */
  nth: number;
}

/** The links to `href` inside `root`, in document order: what FocusedLink.nth counts in. */
export const linksTo = (root: ParentNode, href: string): NodeListOf<HTMLElement> =>
  root.querySelectorAll<HTMLElement>(`a[href="${CSS.escape(href)}"]`);

export const useBrowser = create<BrowserState>((set, get) => ({
  query: '',
  sort: 'notable',
  show: 'results',
  evidence: [],
  category: '',
  shown: {},
  open: {},
  scroll: {},
  focus: {},
  set: (patch) => set({ ...patch, shown: {} }),
  showMore: (profileId, count) => set({ shown: { ...get().shown, [profileId]: count } }),
  toggle: (key) => set({ open: { ...get().open, [key]: !get().open[key] } }),
  rememberPlace: (hash, top, focused) => {
    const focus = { ...get().focus };
    if (focused) focus[hash] = focused;
    else delete focus[hash];
    set({ scroll: { ...get().scroll, [hash]: top }, focus });
  },
}));
