/** Which app-wide dialog is open: the profile form, or a genotype replacement to confirm. */
import { create } from 'zustand';
import type { Profile } from '../../../shared/api.js';
import type { JobFile } from '../platform/opened-files.js';

export type OpenDialog =
  | { kind: 'new-profile' }
  | { kind: 'edit-profile'; profile: Profile }
  | { kind: 'delete-profile'; profile: Profile }
  | { kind: 'replace-genotype'; profileId: string; file: JobFile };

interface DialogState {
  dialog: OpenDialog | null;
  open: (dialog: OpenDialog) => void;
  close: () => void;
}

export const useDialogs = create<DialogState>((set) => ({
  dialog: null,
  open: (dialog) => set({ dialog }),
  close: () => set({ dialog: null }),
}));

export const openDialog = (d: OpenDialog) => useDialogs.getState().open(d);
