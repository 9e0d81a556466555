// The window's theme and text size, kept in `<data dir>/ui-preferences.json` (written atomically); a damaged file reads as no choice made.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UiPreferences } from '../../shared/api.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';

export const UI_PREFERENCES_FILE = 'ui-preferences.json';

export async function readUiPreferences(dataDir: string): Promise<UiPreferences | null> {
  let text: string;
  try {
    text = await readFile(join(dataDir, UI_PREFERENCES_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = UiPreferences.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function writeUiPreferences(dataDir: string, preferences: UiPreferences): Promise<UiPreferences> {
  await writeFileAtomic(join(dataDir, UI_PREFERENCES_FILE), `${JSON.stringify(preferences, null, 2)}\n`);
  return preferences;
}
