/** Settings data: the app's addresses and data folder, and the third-party API clients. */
import { create } from 'zustand';
import type { ApiClient, ApiClientInput, AppInfo, CreatedApiClient } from '../../../shared/api.js';
import { api } from '../api/client.js';

interface SettingsState {
  info: AppInfo | null;
  infoError: string | null;
  clients: ApiClient[] | null;
  clientsError: string | null;
  loadInfo: () => Promise<void>;
  loadClients: () => Promise<void>;
  createClient: (input: ApiClientInput) => Promise<CreatedApiClient>;
  /** Revokes a client; with deleteData also deletes every profile it created. */
  revokeClient: (clientId: string, deleteData?: boolean) => Promise<void>;
}

export const useSettings = create<SettingsState>((set, get) => ({
  info: null,
  infoError: null,
  clients: null,
  clientsError: null,

  async loadInfo() {
    try {
      set({ info: await api.appInfo(), infoError: null });
    } catch (err) {
      set({ infoError: (err as Error).message });
    }
  },

  async loadClients() {
    try {
      set({ clients: await api.listClients(), clientsError: null });
    } catch (err) {
      set({ clientsError: (err as Error).message });
    }
  },

  async createClient(input) {
    const created = await api.createClient(input);
    const { client_secret: _secret, ...client } = created;
    set({ clients: [...(get().clients ?? []), client] });
    return created;
  },

  async revokeClient(clientId, deleteData = false) {
    await api.revokeClient(clientId, deleteData);
    await get().loadClients();
  },
}));
