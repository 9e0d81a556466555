// Keeps the theme and text size in the data folder too (getUiPreferences/setUiPreferences), so the desktop app and every browser tab agree,
// whatever port `serve` listens on; this window's own storage bridges the moment before the answer arrives, and remembers a choice not yet saved.
import type { UiPreferences } from '../../../shared/api.ts';
import { DEFAULT_APPEARANCE, type Appearance, type AppearanceController } from './appearance.ts';

export interface PreferencesClient {
  getUiPreferences(input: Record<string, never>): Promise<UiPreferences | null>;
  setUiPreferences(input: UiPreferences): Promise<UiPreferences>;
}

/** The window's storage, for the mark of a choice the data folder has not confirmed yet. */
export interface UnsavedMarkStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Set (in this window's storage) from the moment a choice is made until the data folder has it: a reload or a
 * crash in between must not let the folder's older value replace the choice the window shows and keeps.
 */
export const APPEARANCE_UNSAVED_KEY = 'session-vault.appearance.unsaved';

const same = (a: Appearance, b: Appearance) => a.theme === b.theme && a.fontSize === b.fontSize;

export function syncAppearance(client: PreferencesClient, controller: AppearanceController, storage: UnsavedMarkStorage | null = null): () => void {
  /** The last value sent (or being sent) to the data folder, or read from it. */
  let wanted: Appearance | null = null;
  let chosenHere = false;
  /** One save at a time, so they land in the order they were chosen; a choice made meanwhile waits, the latest only. */
  let sending = false;
  let queued: Appearance | null = null;
  const mark = (unsaved: boolean) => {
    try {
      if (unsaved) storage?.setItem(APPEARANCE_UNSAVED_KEY, '1');
      else storage?.removeItem(APPEARANCE_UNSAVED_KEY);
    } catch {
      // Storage refused: the choice still holds in this window and is saved when the folder answers.
    }
  };
  const sendNext = () => {
    if (sending || !queued) return;
    const value = queued;
    queued = null;
    sending = true;
    client.setUiPreferences(value).then(
      () => {
        sending = false;
        if (queued) sendNext();
        else if (same(controller.get(), value)) mark(false);
      },
      // Refused (an older server, a lost connection): the choice holds in this window, still marked, and is sent again at its next start.
      () => {
        sending = false;
        sendNext();
      },
    );
  };
  const save = (value: Appearance) => {
    wanted = value;
    mark(true);
    queued = value;
    sendNext();
  };
  const unsubscribe = controller.subscribe(() => {
    chosenHere = true;
    const now = controller.get();
    if (!wanted || !same(now, wanted)) save(now);
  });
  const unsaved = (() => {
    try {
      return storage?.getItem(APPEARANCE_UNSAVED_KEY) === '1';
    } catch {
      return false;
    }
  })();
  if (unsaved) {
    // The last choice made in this window never reached the data folder (a reload came first): it is the newer one.
    save(controller.get());
    return unsubscribe;
  }
  client.getUiPreferences({}).then(
    (remote) => {
      if (chosenHere) return;
      if (remote) {
        wanted = remote;
        if (!same(controller.get(), remote)) controller.set(remote);
      } else if (!same(controller.get(), DEFAULT_APPEARANCE)) {
        // Chosen in this window before the data folder kept it.
        save(controller.get());
      }
    },
    () => undefined,
  );
  return unsubscribe;
}
