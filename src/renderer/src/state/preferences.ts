/**
 * What each person chose to see, remembered per profile on this computer: disease, cancer
 * and psychiatric results (and clinically meaningful single-variant findings) only after
 * an explicit yes. Until they answer, those results stay hidden and the question is asked.
 */
import { create } from 'zustand';

export type SensitiveChoice = 'show' | 'hide';

const KEY = 'traitscope.sensitive-results';

function read(): Record<string, SensitiveChoice> {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return raw && typeof raw === 'object' ? (raw as Record<string, SensitiveChoice>) : {};
  } catch {
    return {};
  }
}

interface PreferencesState {
  sensitive: Record<string, SensitiveChoice>;
  setSensitive: (profileId: string, choice: SensitiveChoice) => void;
  forget: (profileId: string) => void;
}

export const usePreferences = create<PreferencesState>((set, get) => {
  const save = (sensitive: Record<string, SensitiveChoice>) => {
    set({ sensitive });
    try {
      localStorage.setItem(KEY, JSON.stringify(sensitive));
    } catch {
      // Storage full or disabled: the choice lasts for this session.
    }
  };
  return {
    sensitive: read(),
    setSensitive: (profileId, choice) => save({ ...get().sensitive, [profileId]: choice }),
    forget: (profileId) => {
      const next = { ...get().sensitive };
      delete next[profileId];
      save(next);
    },
  };
});

/** The person's answer for a profile, or undefined while not asked yet. */
export function useSensitiveChoice(profileId: string): SensitiveChoice | undefined {
  return usePreferences((s) => s.sensitive[profileId]);
}
