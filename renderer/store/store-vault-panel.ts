// Store slice for the Vault panel: the auto-keep setting, prune (dry run first), the trash with restore, and clear all.
import type { PruneResult, TrashEntry, VaultSettings } from '../../shared/vault-api.ts';
import { describeError, type AppClient } from '../transport/client.ts';

export interface VaultPanelState {
  open: boolean;
  settings: VaultSettings | null;
  settingsError: string | null;
  /** What a dry run would remove; a real prune is offered only after one. */
  prunePreview: PruneResult | null;
  /** What the last real prune removed. */
  pruned: PruneResult | null;
  pruneBusy: boolean;
  pruneError: string | null;
  trash: TrashEntry[] | null;
  trashError: string | null;
  /** The trash entry being restored. */
  restoring: string | null;
  restoredKey: string | null;
  clearBusy: boolean;
  clearError: string | null;
  cleared: number | null;
}

export interface VaultPanelSlice {
  vaultPanel: VaultPanelState;
  /** Opens (and loads) or closes the panel. */
  showVaultPanel(open: boolean): Promise<void>;
  setAutoKeep(on: boolean): Promise<void>;
  /** `days` as typed; anything but a whole number from 1 to 36500 is refused with a sentence. */
  previewPrune(days: string): Promise<void>;
  confirmPrune(): Promise<void>;
  cancelPrune(): void;
  loadTrash(): Promise<void>;
  restoreTrashed(id: string): Promise<void>;
  /** `typed` must be exactly CLEAR. */
  clearAll(typed: string): Promise<boolean>;
}

type Host = VaultPanelSlice & { refresh(): Promise<void> };

export const MAX_PRUNE_DAYS = 36_500;

const closed: VaultPanelState = {
  open: false,
  settings: null,
  settingsError: null,
  prunePreview: null,
  pruned: null,
  pruneBusy: false,
  pruneError: null,
  trash: null,
  trashError: null,
  restoring: null,
  restoredKey: null,
  clearBusy: false,
  clearError: null,
  cleared: null,
};

/** A day count from the input box, or null when it is not one the vault accepts. */
export function parseDays(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= MAX_PRUNE_DAYS ? n : null;
}

export function createVaultPanelSlice(client: AppClient, set: (partial: Partial<VaultPanelSlice>) => void, get: () => Host): VaultPanelSlice {
  const patch = (change: Partial<VaultPanelState>) => set({ vaultPanel: { ...get().vaultPanel, ...change } });

  return {
    vaultPanel: closed,

    async showVaultPanel(open) {
      if (!open) {
        set({ vaultPanel: closed });
        return;
      }
      patch({ open: true });
      const settings = client.getVaultSettings().then(
        (s) => patch({ settings: s, settingsError: null }),
        (err: unknown) => patch({ settingsError: describeError(err) }),
      );
      await Promise.all([settings, get().loadTrash()]);
    },

    async setAutoKeep(autoKeep) {
      patch({ settingsError: null });
      try {
        patch({ settings: await client.setVaultSettings({ autoKeep }) });
      } catch (err) {
        patch({ settingsError: describeError(err) });
      }
    },

    async previewPrune(text) {
      const days = parseDays(text);
      if (days === null) {
        patch({ prunePreview: null, pruneError: `Enter a whole number of days from 1 to ${MAX_PRUNE_DAYS}.` });
        return;
      }
      patch({ pruneBusy: true, pruneError: null, pruned: null, prunePreview: null });
      try {
        patch({ prunePreview: await client.pruneVault({ olderThanDays: days, dryRun: true }), pruneBusy: false });
      } catch (err) {
        patch({ pruneBusy: false, pruneError: describeError(err) });
      }
    },

    async confirmPrune() {
      const preview = get().vaultPanel.prunePreview;
      if (!preview || get().vaultPanel.pruneBusy) return;
      patch({ pruneBusy: true, pruneError: null });
      try {
        const pruned = await client.pruneVault({ olderThanDays: preview.olderThanDays, dryRun: false });
        patch({ pruned, prunePreview: null, pruneBusy: false });
        await Promise.all([get().refresh(), get().loadTrash()]);
      } catch (err) {
        patch({ pruneBusy: false, pruneError: describeError(err) });
      }
    },

    cancelPrune: () => patch({ prunePreview: null, pruneError: null }),

    async loadTrash() {
      try {
        patch({ trash: await client.listTrash(), trashError: null });
      } catch (err) {
        patch({ trashError: describeError(err) });
      }
    },

    async restoreTrashed(id) {
      patch({ restoring: id, trashError: null, restoredKey: null });
      try {
        const { key } = await client.restoreSession({ id });
        patch({ restoring: null, restoredKey: key });
        await Promise.all([get().refresh(), get().loadTrash()]);
      } catch (err) {
        patch({ restoring: null, trashError: describeError(err) });
      }
    },

    async clearAll(typed) {
      if (typed !== 'CLEAR') {
        patch({ clearError: 'Type CLEAR (in capitals) to confirm.', cleared: null });
        return false;
      }
      patch({ clearBusy: true, clearError: null, cleared: null });
      try {
        const { cleared } = await client.clearVault({ confirm: 'CLEAR' });
        patch({ clearBusy: false, cleared });
        await Promise.all([get().refresh(), get().loadTrash()]);
        return true;
      } catch (err) {
        patch({ clearBusy: false, clearError: describeError(err) });
        return false;
      }
    },
  };
}
