// The theme and text size follow the data folder's choice when a window opens, and every choice made in a window is saved there.
import { describe, expect, it } from 'vitest';
import type { UiPreferences } from '../shared/api.ts';
import { createAppearance, type AppearanceHost } from './appearance.ts';
import { syncAppearance } from './appearance-sync.ts';

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
