// The window's theme and text size, kept in `<data dir>/ui-preferences.json` (written atomically, reads and writes in the order asked); a damaged file reads as no choice made.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UiPreferences } from '../../shared/api.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';

export const UI_PREFERENCES_FILE = 'ui-preferences.json';

/** Per file, the last read or write asked for: each waits for the ones asked before it. */
const turns = new Map<string, Promise<unknown>>();

/**
 * Reads and writes of one file run in the order they were asked: two saves in quick succession cannot land in the
 * other order (each renames its own temp file), and a read asked after a save answers what that save wrote.
 */
function inTurn<T>(path: string, task: () => Promise<T>): Promise<T> {
  const run = (turns.get(path) ?? Promise.resolve()).then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  turns.set(path, settled);
  void settled.then(() => {
    if (turns.get(path) === settled) turns.delete(path);
  });
  return run;
}

export function readUiPreferences(dataDir: string): Promise<UiPreferences | null> {
  const path = join(dataDir, UI_PREFERENCES_FILE);
  return inTurn(path, () => readFrom(path));
}

async function readFrom(path: string): Promise<UiPreferences | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
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

export function writeUiPreferences(dataDir: string, preferences: UiPreferences): Promise<UiPreferences> {
  const path = join(dataDir, UI_PREFERENCES_FILE);
  return inTurn(path, async () => {
    await writeFileAtomic(path, `${JSON.stringify(preferences, null, 2)}\n`);
    return preferences;
  });
}
