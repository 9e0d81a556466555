// The vault in a browser against `serve`: keep, star/tag/note, filters, a deleted source, fork, resume, delete, trash, prune, clear.
import { access, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, jidoSession, searchFor } from './vault-fixture.ts';

const row = (page: Page, key: string) => page.locator(`[data-testid="session-row"][data-key="${key}"]`);
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

test('keep, star, tag and note a session; it survives its source being deleted; fork; prune dry run', async ({ page, vault }) => {
  await page.goto(vault.url);
  await row(page, 'vizier:v-1').click();
  const detail = page.getByTestId('detail');
  await expect(detail).toHaveAttribute('data-key', 'vizier:v-1');

  await page.getByTestId('keep-button').click();
  await expect(page.getByTestId('kept-status')).toContainText('Kept');
  await expect(page.getByTestId('live-source')).toContainText('session.json');
  await expect(row(page, 'vizier:v-1').getByTestId('row-kept')).toHaveText('kept');

  // The `s` key stars the open session when focus is not in a text field.
  await page.getByTestId('detail-title').click();
  await page.keyboard.press('s');
  await expect(page.getByTestId('star-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(row(page, 'vizier:v-1').getByTestId('row-star')).toBeVisible();

  // Tags and the note live on the Info tab, out of the way of the conversation.
  await page.getByRole('tab', { name: 'Info' }).click();
  await page.getByTestId('tag-input').fill('tiebreak');
  await page.getByTestId('tag-input').press('Enter');
  await expect(detail.getByTestId('tag-chip')).toHaveText(['tiebreak×']);
  await expect(row(page, 'vizier:v-1').getByTestId('row-tag')).toHaveText('tiebreak');

  await page.getByTestId('note-input').fill('Check the merge order before release.');
  await page.getByTestId('note-input').press('Control+Enter');
  await expect(page.getByTestId('note-status')).toHaveText('Saved');
  await page.getByRole('tab', { name: /conversation/i }).click();

  // Starred only: the other sessions leave the list; the text filter still works on top.
  await page.getByTestId('filter-starred').click();
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  await expect(row(page, 'vizier:v-1')).toBeVisible();
  await page.getByTestId('filter-starred').click();
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  await searchFor(page, 'nightly');
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  await page.getByTestId('filter').fill('');

  // The tool deletes its transcript: the vault's copy takes over, annotations and all.
  await rm(join(vault.root, 'orbit', '.vizier', 'sessions', 'v-1', 'session.json'));
  await expect(row(page, 'vizier:v-1').getByTestId('row-kept')).toHaveText('vault copy', { timeout: 5000 });
  await expect(row(page, 'vizier:v-1')).toHaveClass(/source-gone/);
  await expect(page.getByTestId('source-gone')).toContainText('Source deleted — showing the vault’s copy');
  await row(page, 'jido-code:j-1').click();
  await expect(detail).toHaveAttribute('data-key', 'jido-code:j-1');
  await row(page, 'vizier:v-1').click();
  await expect(page.getByTestId('source-gone')).toBeVisible();
  await expect(detail.getByTestId('message')).toHaveCount(2);
  await expect(page.getByTestId('star-toggle')).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('tab', { name: 'Info' }).click();
  await expect(page.getByTestId('note-input')).toHaveValue('Check the merge order before release.');

  // The project folder of this session does not exist here: resume says so instead of offering a command.
  await page.getByTestId('resume-button').click();
  await expect(page.getByTestId('resume-reason')).toContainText('no longer exists');

  await page.getByRole('tab', { name: /conversation/i }).click();
  const first = detail.getByTestId('message').first();
  await first.hover();
  await first.getByTestId('fork-button').click();
  await expect(detail).not.toHaveAttribute('data-key', 'vizier:v-1');
  await expect(detail.getByTestId('message')).toHaveCount(1);
  await expect(detail.getByTestId('message').first()).toContainText('Make merge deterministic');
  await expect(page.getByTestId('kept-status')).toHaveText('In the vault');

  await page.getByTestId('vault-panel-button').click();
  await expect(page.getByTestId('prune-days')).toHaveValue('30');
  await page.getByTestId('prune-preview').click();
  await expect(page.getByTestId('prune-item')).toHaveCount(1);
  await expect(page.getByTestId('prune-item').first()).toHaveAttribute('data-key', 'vizier:v-1');
  await expect(page.getByTestId('prune-confirm')).toHaveText('Prune 1 session');
  // A dry run removes nothing.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('vault-panel')).toHaveCount(0);
  await expect(row(page, 'vizier:v-1')).toBeVisible();
});

test('delete: source files only when ticked, the vault copy to the trash and back, clear all', async ({ page, vault }) => {
  const file = join(vault.jidoDir, 'j-1.json');
  await page.goto(vault.url);
  await row(page, 'jido-code:j-1').click();
  await page.getByTestId('delete-button').click();
  const dialog = page.getByTestId('delete-dialog');
  await expect(dialog.getByTestId('delete-source-file')).toHaveCount(1);
  await expect(dialog.getByTestId('delete-source-file')).not.toBeChecked();
  await expect(dialog.getByTestId('delete-confirm')).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await exists(file)).toBe(true);

  // Kept, then deleted: the copy goes to the trash and the live file stays.
  await page.getByTestId('keep-button').click();
  await expect(page.getByTestId('kept-status')).toBeVisible();
  await page.getByTestId('delete-button').click();
  await expect(dialog.getByTestId('delete-confirm')).toHaveText('Move to trash');
  await dialog.getByTestId('delete-confirm').click();
  await expect(page.getByTestId('vault-notice')).toContainText('trash');
  await expect(page.getByTestId('keep-button')).toBeVisible();
  expect(await exists(file)).toBe(true);
  // The live file still holds the session: it is shown from it, not as removed from disk.
  await expect(page.getByText('This session was removed from disk')).toHaveCount(0);

  await page.getByTestId('vault-panel-button').click();
  await expect(page.getByTestId('trash-row')).toHaveCount(1);
  await page.getByTestId('restore-button').click();
  await expect(page.getByTestId('trash-row')).toHaveCount(0);
  await expect(row(page, 'jido-code:j-1').getByTestId('row-kept')).toBeVisible();

  await page.getByTestId('clear-button').click();
  await expect(page.getByTestId('clear-confirm')).toBeDisabled();
  await page.getByTestId('clear-input').fill('CLEAR');
  await page.getByTestId('clear-confirm').click();
  await expect(page.getByTestId('clear-result')).toHaveText('Moved 1 session to the trash.');
  await expect(row(page, 'jido-code:j-1').getByTestId('row-kept')).toHaveCount(0);
  await page.getByTestId('vault-panel').getByRole('button', { name: 'Close the Vault panel' }).click();

  // Not kept: only the ticked source file is deleted.
  await page.getByTestId('delete-button').click();
  await dialog.getByTestId('delete-source-file').check();
  await expect(dialog.getByTestId('delete-confirm')).toHaveText('Delete 1 source file');
  await dialog.getByTestId('delete-confirm').click();
  await expect(row(page, 'jido-code:j-1')).toHaveCount(0, { timeout: 5000 });
  expect(await exists(file)).toBe(false);
});

test('resume shows the command to copy and where to run it', async ({ page, context, vault }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const doc = JSON.parse(jidoSession('j-r', 'resumable')) as Record<string, unknown>;
  await writeFile(join(vault.jidoDir, 'j-r.json'), JSON.stringify({ ...doc, project_path: vault.root }));
  await page.goto(vault.url);
  await row(page, 'jido-code:j-r').click();
  await page.getByTestId('resume-button').click();
  await expect(page.getByTestId('resume-command')).toHaveValue(/resume j-r/);
  await expect(page.getByTestId('resume-cwd')).toHaveText(vault.root);
  await page.getByTestId('resume-copy').click();
  await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/resume j-r/);
});
