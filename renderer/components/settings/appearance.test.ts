// Theme and text size: applied to <html> at once, "system" follows the system's scheme, remembered, and a damaged stored value is ignored.
import { describe, expect, it } from 'vitest';
import { APPEARANCE_KEY, createAppearance, parseAppearance, type AppearanceHost } from './appearance.ts';

function host(stored: string | null, systemDark = false) {
  const attrs = new Map<string, string>();
  const storage = new Map<string, string>(stored === null ? [] : [[APPEARANCE_KEY, stored]]);
  const listeners = new Set<() => void>();
  const query = {
    matches: systemDark,
    addEventListener: (_: 'change', fn: () => void) => listeners.add(fn),
    removeEventListener: (_: 'change', fn: () => void) => listeners.delete(fn),
  };
  const h: AppearanceHost = {
    root: { setAttribute: (name, value) => attrs.set(name, value) },
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => storage.set(k, v) },
    darkQuery: query,
  };
  const systemChanges = (dark: boolean) => {
    query.matches = dark;
    for (const fn of listeners) fn();
  };
  return { h, attrs, storage, systemChanges };
}

describe('createAppearance', () => {
  it('starts from the system scheme and the normal size when nothing is stored', () => {
    const t = host(null, true);
    createAppearance(t.h);
    expect(Object.fromEntries(t.attrs)).toEqual({ 'data-theme': 'dark', 'data-theme-choice': 'system', 'data-font-size': 'medium' });
  });

  it('applies a choice at once, tells its listeners, and stores it for the next run', () => {
    const t = host(null);
    const a = createAppearance(t.h);
    let told = 0;
    a.subscribe(() => told++);
    a.set({ theme: 'dark', fontSize: 'larger' });
    expect(t.attrs.get('data-theme')).toBe('dark');
    expect(t.attrs.get('data-font-size')).toBe('larger');
    expect(told).toBe(1);
    const next = host(t.storage.get(APPEARANCE_KEY) ?? null);
    createAppearance(next.h);
    expect(next.attrs.get('data-theme')).toBe('dark');
    expect(next.attrs.get('data-font-size')).toBe('larger');
  });

  it('follows the system only while the choice is "system"', () => {
    const t = host(null, false);
    const a = createAppearance(t.h);
    t.systemChanges(true);
    expect(t.attrs.get('data-theme')).toBe('dark');
    a.set({ theme: 'light' });
    t.systemChanges(true);
    expect(t.attrs.get('data-theme')).toBe('light');
  });

  it('keeps working when storage refuses to write', () => {
    const t = host(null);
    t.h.storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const a = createAppearance(t.h);
    a.set({ theme: 'dark' });
    expect(t.attrs.get('data-theme')).toBe('dark');
  });
});

describe('parseAppearance', () => {
  it('ignores what it does not know', () => {
    expect(parseAppearance('{"theme":"sepia","fontSize":"large"}')).toEqual({ theme: 'system', fontSize: 'large' });
    expect(parseAppearance('not json')).toEqual({ theme: 'system', fontSize: 'medium' });
    expect(parseAppearance(null)).toEqual({ theme: 'system', fontSize: 'medium' });
  });
});
