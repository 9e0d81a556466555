// Keeps the theme and text size in the data folder too (getUiPreferences/setUiPreferences), so the desktop app and every browser tab agree,
// whatever port `serve` listens on; this window's own storage only bridges the moment before the answer arrives.
import type { UiPreferences } from '../shared/api.ts';
import { DEFAULT_APPEARANCE, type Appearance, type AppearanceController } from './appearance.ts';

export interface PreferencesClient {
  getUiPreferences(input: Record<string, never>): Promise<UiPreferences | null>;
  setUiPreferences(input: UiPreferences): Promise<UiPreferences>;
}

const same = (a: Appearance, b: Appearance) => a.theme === b.theme && a.fontSize === b.fontSize;

export function syncAppearance(client: PreferencesClient, controller: AppearanceController): () => void {
  /** What the data folder holds, as far as this window knows. */
  let kept: Appearance | null = null;
  let chosenHere = false;
  const save = (value: Appearance) => {
    kept = value;
    // Refused (an older server, a lost connection): the choice still holds in this window.
    client.setUiPreferences(value).catch(() => undefined);
  };
  const unsubscribe = controller.subscribe(() => {
    chosenHere = true;
    const now = controller.get();
    if (!kept || !same(now, kept)) save(now);
  });
  client.getUiPreferences({}).then(
    (remote) => {
      if (chosenHere) return;
      if (remote) {
        kept = remote;
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
