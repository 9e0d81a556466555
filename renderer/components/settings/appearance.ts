// Theme (light, dark or the system's) and text size: applied as data-theme and data-font-size on <html> before the first render, followed by every view.
import { useSyncExternalStore } from 'react';
import type { UiPreferences } from '../../../shared/api.ts';

export type ThemeChoice = UiPreferences['theme'];
/** Text sizes, as the CSS scales them (styles.css: --text-scale per data-font-size). */
export type FontSize = UiPreferences['fontSize'];

/** In the order the Settings page offers them; the labels below name every one the contract has. */
export const THEMES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
export const FONT_SIZES: readonly FontSize[] = ['small', 'medium', 'large', 'larger'];

export const THEME_LABELS: Record<ThemeChoice, string> = { system: 'Same as the system', light: 'Light', dark: 'Dark' };
export const FONT_SIZE_LABELS: Record<FontSize, string> = { small: 'Small', medium: 'Normal', large: 'Large', larger: 'Larger' };

export interface Appearance {
  theme: ThemeChoice;
  fontSize: FontSize;
}

export const DEFAULT_APPEARANCE: Appearance = { theme: 'system', fontSize: 'medium' };

/** Where this window keeps the choice for its next start (the data folder keeps it too: appearance-sync.ts). */
export const APPEARANCE_KEY = 'session-vault.appearance';

/** What the module needs of the page, so tests can give plain objects. */
export interface AppearanceHost {
  root: { setAttribute(name: string, value: string): void };
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
  /** The system's preference; null where the page cannot ask. */
  darkQuery: { matches: boolean; addEventListener(type: 'change', fn: () => void): void; removeEventListener(type: 'change', fn: () => void): void } | null;
}

/** A stored value from an older or hand-edited storage: anything unknown falls back to the default. */
export function parseAppearance(text: string | null): Appearance {
  if (!text) return DEFAULT_APPEARANCE;
  try {
    const value = JSON.parse(text) as Partial<Record<keyof Appearance, unknown>>;
    const theme = THEMES.find((t) => t === value?.theme) ?? DEFAULT_APPEARANCE.theme;
    const fontSize = FONT_SIZES.find((f) => f === value?.fontSize) ?? DEFAULT_APPEARANCE.fontSize;
    return { theme, fontSize };
  } catch {
    return DEFAULT_APPEARANCE;
  }
}

/** light or dark: what the CSS and the charts draw with. */
export function resolvedTheme(choice: ThemeChoice, systemDark: boolean): 'light' | 'dark' {
  return choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
}

export interface AppearanceController {
  get(): Appearance;
  set(change: Partial<Appearance>): void;
  subscribe(listener: () => void): () => void;
  dispose(): void;
}

/**
 * Applies the stored choice at once (before the first render), follows the system's scheme while the choice is
 * "system", and stores every change. <html data-theme> always holds the resolved light or dark.
 */
export function createAppearance(host: AppearanceHost): AppearanceController {
  let current = readStored(host);
  const listeners = new Set<() => void>();
  const apply = () => {
    host.root.setAttribute('data-theme', resolvedTheme(current.theme, host.darkQuery?.matches ?? false));
    host.root.setAttribute('data-theme-choice', current.theme);
    host.root.setAttribute('data-font-size', current.fontSize);
  };
  const onSystemChange = () => {
    if (current.theme === 'system') apply();
  };
  host.darkQuery?.addEventListener('change', onSystemChange);
  apply();
  return {
    get: () => current,
    set(change) {
      current = { ...current, ...change };
      apply();
      try {
        host.storage?.setItem(APPEARANCE_KEY, JSON.stringify(current));
      } catch {
        // Storage refused (private window, quota): the choice lasts for this run only.
      }
      for (const fn of listeners) fn();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      host.darkQuery?.removeEventListener('change', onSystemChange);
      listeners.clear();
    },
  };
}

function readStored(host: AppearanceHost): Appearance {
  try {
    return parseAppearance(host.storage?.getItem(APPEARANCE_KEY) ?? null);
  } catch {
    return DEFAULT_APPEARANCE;
  }
}

let pageAppearance: AppearanceController | null = null;

/** The page's one controller, made on first use from <html>, localStorage and the system's colour scheme. */
export function appearance(): AppearanceController {
  if (!pageAppearance) {
    let storage: AppearanceHost['storage'];
    try {
      storage = globalThis.localStorage ?? null;
    } catch {
      // A page whose storage is refused (some privacy settings): the choice lasts for this run only.
      storage = null;
    }
    pageAppearance = createAppearance({
      root: document.documentElement,
      storage,
      darkQuery: typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null,
    });
  }
  return pageAppearance;
}

/** The current theme and text size, re-rendering when either changes. */
export function useAppearance(): Appearance {
  const controller = appearance();
  return useSyncExternalStore(controller.subscribe, controller.get, controller.get);
}
