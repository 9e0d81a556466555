// The dashboard's figures are the usage report's (what `session-vault usage daily --json` prints) for the same query: totals, tokens and cost per day.
import type { Page } from '@playwright/test';
import { test, expect, callApi, searchFor } from './vault-fixture.ts';
import { indexed } from './format-samples.ts';

interface Figures {
  totalTokens: number;
  costUsd: number;
  unpricedCalls: number;
  sessions: number;
}
interface Report {
  rows: Array<Figures & { period: string }>;
  totals: Figures;
  problems: string[];
}

/** The dashboard's way of writing dollars (usage-options.ts `usd`, UsageDashboard.tsx `costText`). */
const usd = (n: number) => `$${n.toFixed(n !== 0 && Math.abs(n) < 1 ? 4 : 2)}`;
const costText = (f: Pick<Figures, 'costUsd' | 'unpricedCalls'>) =>
  f.unpricedCalls ? `≥ ${usd(f.costUsd)} (${f.unpricedCalls.toLocaleString('en-US')} calls unpriced)` : usd(f.costUsd);

/** A chart's data table, opened, as its rows' cells. */
async function tableOf(page: Page, chart: string): Promise<string[][]> {
  const card = page.getByTestId(`usage-chart-${chart}`);
  const details = card.locator('details.usage-chart-data');
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  await expect(details.locator('tbody tr').first()).toBeVisible();
  return details.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')));
}

test('the dashboard shows the usage report’s totals and each day’s tokens and cost, for every query typed', async ({ page, samplesVault }) => {
  await indexed(samplesVault);
  await page.goto(samplesVault.url);
  const dashboard = page.getByTestId('usage-dashboard');
  await expect(dashboard).toHaveAttribute('aria-busy', 'false');
  const timezone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);

  for (const query of ['', 'source:codex', 'source:claude-code', 'project:demo', 'model:claude-opus-4-7', 'source:gemini after:2026-01-01']) {
    if (query) await searchFor(page, query);
    await expect(page.getByTestId('usage-scope')).toContainText(query || 'All sessions');
    await expect(dashboard).toHaveAttribute('aria-busy', 'false');
    const report = await callApi<Report>(samplesVault, 'usageReport', { period: 'daily', timezone, ...(query ? { query } : {}) });
    expect(report.rows.length, `days with usage for "${query}"`).toBeGreaterThan(0);

    await expect(page.getByTestId('usage-total-tokens'), `tokens for "${query}"`).toHaveText(report.totals.totalTokens.toLocaleString('en-US'));
    await expect(page.getByTestId('usage-total-cost'), `cost for "${query}"`).toHaveText(costText(report.totals));
    // The dashboard counts a session whose calls have no known time among those with usage; the report, which puts
    // calls on days, leaves such calls out and says so (the samples' OpenCode stores are dated in January 1970's
    // first hour, the "no time" hour). Where nothing is undated the counts are the same.
    const undated = report.problems.some((p) => p.includes('no known time'));
    expect(undated, `undated usage for "${query}"`).toBe(query === '');
    const sessions = page.getByTestId('usage-dashboard-totals').locator('div', { hasText: 'Sessions with usage' }).locator('dd');
    if (!undated) await expect(sessions, `sessions for "${query}"`).toHaveText(report.totals.sessions.toLocaleString('en-US'));

    const tokenDays = (await tableOf(page, 'tokens')).map(([day, tokens]) => [day, tokens]);
    expect(tokenDays, `tokens per day for "${query}"`).toEqual(report.rows.map((r) => [r.period, r.totalTokens.toLocaleString('en-US')]));
    const costDays = (await tableOf(page, 'cost')).map(([day, cost]) => [day, cost]);
    expect(costDays, `cost per day for "${query}"`).toEqual(report.rows.map((r) => [r.period, costText(r)]));
  }
});
