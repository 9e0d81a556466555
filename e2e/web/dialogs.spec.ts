// Dialogs behave like the platform's: focus moves in and stays in, Esc closes from anywhere, focus returns; "Share list…" offers what the list shows.
import type { Page } from '@playwright/test';
import { test, expect, searchFor } from './vault-fixture.ts';

const focusedTestId = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.closest('[data-testid]')?.getAttribute('data-testid') ?? null);
const focusInside = (page: Page, testId: string) =>
  page.evaluate((id) => Boolean(document.activeElement && document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement)), testId);

test('the share dialog takes focus, keeps Tab inside, closes on Esc from anywhere and gives focus back to its button', async ({ page, vault }) => {
  await page.goto(vault.url);
  await page.locator('[data-testid="session-row"][data-key="jido-code:j-1"]').click();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'jido-code:j-1');
  const share = page.getByTestId('bundle-share');
  await share.focus();
  await share.press('Enter');
  const dialog = page.getByTestId('bundle-share-dialog');
  await expect(dialog).toBeVisible();
  await expect.poll(() => focusInside(page, 'bundle-share-dialog')).toBe(true);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(page, 'bundle-share-dialog')).toBe(true);
  }
  // Esc works wherever focus is in the dialog, not only on one control.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(() => focusedTestId(page)).toBe('bundle-share');
});

test('"Share list…" offers the search results the list shows, not the sessions whose titles hold the words', async ({ page, vault }) => {
  await page.goto(vault.url);
  // The seeded sessions' titles do not contain the word, their conversations do.
  await searchFor(page, 'source:vizier');
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(1);
  const shareList = page.getByTestId('bundle-share-list');
  await expect(shareList).toBeEnabled();
  await expect(shareList).toHaveAttribute('title', /the 1 session the list shows/);
  await shareList.click();
  const dialog = page.getByTestId('bundle-share-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('1 session');
});
