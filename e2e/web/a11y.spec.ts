// axe-core on every view, in light and dark (no serious or critical violation), and screenshots of each view at 1440x900, 1024x640 and 800x600.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, callApi, jidoSession, searchFor } from './vault-fixture.ts';
import { indexed, openByUrl, sessionPerFormat } from './format-samples.ts';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 640 },
  { width: 800, height: 600 },
];

const themeIs = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);

/**
 * Runs axe in the light and the dark theme over the whole page, or over `within` (a selector) when the rest of the page
 * was checked already; every serious or critical violation is added to `found`.
 */
async function axeBoth(page: Page, view: string, found: string[], within?: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => themeIs(page)).toBe(scheme);
    const builder = new AxeBuilder({ page });
    const results = await (within ? builder.include(within) : builder).analyze();
    for (const v of results.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      found.push(
        `${view} (${scheme}) ${v.id}: ${v.nodes
          .slice(0, 6)
          .map((n) => n.target.join(' '))
          .join(' | ')}${v.nodes.length > 6 ? ` (+${v.nodes.length - 6})` : ''}`,
      );
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The view as it is now, at each of the three window sizes, into the test's output folder. */
async function screenshots(page: Page, view: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    // One frame for the layout (and the charts' resize observers) to settle.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: test.info().outputPath(`${view}-${size.width}x${size.height}.png`) });
  }
  if (before) await page.setViewportSize(before);
}

// The budgets below are about twice what each test takes here (2 cores): CI ran them ~1.4x slower.
test('the list, search and the usage dashboard', async ({ page, samplesVault }) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  await indexed(samplesVault);
  await page.goto(samplesVault.url);
  await expect(page.getByTestId('usage-dashboard')).toHaveAttribute('aria-busy', 'false');
  await axeBoth(page, 'list and dashboard', found);
  await screenshots(page, 'list-dashboard');

  await page.getByTestId('facets-toggle').click();
  await expect(page.getByTestId('facet-groups')).toBeVisible();
  await searchFor(page, 'test');
  await expect(page.getByTestId('row-snippet').first()).toBeVisible();
  await axeBoth(page, 'search with Refine open', found);
  await screenshots(page, 'search');
  expect(found).toEqual([]);
});

// Two halves of the formats, so the two workers share them.
for (const half of [0, 1]) {
  test(`the detail view of a session of every format (${half === 0 ? 'first' : 'second'} half)`, async ({ page, samplesVault }) => {
    test.setTimeout(420_000);
    const found: string[] = [];
    const sessions = await sessionPerFormat(samplesVault);
    expect(sessions.length).toBeGreaterThanOrEqual(20);
    await page.goto(samplesVault.url);
    // The whole page once (list, top bar and detail); then the detail of each format.
    if (half === 0) {
      await openByUrl(page, sessions.find((s) => s.format === 'claude-code')?.key ?? sessions[0]!.key);
      await axeBoth(page, 'detail page', found);
      await screenshots(page, 'detail');
      for (const tab of ['operations', 'info', 'raw']) {
        await page.locator(`[role="tab"][data-tab="${tab}"]`).click();
        await expect(page.locator(`[role="tab"][data-tab="${tab}"]`)).toHaveAttribute('aria-selected', 'true');
        await axeBoth(page, `detail, ${tab} tab`, found, '[data-testid="detail"]');
      }
    }
    for (const { format, key } of sessions.filter((_, i) => i % 2 === half)) {
      await openByUrl(page, key);
      await axeBoth(page, `detail of ${format}`, found, '[data-testid="detail"]');
      await page.screenshot({ path: test.info().outputPath(`detail-${format}-1440x900.png`) });
    }
    expect(found).toEqual([]);
  });
}

test('the comparison view', async ({ page, compareVault }) => {
  // Two axe runs over the whole page and three screenshots: 21-22 s locally, 30.4 s (over the 30 s default) on CI.
  test.setTimeout(90_000);
  const found: string[] = [];
  await indexed(compareVault);
  const { sessions } = await callApi<{ sessions: Array<{ key: string }> }>(compareVault, 'listSessions', {});
  const [a, b] = sessions;
  await page.goto(`${compareVault.url}#/compare/${encodeURIComponent(a!.key)}/${encodeURIComponent(b!.key)}`);
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.getByTestId('compare-view')).toHaveAttribute('aria-busy', 'false');
  await axeBoth(page, 'compare', found);
  await screenshots(page, 'compare');
  expect(found).toEqual([]);
});

test('Settings and the command palette', async ({ page, vault }) => {
  // Two themes, the settings page (with the price form) and the palette, each checked by axe: 26 s at load 17.
  test.setTimeout(150_000);
  const found: string[] = [];
  await writeFile(join(vault.dataDir, 'pricing.json'), JSON.stringify({ 'my-model': { input: 3, output: 15 } }));
  await page.goto(`${vault.url}#/settings`);
  await expect(page.getByTestId('pricing-entries')).toBeVisible();
  await expect(page.getByTestId('settings-auto-keep')).toBeEnabled();
  await axeBoth(page, 'settings', found);
  await screenshots(page, 'settings');

  await page.locator('[data-testid="session-row"][data-key="jido-code:j-1"]').click();
  await expect(page.getByTestId('message').first()).toBeVisible();
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette')).toBeVisible();
  await axeBoth(page, 'palette', found);
  await screenshots(page, 'palette');
  await page.keyboard.type('compare');
  await page.keyboard.press('Enter');
  await axeBoth(page, 'palette, compare page', found);
  expect(found).toEqual([]);
});

// Built here so no key-shaped string sits in the repository.
const TOKEN = `ghp_${'k3Y9'.repeat(9)}`;
const LINK = 'https://docs.example.com/guide';

test('every dialog and panel: share with findings, import, delete, link, shortcuts, vault panel', async ({ page, vault }, testInfo) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  const doc = JSON.parse(jidoSession('j-a11y', 'dialog-check')) as { conversation: Array<{ content: string }> };
  doc.conversation[0]!.content = `Deploy with GITHUB_TOKEN=${TOKEN} please`;
  doc.conversation[1]!.content = `Done; see [the guide](${LINK}).`;
  await writeFile(join(vault.jidoDir, 'j-a11y.json'), JSON.stringify(doc));
  await page.goto(vault.url);
  await page.locator('[data-testid="session-row"][data-key="jido-code:j-a11y"]').click();
  await expect(page.getByTestId('message').first()).toBeVisible();

  // Share, with the secrets review.
  await page.keyboard.press('e');
  const share = page.getByTestId('bundle-share-dialog');
  await expect(share.getByTestId('bundle-finding').first()).toBeVisible();
  await axeBoth(page, 'share dialog', found);
  await screenshots(page, 'dialog-share');
  const downloading = page.waitForEvent('download');
  await share.getByTestId('bundle-export').click();
  const zip = testInfo.outputPath('a11y.zip');
  await (await downloading).saveAs(zip);
  await share.getByTestId('bundle-close').click();
  await expect(share).toHaveCount(0);

  // Import (the same bundle: its report says what was skipped).
  await page.getByTestId('bundle-import-input').setInputFiles(zip);
  const report = page.getByTestId('bundle-import-dialog');
  await expect(report).toBeVisible();
  await expect(report.getByRole('button').first()).toBeVisible();
  await axeBoth(page, 'import dialog', found);
  await screenshots(page, 'dialog-import');
  await page.keyboard.press('Escape');
  await expect(report).toHaveCount(0);

  // The link confirmation.
  await page.getByRole('link', { name: 'the guide' }).click();
  await expect(page.getByTestId('link-confirm')).toBeVisible();
  await axeBoth(page, 'link confirmation', found);
  await screenshots(page, 'dialog-link');
  await page.keyboard.press('Escape');

  // Delete.
  await page.getByTestId('delete-button').click();
  await expect(page.getByTestId('delete-dialog')).toBeVisible();
  await axeBoth(page, 'delete dialog', found);
  await screenshots(page, 'dialog-delete');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('delete-dialog')).toHaveCount(0);

  // The shortcut and syntax help.
  await page.getByTestId('search-help').click();
  await expect(page.getByTestId('search-help-popover')).toBeVisible();
  await axeBoth(page, 'shortcut help', found);
  await screenshots(page, 'dialog-help');
  await page.keyboard.press('Escape');

  // The Vault panel.
  await page.getByTestId('vault-panel-button').click();
  await expect(page.getByTestId('vault-panel')).toBeVisible();
  await axeBoth(page, 'vault panel', found);
  await screenshots(page, 'panel-vault');
  expect(found).toEqual([]);
});
