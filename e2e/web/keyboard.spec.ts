// The keyboard alone: ? opens the shortcut help, j/k move, o opens, e shares the open session; letters typed in the search box stay text.
import { test, expect } from './vault-fixture.ts';

test('? shows the keys, j/k move the selection, o opens it and e opens sharing for it', async ({ page, vault }) => {
  await page.goto(vault.url);
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(3);
  await page.getByTestId('session-list').focus();

  await page.keyboard.press('?');
  const help = page.getByTestId('search-help-popover');
  await expect(help.getByTestId('shortcut-help')).toContainText('move in the list');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  await page.keyboard.press('j');
  const first = await rows.nth(0).getAttribute('data-key');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('j');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('k');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('o');
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', first!);
  await expect(page.getByTestId('message').first()).toBeVisible();

  await page.keyboard.press('e');
  await expect(page.getByTestId('bundle-share-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('bundle-share-dialog')).toBeHidden();

  // In the search box the same letters are text.
  await page.keyboard.press('/');
  await page.keyboard.type('jo?');
  await expect(page.getByTestId('filter')).toHaveValue('jo?');
  await expect(help).toBeHidden();
});

test('keys pressed in a dialog stay there: s, j, Ctrl+F and Esc do not star, move, find or clear the search behind it', async ({ page, vault }) => {
  await page.goto(vault.url);
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(3);
  await page.getByTestId('filter').fill('a');
  await expect(page.getByTestId('filter')).toHaveValue('a');
  await rows.first().click();
  await expect(page.getByTestId('star-toggle')).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('session-list').focus();
  await page.keyboard.press('e');
  const dialog = page.getByTestId('bundle-share-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('s');
  await page.keyboard.press('j');
  await page.keyboard.press('Control+f');
  await expect(page.getByTestId('star-toggle')).toHaveAttribute('aria-pressed', 'false');
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('find-bar')).toHaveCount(0);
  // Esc closes the dialog and only that: the search stays.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('filter')).toHaveValue('a');
  // The same in the Vault panel, which is no modal.
  await page.getByRole('button', { name: /^Vault/ }).click();
  const panel = page.getByTestId('vault-panel');
  await panel.getByRole('button').first().focus();
  await page.keyboard.press('s');
  await expect(page.getByTestId('star-toggle')).toHaveAttribute('aria-pressed', 'false');
});
