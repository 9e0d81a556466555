// The usage dashboard on the sample corpus: it follows the search box, a click on a day or a model narrows the list, dark mode and the text size, no serious a11y problem.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { test, expect, searchFor } from './vault-fixture.ts';
import { indexed } from './format-samples.ts';

const totalTokens = (page: Page) => page.getByTestId('usage-total-tokens').innerText();

const chart = (page: Page, id: string) => page.getByTestId(`usage-chart-${id}`);

/** The chart's background: ECharts' SVG renderer draws it as the first rect. */
const background = (c: Locator) => c.locator('svg rect').first().getAttribute('fill');

/** The center of the tallest bar of a bar chart (a filled path drawn in the plot, not the legend's small marks). */
async function tallestBar(c: Locator): Promise<{ x: number; y: number }> {
  const boxes = await c.locator('svg path[fill]').evaluateAll((paths) =>
    paths
      .filter((p) => p.getAttribute('fill') !== 'none' && !p.getAttribute('fill')?.startsWith('url'))
      .map((p) => p.getBoundingClientRect())
      .filter((r) => r.width > 3 && r.height > 3)
      .map((r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2, h: r.height })),
  );
  const top = boxes.sort((a, b) => b.h - a.h)[0];
  if (!top) throw new Error('the chart drew no bar');
  return top;
}

/** The center of the longest bar of a horizontal bar chart (the top models and projects). */
async function longestBar(c: Locator): Promise<{ x: number; y: number }> {
  const boxes = await c.locator('svg path[fill]').evaluateAll((paths) =>
    paths
      .filter((p) => p.getAttribute('fill') !== 'none' && !p.getAttribute('fill')?.startsWith('url'))
      .map((p) => p.getBoundingClientRect())
      .filter((r) => r.width > 3 && r.height > 3)
      .map((r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width })),
  );
  const top = boxes.sort((a, b) => b.w - a.w)[0];
  if (!top) throw new Error('the chart drew no bar');
  return top;
}

/** The largest font size of the chart's SVG text (axis labels and names, legend), in px. */
const chartTextPx = (c: Locator) =>
  c.locator('svg text').evaluateAll((texts) => Math.max(0, ...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) || 0)));

test('the dashboard is the landing view, follows the search box, and a click on a day narrows the list', async ({ page, samplesVault }) => {
  await indexed(samplesVault);
  await page.goto(samplesVault.url);
  const dashboard = page.getByTestId('usage-dashboard');
  await expect(dashboard).toBeVisible();
  await expect(dashboard).toHaveAttribute('aria-busy', 'false');
  await expect.poll(async () => Number((await totalTokens(page)).replaceAll(/\D/g, ''))).toBeGreaterThan(0);
  const all = await totalTokens(page);
  await expect(chart(page, 'tokens').locator('svg')).toBeVisible();
  // The heatmap's cells are drawn on a canvas (a thousand and more SVG elements made the first paint slow).
  await expect(chart(page, 'heatmap').locator('canvas').first()).toBeVisible();

  // The same query syntax filters the charts.
  await searchFor(page, 'source:codex');
  await expect(page.getByTestId('usage-scope')).toContainText('source:codex');
  await expect(dashboard).toHaveAttribute('aria-busy', 'false');
  await expect.poll(() => totalTokens(page)).not.toBe(all);
  const codexSummary = await chart(page, 'tokens').getByTestId('usage-chart-canvas').getAttribute('aria-label');
  expect(codexSummary).toMatch(/Tokens per day by model/);
  const listed = await page.getByTestId('session-row').count();

  // A click on a day's bar puts that day in the box: the list shows only the sessions of that day.
  const bar = await tallestBar(chart(page, 'tokens'));
  await page.mouse.click(bar.x, bar.y);
  await expect(page.getByTestId('filter')).toHaveValue(/source:codex after:\d{4}-\d{2}-\d{2}T00:00 before:\d{4}-\d{2}-\d{2}T00:00/);
  await expect(page.getByTestId('session-list')).toHaveAttribute('aria-busy', 'false');
  await expect.poll(() => page.getByTestId('session-row').count()).toBeLessThan(listed);
  expect(await page.getByTestId('session-row').count()).toBeGreaterThan(0);
  await expect(dashboard).toHaveAttribute('aria-busy', 'false');
  await expect(chart(page, 'tokens').getByTestId('usage-chart-canvas')).not.toHaveAttribute('aria-label', codexSummary ?? '');
});

test('the charts follow dark mode, and axe finds no serious or critical problem on the dashboard', async ({ page, samplesVault }) => {
  // axe checks every node of the dashboard twice (light and dark): seconds each on a busy machine.
  test.setTimeout(120_000);
  await indexed(samplesVault);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(samplesVault.url);
  const dashboard = page.getByTestId('usage-dashboard');
  await expect(dashboard).toHaveAttribute('aria-busy', 'false');
  const tokens = chart(page, 'tokens');
  await expect(tokens.locator('svg')).toBeVisible();
  const light = await background(tokens);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => background(tokens)).not.toBe(light);
  const dark = await background(tokens);
  expect(dark).toBe(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()));

  // Every chart has a name for screen readers and its data as a table.
  const charts = dashboard.locator('figure.usage-chart');
  expect(await charts.count()).toBeGreaterThanOrEqual(9);
  for (const c of await charts.all()) {
    await expect(c.locator('h3')).not.toBeEmpty();
    await expect(c.getByTestId('usage-chart-canvas')).toHaveAttribute('role', 'img');
  }
  await tokens.locator('details summary').click();
  await expect(tokens.locator('table tbody tr').first()).toBeVisible();

  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).include('[data-testid="usage-dashboard"]').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${scheme} mode`,
    ).toEqual([]);
  }
});

test('a chart saves as SVG and PNG, and a session shows its cumulative usage per turn', async ({ page, samplesVault }) => {
  await indexed(samplesVault);
  await page.goto(samplesVault.url);
  await expect(page.getByTestId('usage-dashboard')).toHaveAttribute('aria-busy', 'false');
  const tokens = chart(page, 'tokens');
  const [svg] = await Promise.all([page.waitForEvent('download'), tokens.getByRole('button', { name: 'Save "Tokens per day" as SVG' }).click()]);
  expect(svg.suggestedFilename()).toBe('tokens-per-day.svg');
  const [png] = await Promise.all([page.waitForEvent('download'), tokens.getByRole('button', { name: 'Save "Tokens per day" as PNG' }).click()]);
  expect(png.suggestedFilename()).toBe('tokens-per-day.png');

  await searchFor(page, 'source:claude-code');
  await page.getByTestId('session-row').first().click();
  await page.locator('[role="tab"][data-tab="usage"]').click();
  const curve = page.getByTestId('usage-curve');
  await expect(curve.locator('h3')).toHaveText('Tokens and cost per turn (cumulative)');
  await expect(curve.getByTestId('usage-chart-canvas')).toHaveAttribute('aria-label', /turns; after the last, [\d,]+ tokens/);
  // A Cline task records its usage per request to the model, not per message: the curve is drawn from those requests.
  await searchFor(page, 'source:cline');
  await page.getByTestId('session-row').first().click();
  await page.locator('[role="tab"][data-tab="usage"]').click();
  await expect(page.getByTestId('usage-curve').getByTestId('usage-chart-canvas')).toHaveAttribute(
    'aria-label',
    /^1 turn; after the last, 3,420 tokens and \$0\.0168 in all\.$/,
  );
  // The top bar's Usage button brings the dashboard back.
  await page.getByTestId('usage-button').click();
  await expect(page.getByTestId('usage-dashboard')).toBeVisible();
});

test('a click on a model narrows the list to that model’s sessions, from the top models and from the days stacked by model', async ({ page, samplesVault }) => {
  await indexed(samplesVault);
  await page.goto(samplesVault.url);
  const dashboard = page.getByTestId('usage-dashboard');
  await expect(dashboard).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('session-list')).toHaveAttribute('aria-busy', 'false');
  const listed = await page.getByTestId('session-row').count();
  const models = chart(page, 'models');
  await expect(models.locator('svg')).toBeVisible();
  const top = (await models.getByTestId('usage-chart-canvas').getAttribute('aria-label'))?.match(/first: (.+)\.$/)?.[1];
  expect(top).toBeTruthy();

  await models.scrollIntoViewIfNeeded();
  const bar = await longestBar(models);
  await page.mouse.click(bar.x, bar.y);
  await expect(page.getByTestId('filter')).toHaveValue(`model:"${top}"`);
  await expect(page.getByTestId('session-list')).toHaveAttribute('aria-busy', 'false');
  await expect.poll(() => page.getByTestId('session-row').count()).toBeLessThan(listed);
  expect(await page.getByTestId('session-row').count()).toBeGreaterThan(0);
  await expect(dashboard).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('usage-scope')).toContainText(`model:"${top}"`);

  // A bar of the days stacked by model: that day and that model.
  await searchFor(page, '');
  await expect(page.getByTestId('usage-breakdown')).toHaveValue('model');
  await expect(dashboard).toHaveAttribute('aria-busy', 'false');
  await chart(page, 'tokens').scrollIntoViewIfNeeded();
  const day = await tallestBar(chart(page, 'tokens'));
  await page.mouse.click(day.x, day.y);
  await expect(page.getByTestId('filter')).toHaveValue(/^after:\d{4}-\d{2}-\d{2}T00:00 before:\d{4}-\d{2}-\d{2}T00:00 model:"[^"]+"$/);
  await expect(page.getByTestId('session-list')).toHaveAttribute('aria-busy', 'false');
  await expect.poll(() => page.getByTestId('session-row').count()).toBeLessThan(listed);
});

test('the charts’ text follows the text size setting', async ({ page, samplesVault }) => {
  await indexed(samplesVault);
  await page.goto(samplesVault.url);
  await expect(page.getByTestId('usage-dashboard')).toHaveAttribute('aria-busy', 'false');
  const tokens = chart(page, 'tokens');
  await expect(tokens.locator('svg text').first()).toBeVisible();
  const normal = await chartTextPx(tokens);
  expect(normal).toBeGreaterThan(0);

  await page.goto(`${samplesVault.url}#/settings`);
  await page.getByTestId('font-size-larger').check();
  await page.getByTestId('usage-button').click();
  await expect(page.getByTestId('usage-dashboard')).toHaveAttribute('aria-busy', 'false');
  await expect.poll(() => chartTextPx(chart(page, 'tokens'))).toBeGreaterThan(normal * 1.15);

  // Changed while the dashboard is shown (another window's choice arrives the same way), the charts follow at once.
  await page.evaluate(() => document.documentElement.setAttribute('data-font-size', 'small'));
  await expect.poll(() => chartTextPx(chart(page, 'tokens'))).toBeLessThan(normal);
});

test('no axis label of the days’ charts is cut off at the chart’s edge', async ({ page, samplesVault }) => {
  await indexed(samplesVault);
  await page.goto(samplesVault.url);
  await expect(page.getByTestId('usage-dashboard')).toHaveAttribute('aria-busy', 'false');
  for (const id of ['tokens', 'cost']) {
    const svg = chart(page, id).locator('svg').first();
    await expect(svg).toBeVisible();
    // The last day's label, centred on the last bar, ran past the right edge ("2026-08-0" of 2026-08-03).
    const outside = await svg.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return (
        [...el.querySelectorAll('text')]
          .map((t) => ({ text: t.textContent ?? '', r: t.getBoundingClientRect() }))
          // The days' labels (the scrolling legend's other pages lie outside on purpose).
          .filter(({ text, r }) => /^\d{4}-\d{2}-\d{2}$/.test(text) && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
          .map(({ text }) => text)
      );
    });
    expect(outside, `${id}: labels past the chart's edge`).toEqual([]);
  }
});

test('the dashboard’s styles do not spread a session header’s tokens and cost apart', async ({ page, samplesVault }) => {
  await indexed(samplesVault);
  await page.goto(samplesVault.url);
  await expect(page.getByTestId('usage-dashboard-totals')).toBeVisible();
  await searchFor(page, 'source:claude-code');
  await page.getByTestId('session-row').first().click();
  const totals = page.getByTestId('usage-totals');
  await expect(totals).toContainText('tokens');
  // The header's own line spaces them 16 px apart; the dashboard's figures (28 px) once shared its class name.
  const gap = await totals.evaluate((el) => {
    const [tokens, cost] = [...el.children].map((c) => c.getBoundingClientRect());
    return cost!.left - tokens!.right;
  });
  expect(gap).toBeLessThanOrEqual(17);
});
