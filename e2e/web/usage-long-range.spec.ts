// The dashboard over four months of daily sessions: the days' bars are drawn one shape per model (large mode) and the heatmap on canvas, and a click on a day's bar or an hour's cell still narrows the list; the lower charts are drawn after the first paint without a scroll.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { test as base, expect, startVault, type Vault } from './vault-fixture.ts';
import { indexed } from './format-samples.ts';

const DAYS = 120;
/** The day with fifty times the tokens of the others: the tallest bar. */
const BUSIEST = 100;
const MODELS = ['claude-opus-4-7', 'claude-sonnet-4-5-20250929'];
const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 0, 1, 12);
const dayName = (i: number) => new Date(START + i * DAY_MS).toISOString().slice(0, 10);

/** One Claude Code session a day, at noon UTC: a prompt and a reply with its usage. */
async function writeDailySessions({ root }: { root: string }): Promise<void> {
  const dir = join(root, '.claude', 'projects', '-home-dev-src-app');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < DAYS; i++) {
    const sessionId = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const at = (s: number) => new Date(START + i * DAY_MS + s * 1000).toISOString();
    const common = { isSidechain: false, userType: 'external', cwd: '/home/dev/src/app', sessionId, version: '2.1.76', gitBranch: 'main' };
    const input = i === BUSIEST ? 50_000 : 1_000;
    const lines = [
      { ...common, parentUuid: null, type: 'user', uuid: `u-${i}`, timestamp: at(0), message: { role: 'user', content: `day ${i}` } },
      {
        ...common,
        parentUuid: `u-${i}`,
        type: 'assistant',
        uuid: `a-${i}`,
        timestamp: at(20),
        requestId: `req_${i}`,
        message: {
          id: `msg_${i}`,
          type: 'message',
          role: 'assistant',
          model: MODELS[i % 2],
          stop_reason: 'end_turn',
          usage: { input_tokens: input, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          content: [{ type: 'text', text: `done ${i}` }],
        },
      },
    ];
    await writeFile(join(dir, `${sessionId}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  }
}

const test = base.extend<{ dailyVault: Vault }>({
  // eslint-disable-next-line no-empty-pattern
  dailyVault: async ({}, use) => startVault(false, use, undefined, writeDailySessions),
});

/** The center of the tallest bar, read from the shapes' outlines: in large mode one path holds a whole series' bars. */
async function tallestBar(chart: Locator): Promise<{ x: number; y: number; paths: number }> {
  return chart.locator('svg').evaluate((svg) => {
    let best = { x: 0, y: 0, h: 0 };
    let paths = 0;
    for (const p of svg.querySelectorAll('path')) {
      const fill = p.getAttribute('fill');
      const matrix = (p as SVGGraphicsElement).getScreenCTM();
      if (!fill || fill === 'none' || fill.startsWith('url') || !matrix) continue;
      paths++;
      // Each bar is a closed outline ("M x y l w 0 l 0 h l -w 0 Z", relative steps or absolute ones).
      for (const sub of (p.getAttribute('d') ?? '').split(/(?=M)/)) {
        const xs: number[] = [];
        const ys: number[] = [];
        let at = [0, 0];
        for (const [, cmd, args] of sub.matchAll(/([MLml])([^MLmlZz]*)/g)) {
          const n = (args?.match(/-?\d*\.?\d+(e-?\d+)?/g) ?? []).map(Number);
          for (let i = 0; i + 1 < n.length; i += 2) {
            const relative = cmd === 'l' || cmd === 'm';
            at = [(relative ? (at[0] ?? 0) : 0) + (n[i] ?? 0), (relative ? (at[1] ?? 0) : 0) + (n[i + 1] ?? 0)];
            xs.push(at[0] ?? 0);
            ys.push(at[1] ?? 0);
          }
        }
        if (xs.length < 3) continue;
        const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
        if (y1 - y0 <= best.h || x1 - x0 > 40) continue;
        const c = new DOMPoint((x0 + x1) / 2, (y0 + y1) / 2).matrixTransform(matrix);
        best = { x: c.x, y: c.y, h: y1 - y0 };
      }
    }
    return { x: best.x, y: best.y, paths };
  });
}

test('four months of days: a click on the busiest day’s bar narrows the list to that day and model, and every chart is drawn', async ({ page, dailyVault }) => {
  await indexed(dailyVault);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(dailyVault.url);
  const dashboard = page.getByTestId('usage-dashboard');
  await expect(dashboard).toHaveAttribute('aria-busy', 'false');
  const tokens = page.getByTestId('usage-chart-tokens');
  await expect(tokens.getByTestId('usage-chart-canvas')).toHaveAttribute('aria-label', new RegExp(`over ${DAYS} days`));

  // The charts below the fold are drawn once the page is idle, with no scroll.
  await expect(page.getByTestId('usage-chart-cache').locator('svg')).toBeAttached();
  await expect(page.getByTestId('usage-chart-cache').getByRole('button', { name: /as PNG/ })).toBeEnabled();

  const bar = await tallestBar(tokens);
  // One shape per model holds its 60 days' bars, not one per bar.
  expect(bar.paths).toBeLessThan(DAYS);
  await page.mouse.click(bar.x, bar.y);
  const day = dayName(BUSIEST);
  await expect(page.getByTestId('filter')).toHaveValue(`after:${day}T00:00 before:${dayName(BUSIEST + 1)}T00:00 model:"${MODELS[BUSIEST % 2]}"`);
  await expect(page.getByTestId('session-list')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('session-row')).toHaveCount(1);
});

test('the heatmap, drawn on canvas: a click on a cell narrows the list to that hour, and it saves as an SVG of its cells', async ({ page, dailyVault }) => {
  await indexed(dailyVault);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(dailyVault.url);
  await expect(page.getByTestId('usage-dashboard')).toHaveAttribute('aria-busy', 'false');
  const heatmap = page.getByTestId('usage-chart-heatmap');
  const canvas = heatmap.getByTestId('usage-chart-canvas');
  await expect(canvas.locator('canvas').first()).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    heatmap.getByRole('button', { name: 'Save "Activity by day and hour" as SVG' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('activity-by-day-and-hour.svg');
  const svg = await readFile(await download.path(), 'utf8');
  expect(svg).toMatch(/^<svg/);
  // Every one of the 60 most recent days is a row, named on the axis.
  expect(svg).toContain(dayName(DAYS - 1));
  expect(svg).toContain(dayName(DAYS - 60));

  // Every session ran at noon UTC: the cell at 12:00 of the third row from the top (the plot starts 8 px down, 80 px less tall, 60 rows).
  await canvas.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the heatmap has no box');
  const [left, right, top, bottom] = [88, 16, 8, 72];
  const x = box.x + left + ((box.width - left - right) * 12.5) / 24;
  const y = box.y + top + ((box.height - top - bottom) * 2.5) / 60;
  await page.mouse.click(x, y);
  await expect(page.getByTestId('filter')).toHaveValue(/^after:(\d{4}-\d{2}-\d{2})T12:00 before:\1T13:00$/);
  await expect(page.getByTestId('session-list')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('session-row')).toHaveCount(1);
});
