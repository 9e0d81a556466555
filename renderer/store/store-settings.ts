// Store slice for the Settings page: whether it is shown (#/settings), rescanning folders, auto-keep, and the user's pricing.json.
import type { PricingEntryChange, PricingFileInfo, Root } from '../../shared/api.ts';
import type { VaultSettings } from '../../shared/vault-api.ts';
import { describeError, type AppClient } from '../transport/client.ts';

export interface SettingsSlice {
  /** The Settings page fills the main area (its URL is #/settings). */
  settingsOpen: boolean;
  showSettings(open: boolean): void;
  /** The folder being scanned again ('all' for every folder), or null. */
  rescanning: string | null;
  rescanError: string | null;
  rescanRoots(id?: string): Promise<void>;
  vaultSettings: VaultSettings | null;
  vaultSettingsError: string | null;
  loadVaultSettings(): Promise<void>;
  setAutoKeepSetting(on: boolean): Promise<void>;
  pricingFile: PricingFileInfo | null;
  pricingError: string | null;
  loadPricingFile(): Promise<void>;
  /** Why the last price change was refused (a broken pricing.json, an entry removed meanwhile), or null. */
  pricingSaveError: string | null;
  /** Adds, changes or removes one price; true when saved (costs are then worked out again by the app). */
  savePricingEntry(change: PricingEntryChange): Promise<boolean>;
}

type Host = SettingsSlice & { roots: Root[]; refresh(): Promise<void> };

export function createSettingsSlice(client: AppClient, set: (partial: Partial<SettingsSlice> & { roots?: Root[] }) => void, get: () => Host): SettingsSlice {
  return {
    settingsOpen: false,
    showSettings: (settingsOpen) => set({ settingsOpen }),

    rescanning: null,
    rescanError: null,
    async rescanRoots(id) {
      if (get().rescanning) return;
      set({ rescanning: id ?? 'all', rescanError: null });
      try {
        const roots = await client.rescanRoots(id === undefined ? {} : { id });
        set({ roots, rescanning: null });
        await get().refresh();
      } catch (err) {
        set({ rescanning: null, rescanError: describeError(err) });
      }
    },

    vaultSettings: null,
    vaultSettingsError: null,
    async loadVaultSettings() {
      try {
        set({ vaultSettings: await client.getVaultSettings({}), vaultSettingsError: null });
      } catch (err) {
        set({ vaultSettingsError: describeError(err) });
      }
    },
    async setAutoKeepSetting(autoKeep) {
      const before = get().vaultSettings;
      // The switch moves at once; a refusal puts it back and says why.
      set({ vaultSettingsError: null, vaultSettings: before ? { ...before, autoKeep } : before });
      try {
        set({ vaultSettings: await client.setVaultSettings({ autoKeep }) });
      } catch (err) {
        set({ vaultSettings: before, vaultSettingsError: describeError(err) });
      }
    },

    pricingFile: null,
    pricingError: null,
    async loadPricingFile() {
      try {
        set({ pricingFile: await client.getPricingFile({}), pricingError: null });
      } catch (err) {
        set({ pricingError: describeError(err) });
      }
    },

    pricingSaveError: null,
    async savePricingEntry(change) {
      set({ pricingSaveError: null });
      try {
        set({ pricingFile: await client.setPricingEntry(change), pricingError: null });
        return true;
      } catch (err) {
        set({ pricingSaveError: describeError(err) });
        // The file may have changed under the page (edited by hand): show it as it is now.
        await get().loadPricingFile();
        return false;
      }
    },
  };
}
