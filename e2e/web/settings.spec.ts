// The Settings page: reachable from the top bar at #/settings, theme and text size applied and remembered, folders, auto-keep, prices, data folder, keys.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, callApi } from './vault-fixture.ts';

const rootAttr = (page: Page, name: string) => page.evaluate((n) => document.documentElement.getAttribute(n), name);
const bodyStyle = (page: Page, prop: 'backgroundColor' | 'fontSize') => page.evaluate((p) => getComputedStyle(document.body)[p], prop);

test('the top bar opens Settings at #/settings; reload keeps it, Back and Close leave it', async ({ page, vault }) => {
  await page.goto(vault.url);
  await page.locator('[data-testid="session-row"][data-key="jido-code:j-1"]').click();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'jido-code:j-1');

  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-page')).toBeVisible();
  await expect(page).toHaveURL(/#\/settings$/);
  await page.reload();
  await expect(page.getByTestId('settings-page')).toBeVisible();

  // Back returns to the session that was open.
  await page.goBack();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'jido-code:j-1');
  await expect(page.getByTestId('settings-page')).toBeHidden();
  await page.goForward();
  await expect(page.getByTestId('settings-page')).toBeVisible();

  // Opening a session from the list leaves Settings for it.
  await page.locator('[data-testid="session-row"][data-key="vizier:v-1"]').click();
  await expect(page.getByTestId('settings-page')).toBeHidden();
  await expect(page).toHaveURL(/#\/session\/vizier%3Av-1/);

  await page.getByTestId('settings-button').click();
  await page.getByTestId('settings-close').click();
  await expect(page.getByTestId('settings-page')).toBeHidden();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'vizier:v-1');
  // The Usage button takes the main area too.
  await page.getByTestId('settings-button').click();
  await page.getByTestId('usage-button').click();
  await expect(page.getByTestId('settings-page')).toBeHidden();
  await expect(page).not.toHaveURL(/#\/settings/);
});

test('theme and text size apply at once, everywhere, and are remembered; "system" follows the system', async ({ page, browser, vault }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${vault.url}#/settings`);
  await expect(page.getByTestId('settings-page')).toBeVisible();
  expect(await rootAttr(page, 'data-theme')).toBe('light');
  const lightBg = await bodyStyle(page, 'backgroundColor');

  await page.getByTestId('theme-dark').check();
  expect(await rootAttr(page, 'data-theme')).toBe('dark');
  expect(await bodyStyle(page, 'backgroundColor')).not.toBe(lightBg);
  const normalSize = parseFloat(await bodyStyle(page, 'fontSize'));
  await page.getByTestId('font-size-larger').check();
  expect(parseFloat(await bodyStyle(page, 'fontSize'))).toBeGreaterThan(normalSize * 1.15);

  await page.reload();
  await expect(page.getByTestId('theme-dark')).toBeChecked();
  expect(await rootAttr(page, 'data-theme')).toBe('dark');
  await expect(page.getByTestId('font-size-larger')).toBeChecked();

  // Another window with storage of its own (another browser, or serve on another port) gets the same from the data folder.
  const other = await browser.newContext({ colorScheme: 'light' });
  const elsewhere = await other.newPage();
  await elsewhere.goto(vault.url);
  await expect.poll(() => rootAttr(elsewhere, 'data-theme')).toBe('dark');
  expect(await rootAttr(elsewhere, 'data-font-size')).toBe('larger');
  await other.close();

  // Same as the system: the page follows the system's scheme as it changes.
  await page.getByTestId('theme-system').check();
  expect(await rootAttr(page, 'data-theme')).toBe('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => rootAttr(page, 'data-theme')).toBe('dark');
});

test('a text size whose save never reached the data folder is kept after a reload, and saved then', async ({ page, vault }) => {
  await page.goto(`${vault.url}#/settings`);
  await page.getByTestId('theme-dark').check();
  await expect.poll(async () => (await callApi<{ theme: string } | null>(vault, 'getUiPreferences', {}))?.theme).toBe('dark');

  // The next save is lost on its way (a dropped connection, or a reload that cancels it) and the page reloads.
  await page.route('**/api/setUiPreferences', (route) => route.abort());
  const lost = page.waitForEvent('requestfailed', (r) => r.url().includes('/api/setUiPreferences'));
  await page.getByTestId('font-size-larger').check();
  await lost;
  await page.unroute('**/api/setUiPreferences');
  await page.reload();
  // The reloaded window sends the choice the data folder missed, rather than taking the folder's older one.
  await expect.poll(async () => (await callApi<{ fontSize: string } | null>(vault, 'getUiPreferences', {}))?.fontSize).toBe('larger');
  await expect(page.getByTestId('font-size-larger')).toBeChecked();
  expect(await rootAttr(page, 'data-font-size')).toBe('larger');
});

test('folders are listed with their counts, scanned again, removed and added from Settings', async ({ page, vault }) => {
  await page.goto(`${vault.url}#/settings`);
  const folders = page.getByTestId('settings-folder');
  await expect(folders).toHaveCount(1);
  await expect(folders.first()).toContainText(vault.root);
  await expect(folders.first()).toContainText('2');

  await page.getByTestId('rescan-all').click();
  await expect(page.getByTestId('rescan-all')).toHaveText('Scan all again');
  await folders
    .first()
    .getByRole('button', { name: `Scan again: ${vault.root}` })
    .click();
  await expect(folders.first()).toContainText('1 unreadable');

  await folders
    .first()
    .getByRole('button', { name: `Remove ${vault.root}` })
    .click();
  await expect(folders).toHaveCount(0);
  await expect(page.getByTestId('session-row')).toHaveCount(0);

  await page.locator('#settings-add-root-input').fill(vault.root);
  await page.getByTestId('settings-page').getByTestId('add-root-button').click();
  await expect(folders).toHaveCount(1);
  await expect(page.getByTestId('session-row')).not.toHaveCount(0);
});

test('auto-keep is switched from Settings and saved by the vault', async ({ page, vault }) => {
  await page.goto(`${vault.url}#/settings`);
  const autoKeep = page.getByTestId('settings-auto-keep');
  await expect(autoKeep).toBeEnabled();
  await expect(autoKeep).not.toBeChecked();
  await autoKeep.check();
  await expect.poll(async () => (await callApi<{ autoKeep: boolean }>(vault, 'getVaultSettings', {})).autoKeep).toBe(true);
  await page.reload();
  await expect(page.getByTestId('settings-auto-keep')).toBeChecked();
});

test('prices: where pricing.json is, what it sets, and why it is not used when it is wrong', async ({ page, vault }) => {
  await page.goto(`${vault.url}#/settings`);
  const prices = page.getByTestId('settings-prices');
  const file = join(vault.dataDir, 'pricing.json');
  await expect(prices.getByTestId('pricing-path')).toHaveText(file);
  await expect(prices.getByTestId('pricing-state')).toContainText('not there');

  await writeFile(file, JSON.stringify({ 'my-model': { input: 3, output: 15, cacheRead: 0.3 } }));
  await prices.getByTestId('pricing-reload').click();
  await expect(prices.getByTestId('pricing-state')).toHaveText('(1 price)');
  await expect(prices.getByTestId('pricing-entries')).toContainText('my-model');
  await expect(prices.getByTestId('pricing-entries')).toContainText('$15');

  await writeFile(file, '{ not json');
  await prices.getByTestId('pricing-reload').click();
  await expect(prices.getByTestId('pricing-problem')).toContainText('is not valid JSON');
});

test('Settings says where the data lives and lists the keyboard shortcuts', async ({ page, vault }) => {
  await page.goto(`${vault.url}#/settings`);
  await expect(page.getByTestId('settings-data-dir')).toHaveText(vault.dataDir);
  const keys = page.getByTestId('settings-shortcuts');
  await expect(keys).toContainText('command palette');
  await expect(keys).toContainText('previous or next prompt');
  await expect(keys).toContainText('move in the list');
});
