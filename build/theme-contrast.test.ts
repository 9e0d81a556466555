// Text colours of both themes (renderer/styles.css) stay readable on every row background: plain, hovered and selected (WCAG AA, 4.5:1).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const css = readFileSync(join(import.meta.dirname, '..', 'renderer', 'styles.css'), 'utf8');

/** The colour variables of the block that starts at `selector`. */
function themeColours(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6});/gi)].map((m) => [m[1] as string, m[2] as string]));
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const TEXT = ['--text', '--muted', '--accent', '--error', '--warn', '--ok', '--star'];
const BACKGROUNDS = ['--bg', '--bg-hover', '--bg-selected'];

it.each([':root', ":root[data-theme='dark']"])('%s: status and text colours read at 4.5:1 on plain, hovered and selected rows', (selector) => {
  const light = themeColours(':root');
  const colours = { ...light, ...themeColours(selector) };
  const weak = TEXT.flatMap((text) =>
    BACKGROUNDS.filter((bg) => contrast(colours[text] as string, colours[bg] as string) < 4.5).map(
      (bg) => `${text} on ${bg}: ${contrast(colours[text] as string, colours[bg] as string).toFixed(2)}`,
    ),
  );
  expect(weak).toEqual([]);
});
