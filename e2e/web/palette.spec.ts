// The command palette (Ctrl/⌘+K): loaded only when first opened, fuzzy matching, opening a session, and running actions.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, jidoSession } from './vault-fixture.ts';

const palette = (page: Page) => page.getByTestId('palette');
const paletteScripts = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /CommandPalette-[^/]*\.js$/.test(e.name)).length);

async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(palette(page)).toBeVisible();
  await expect(page.getByTestId('palette-input')).toBeFocused();
}

test('Ctrl+K loads the palette on first use; a few letters of a title find the session and Enter opens it', async ({ page, vault }) => {
  await page.goto(vault.url);
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  // Not part of the first load.
  expect(await paletteScripts(page)).toBe(0);
  // From anywhere, even the search box.
  await page.getByTestId('filter').focus();
  await openPalette(page);
  expect(await paletteScripts(page)).toBe(1);

  // "nightetl" is not a substring of "nightly-etl": the letters only need to come in order.
  await page.keyboard.type('nightetl');
  const first = palette(page).locator('[cmdk-item]').first();
  await expect(first).toHaveAttribute('data-key', 'jido-code:j-1');
  await expect(first).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'jido-code:j-1');

  // Esc closes it and gives focus back.
  await page.getByTestId('palette-button').click();
  await expect(palette(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();
  await expect(page.getByTestId('palette-button')).toBeFocused();
});

// Each Enter waits for the filtered first item: pressed before the list had filtered, it ran the unfiltered first
// action (seen in CI: "settings" then Enter unstarred the session).
test('actions: theme, settings, usage, keep and star the open session, share it', async ({ page, vault }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(vault.url);
  await page.locator('[data-testid="session-row"][data-key="jido-code:j-1"]').click();
  await expect(page.getByTestId('message').first()).toBeVisible();

  await openPalette(page);
  await page.keyboard.type('dark theme');
  await expect(palette(page).locator('[cmdk-item]').first()).toHaveAttribute('data-action', 'theme-dark');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');

  await openPalette(page);
  await page.keyboard.type('keep');
  await expect(palette(page).locator('[cmdk-item]').first()).toHaveAttribute('data-action', 'keep');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('kept-status')).toBeVisible();

  await openPalette(page);
  await page.keyboard.type('star');
  await expect(palette(page).locator('[cmdk-item]').first()).toHaveAttribute('data-action', 'star');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="session-row"][data-key="jido-code:j-1"] [data-testid="row-star"]')).toBeVisible();

  await openPalette(page);
  await page.keyboard.type('share');
  await expect(palette(page).locator('[cmdk-item]').first()).toHaveAttribute('data-action', 'share');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bundle-share-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('bundle-share-dialog')).toBeHidden();

  await openPalette(page);
  await page.keyboard.type('settings');
  await expect(palette(page).locator('[cmdk-item]').first()).toHaveAttribute('data-action', 'settings');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('settings-page')).toBeVisible();

  await openPalette(page);
  await page.keyboard.type('usage dashboard');
  await expect(palette(page).locator('[cmdk-item]').first()).toHaveAttribute('data-action', 'usage');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('settings-page')).toBeHidden();
  await expect(page.getByTestId('usage-dashboard')).toBeVisible();
});

// A pasted command and Enter in the same instant: the matches follow a deferred copy of the box, so Enter came before
// the list had filtered and ran its unfiltered first action. Enter now waits for the filtered list.
test('Enter pressed in the same instant as the text arrives runs the filtered first item', async ({ page, vault }) => {
  await page.goto(vault.url);
  await page.locator('[data-testid="session-row"][data-key="jido-code:j-1"]').click();
  await expect(page.getByTestId('message').first()).toBeVisible();
  await openPalette(page);
  // Unfiltered, the first item is another action.
  await expect(palette(page).locator('[cmdk-item]').first()).not.toHaveAttribute('data-action', 'settings');
  await page.getByTestId('palette-input').evaluate((input: HTMLInputElement) => {
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    setValue?.call(input, 'settings');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  });
  await expect(page.getByTestId('settings-page')).toBeVisible();
  await expect(palette(page)).toBeHidden();
  // Nothing else ran: the open session is neither starred nor kept.
  await expect(page.locator('[data-testid="session-row"][data-key="jido-code:j-1"] [data-testid="row-star"]')).toHaveCount(0);
});

test('"Compare with…" asks for the other session, then shows the comparison', async ({ page, vault }) => {
  await page.goto(vault.url);
  await page.locator('[data-testid="session-row"][data-key="jido-code:j-1"]').click();
  await expect(page.getByTestId('message').first()).toBeVisible();
  await openPalette(page);
  await page.keyboard.type('compare');
  await expect(palette(page).locator('[cmdk-item]').first()).toHaveAttribute('data-action', 'compare');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('palette-input')).toHaveAttribute('placeholder', /Compare with which session/);
  // The open session is not offered as its own partner.
  await expect(palette(page).locator('[data-key="jido-code:j-1"]')).toHaveCount(0);
  await page.keyboard.type('merge det');
  await expect(palette(page).locator('[cmdk-item]').first()).toHaveAttribute('data-key', 'vizier:v-1');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/compare\/jido-code%3Aj-1\/vizier%3Av-1$/);
});

test('"Add a folder…" takes a path, adds it, and says why when it cannot', async ({ page, vault }) => {
  const extra = join(vault.root, '..', 'extra');
  await mkdir(join(extra, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(extra, '.jido_code', 'sessions', 'x-1.json'), jidoSession('x-1', 'extra-session'));
  await page.goto(vault.url);
  await expect(page.getByTestId('session-row')).toHaveCount(3);

  await openPalette(page);
  await page.keyboard.type('add folder');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/no/such/folder');
  await page.keyboard.press('Enter');
  await expect(palette(page).getByTestId('palette-error')).toBeVisible();

  await page.getByTestId('palette-input').fill(extra);
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
  await expect(page.getByTestId('session-row')).toHaveCount(4);
});
