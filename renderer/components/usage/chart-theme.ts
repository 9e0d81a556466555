// The charts' colours and text size, taken from the app's CSS variables (light or dark, as prefers-color-scheme or data-theme on <html> says; the text size setting, data-font-size), and kept in step.
import { useEffect, useState } from 'react';

export interface ChartTheme {
  dark: boolean;
  text: string;
  muted: string;
  border: string;
  background: string;
  panel: string;
  accent: string;
  /** Series colours, told apart also by people with colour-vision deficiency (Okabe-Ito, lightened on dark). */
  palette: string[];
  /** The charts' text size in px: 12 at the normal text size, scaled as the app's text is (Settings → Text size). */
  fontSize: number;
}

/** The charts' text at the normal size (px). */
export const CHART_FONT_PX = 12;

const LIGHT = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8F7F00', '#332288', '#7A7A7A'];
const DARK = ['#5AA9E6', '#F5B94A', '#3CC7A0', '#E59AC8', '#8FD3FF', '#FF8A5B', '#E8DA66', '#A99CFF', '#B0B0B0'];

function isDark(): boolean {
  const forced = document.documentElement.dataset.theme;
  if (forced === 'dark' || forced === 'light') return forced === 'dark';
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

export function readChartTheme(): ChartTheme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const dark = isDark();
  const scale = Number.parseFloat(v('--text-scale', '1'));
  return {
    dark,
    text: v('--text', dark ? '#e3e6ea' : '#1d2127'),
    muted: v('--muted', dark ? '#8d95a1' : '#68707c'),
    border: v('--border', dark ? '#30353d' : '#d9dde3'),
    background: v('--bg', dark ? '#17191d' : '#ffffff'),
    panel: v('--bg-alt', dark ? '#1e2126' : '#f6f7f9'),
    accent: v('--accent', dark ? '#6ea1ff' : '#2563eb'),
    palette: dark ? DARK : LIGHT,
    fontSize: Math.round(CHART_FONT_PX * (Number.isFinite(scale) && scale > 0 ? scale : 1) * 10) / 10,
  };
}

/** The current chart theme, read again when the system's colour scheme, <html data-theme> or <html data-font-size> changes. */
export function useChartTheme(): ChartTheme {
  const [theme, setTheme] = useState(readChartTheme);
  useEffect(() => {
    const update = () => setTheme(readChartTheme());
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    media?.addEventListener('change', update);
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-font-size', 'class', 'style'] });
    return () => {
      media?.removeEventListener('change', update);
      observer.disconnect();
    };
  }, []);
  return theme;
}
