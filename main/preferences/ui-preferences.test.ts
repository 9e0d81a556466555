// The window's theme and text size are kept in the data folder: read back by any window, a damaged file is no choice, bad input refused.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUiPreferences, UI_PREFERENCES_FILE, writeUiPreferences } from './ui-preferences.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-ui-prefs-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('ui preferences', () => {
  it('are none until chosen, then read back as written', async () => {
    expect(await readUiPreferences(dir)).toBeNull();
    await writeUiPreferences(dir, { theme: 'dark', fontSize: 'large' });
    expect(await readUiPreferences(dir)).toEqual({ theme: 'dark', fontSize: 'large' });
    expect(JSON.parse(await readFile(join(dir, UI_PREFERENCES_FILE), 'utf8'))).toEqual({ theme: 'dark', fontSize: 'large' });
  });

  it('read a damaged or hand-broken file as no choice made', async () => {
    await writeFile(join(dir, UI_PREFERENCES_FILE), '{"theme": "sepia", "fontSize": "large"}');
    expect(await readUiPreferences(dir)).toBeNull();
    await writeFile(join(dir, UI_PREFERENCES_FILE), '{ cut');
    expect(await readUiPreferences(dir)).toBeNull();
  });

  it('are written and read in the order asked: the last of quick saves stays, and a read after a save sees it', async () => {
    const saves = [
      writeUiPreferences(dir, { theme: 'dark', fontSize: 'medium' }),
      writeUiPreferences(dir, { theme: 'dark', fontSize: 'large' }),
      writeUiPreferences(dir, { theme: 'dark', fontSize: 'larger' }),
    ];
    const read = readUiPreferences(dir);
    expect(await read).toEqual({ theme: 'dark', fontSize: 'larger' });
    await Promise.all(saves);
    expect(await readUiPreferences(dir)).toEqual({ theme: 'dark', fontSize: 'larger' });
  });
});
