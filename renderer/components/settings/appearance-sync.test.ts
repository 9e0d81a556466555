// The theme and text size follow the data folder's choice when a window opens, and every choice made in a window is saved there.
import { describe, expect, it } from 'vitest';
import type { UiPreferences } from '../../../shared/api.ts';
import { createAppearance, type AppearanceHost } from './appearance.ts';
import { APPEARANCE_UNSAVED_KEY, syncAppearance } from './appearance-sync.ts';

function controller(stored: string | null = null) {
  const attrs = new Map<string, string>();
  const host: AppearanceHost = {
    root: { setAttribute: (n, v) => attrs.set(n, v) },
    storage: { getItem: () => stored, setItem: () => {} },
    darkQuery: null,
  };
  return { appearance: createAppearance(host), attrs };
}

function server(initial: UiPreferences | null) {
  const saved: UiPreferences[] = [];
  let answer!: (value: UiPreferences | null) => void;
  const asked = new Promise<UiPreferences | null>((resolve) => (answer = resolve));
  return {
    saved,
    answer: () => answer(initial),
    client: { getUiPreferences: () => asked, setUiPreferences: async (p: UiPreferences) => (saved.push(p), p) },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('syncAppearance', () => {
  it('applies what the data folder keeps when the window opens', async () => {
    const c = controller();
    const s = server({ theme: 'dark', fontSize: 'large' });
    syncAppearance(s.client, c.appearance);
    s.answer();
    await tick();
    expect(c.attrs.get('data-theme')).toBe('dark');
    expect(c.attrs.get('data-font-size')).toBe('large');
    expect(s.saved).toEqual([]);
  });

  it('saves each choice made in the window, and a choice this window made before the folder kept one', async () => {
    const c = controller('{"theme":"light","fontSize":"small"}');
    const s = server(null);
    syncAppearance(s.client, c.appearance);
    s.answer();
    await tick();
    expect(s.saved).toEqual([{ theme: 'light', fontSize: 'small' }]);
    c.appearance.set({ theme: 'dark' });
    expect(s.saved.at(-1)).toEqual({ theme: 'dark', fontSize: 'small' });
  });

  it('keeps a choice made while the answer was on its way', async () => {
    const c = controller();
    const s = server({ theme: 'light', fontSize: 'medium' });
    syncAppearance(s.client, c.appearance);
    c.appearance.set({ theme: 'dark' });
    s.answer();
    await tick();
    expect(c.attrs.get('data-theme')).toBe('dark');
    expect(s.saved).toEqual([{ theme: 'dark', fontSize: 'medium' }]);
  });
});

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

describe('syncAppearance, saving', () => {
  it('sends one save at a time, so the data folder ends with the last choice whatever order answers would come in', async () => {
    const c = controller();
    const sent: UiPreferences[] = [];
    const finish: Array<() => void> = [];
    const client = {
      getUiPreferences: async () => ({ theme: 'light', fontSize: 'medium' }) as UiPreferences,
      setUiPreferences: (p: UiPreferences) => new Promise<UiPreferences>((resolve) => (sent.push(p), finish.push(() => resolve(p)))),
    };
    syncAppearance(client, c.appearance, memoryStorage());
    await tick();
    c.appearance.set({ theme: 'dark' });
    c.appearance.set({ fontSize: 'large' });
    c.appearance.set({ fontSize: 'larger' });
    // The second and third wait behind the first; only the latest of them is sent.
    expect(sent).toEqual([{ theme: 'dark', fontSize: 'medium' }]);
    finish.shift()!();
    await tick();
    expect(sent.at(-1)).toEqual({ theme: 'dark', fontSize: 'larger' });
    expect(sent).toHaveLength(2);
  });

  it('keeps a choice whose save had not reached the data folder when the window was reloaded', async () => {
    const storage = memoryStorage();
    const first = controller();
    const lost = { getUiPreferences: async () => null, setUiPreferences: () => new Promise<UiPreferences>(() => {}) };
    syncAppearance(lost, first.appearance, storage);
    await tick();
    first.appearance.set({ theme: 'dark', fontSize: 'larger' });
    expect(storage.items.get(APPEARANCE_UNSAVED_KEY)).toBe('1');

    // The reload: this window's storage has the choice, the data folder still an older one.
    const again = controller('{"theme":"dark","fontSize":"larger"}');
    const s = server({ theme: 'dark', fontSize: 'medium' });
    syncAppearance(s.client, again.appearance, storage);
    s.answer();
    await tick();
    expect(again.attrs.get('data-font-size')).toBe('larger');
    expect(s.saved).toEqual([{ theme: 'dark', fontSize: 'larger' }]);
    expect(storage.items.has(APPEARANCE_UNSAVED_KEY)).toBe(false);
  });
});
