// The Summary card in a browser against `serve`: a summary saved through the CLI shows with its author; edited by hand, by keyboard; found by search; a ProjectHub file's own; axe-clean.
import { spawn } from 'node:child_process';
import { cp } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { dirname, join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, searchFor } from './vault-fixture.ts';

const row = (page: Page, key: string) => page.locator(`[data-testid="session-row"][data-key="${key}"]`);

/** `session-vault summary <key> <args>` in its own process, on the data folder the server uses (as a script would). */
function summaryByCli(vault: { root: string; dataDir: string }, key: string, args: string[], stdin = ''): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve('out/main/cli.js'), 'summary', key, ...args, '--root', vault.root], {
      env: { ...process.env, SESSION_VAULT_HOME: vault.dataDir, HOME: join(dirname(vault.dataDir), 'home') },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => done({ code, stderr }));
    child.stdin.end(stdin);
  });
}

/** `session-vault summary <key> --set -` with the summary on its standard input. */
const setSummaryByCli = (vault: { root: string; dataDir: string }, key: string, summary: unknown) =>
  summaryByCli(vault, key, ['--set', '-'], JSON.stringify(summary));

test('a summary saved through the CLI shows on the Summary card; edit it by hand with the keyboard; search finds its words', async ({ page, vault }) => {
  const cli = await setSummaryByCli(vault, 'jido-code:j-1', {
    overview: 'Repaired the nightly ETL build after the driver update.',
    decisions: ['Pin the database driver'],
    openItems: ['Add a canary run'],
    tags: ['etl', 'build'],
  });
  expect(cli).toEqual({ code: 0, stderr: '' });

  await page.goto(vault.url);
  await row(page, 'jido-code:j-1').click();
  const card = page.getByTestId('summary-card');
  await expect(card.getByTestId('summary-overview')).toHaveText('Repaired the nightly ETL build after the driver update.');
  await expect(card.getByTestId('summary-author')).toHaveText('cli');
  await expect(card.getByTestId('summary-byline')).toContainText('just now');
  await expect(card.getByRole('listitem')).toHaveText(['Pin the database driver', '☐ Add a canary run']);
  await expect(card.getByTestId('summary-tags')).toHaveText('etlbuild');
  const axe = async () =>
    (await new AxeBuilder({ page }).include('[data-testid="summary-card"]').analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id);
  expect(await axe()).toEqual([]);

  // Edit by keyboard only: the button opens the form with the overview focused, Ctrl+Enter saves.
  await card.getByTestId('summary-edit').focus();
  await page.keyboard.press('Enter');
  const overview = page.getByTestId('summary-overview-input');
  await expect(overview).toBeFocused();
  await expect(overview).toHaveValue('Repaired the nightly ETL build after the driver update.');
  expect(await axe()).toEqual([]);
  await overview.fill('Repaired the nightly ETL build; the flamingo canary now guards it.');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('summary-decisions-input')).toBeFocused();
  await page.getByTestId('summary-outcomes-input').fill('Build green again');
  await page.keyboard.press('Control+Enter');
  await expect(card.getByTestId('summary-overview')).toHaveText('Repaired the nightly ETL build; the flamingo canary now guards it.');
  await expect(card.getByTestId('summary-author')).toHaveText('you');
  await expect(card.getByRole('listitem')).toHaveText(['Pin the database driver', 'Build green again', '☐ Add a canary run']);
  // Focus goes back to the button that opened the form.
  await expect(card.getByTestId('summary-edit')).toBeFocused();

  // Esc leaves the form without saving; an empty overview is refused with a reason, nothing lost.
  await page.keyboard.press('Enter');
  await page.getByTestId('summary-overview-input').fill('');
  await page.getByTestId('summary-save').click();
  await expect(page.getByTestId('summary-error')).toHaveText('Write an overview: two or three sentences on what the session did.');
  await page.keyboard.press('Escape');
  await expect(card.getByTestId('summary-overview')).toHaveText('Repaired the nightly ETL build; the flamingo canary now guards it.');

  // Its words find the session; has:summary lists it beside the Vizier session, whose file records a summary of its own.
  await searchFor(page, 'flamingo');
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  await expect(row(page, 'jido-code:j-1')).toBeVisible();
  await searchFor(page, 'has:summary');
  await expect(page.getByTestId('session-row')).toHaveCount(2);
  await expect(row(page, 'vizier:v-1')).toBeVisible();
  await searchFor(page, '-has:summary');
  await expect(row(page, 'jido-code:j-1')).toHaveCount(0);
  await expect(row(page, 'vizier:v-1')).toHaveCount(0);
});

test("a session's own summary shows on the card, marked as its file's", async ({ page, vault }) => {
  await page.goto(vault.url);
  await row(page, 'vizier:v-1').click();
  const card = page.getByTestId('summary-card');
  await expect(card.getByTestId('summary-overview')).toHaveText('Tie-break fixed');
  await expect(card.getByTestId('summary-byline')).toContainText('by Vizier');
  await expect(card.getByTestId('summary-byline')).toContainText('from the session file');
  await expect(card.getByTestId('summary-remove')).toHaveCount(0);
});

test("a ProjectHub session's own summary_json shows on the card as its file's; edited here, the vault's wins until removed", async ({ page, vault }) => {
  // The ProjectHub sample project (samples/projecthub: vault/sessions/*.md and .projecthub/index.db) appears under the served root.
  await cp(resolve('samples/projecthub'), join(vault.root, 'payments-gateway'), { recursive: true });
  await page.goto(vault.url);
  const key = 'projecthub:2d7a9c4e-6b1f-4e3a-8d5c-7f9e0a1b2c3d';
  await row(page, key).click();
  const card = page.getByTestId('summary-card');
  await expect(card.getByTestId('summary-overview')).toHaveText(
    'Designed and implemented idempotency keys for POST /charges backed by a Postgres table; replays return the stored response body.',
  );
  await expect(card.getByTestId('summary-author')).toHaveText('ProjectHub');
  await expect(card.getByTestId('summary-byline')).toContainText('from the session file');
  await expect(card.getByRole('listitem')).toHaveText([
    'Postgres table instead of Redis so the key insert shares the charge transaction',
    'Store full response body + status for byte-identical replays',
    'migrations/0012_idempotency_keys.sql',
    'src/middleware/idempotency.ts',
    'test/idempotency.test.ts (4 tests)',
    '☐ Add a nightly job to purge keys older than 24h',
    '☐ Document the Idempotency-Key header in the public API guide',
  ]);
  await expect(card.getByTestId('summary-tags')).toHaveText('paymentsidempotencypostgresmiddleware');
  await expect(card.getByTestId('summary-remove')).toHaveCount(0);

  // Edited by hand, the form starts from the file's summary; the saved one is the vault's.
  await card.getByTestId('summary-edit').click();
  await expect(page.getByTestId('summary-overview-input')).toHaveValue(/^Designed and implemented idempotency keys/);
  await page.getByTestId('summary-overview-input').fill('Idempotency keys for POST /charges, kept in Postgres.');
  await page.getByTestId('summary-save').click();
  await expect(card.getByTestId('summary-overview')).toHaveText('Idempotency keys for POST /charges, kept in Postgres.');
  await expect(card.getByTestId('summary-author')).toHaveText('you');
  await expect(card.getByTestId('summary-byline')).not.toContainText('from the session file');
  // Removing the vault's brings the file's own back.
  await card.getByTestId('summary-remove').click();
  await expect(card.getByTestId('summary-author')).toHaveText('ProjectHub');
  await expect(card.getByTestId('summary-overview')).toHaveText(/^Designed and implemented idempotency keys/);
});

test('a session without a summary offers to write one', async ({ page, vault }) => {
  await page.goto(vault.url);
  await row(page, 'jido-code:j-1').click();
  const card = page.getByTestId('summary-card');
  await expect(card).toContainText('No summary yet.');
  await card.getByRole('button', { name: 'Write a summary' }).click();
  await page.getByTestId('summary-overview-input').fill('Made the merge deterministic.');
  await page.getByTestId('summary-tags-input').fill('merge, determinism');
  await page.getByTestId('summary-save').click();
  await expect(card.getByTestId('summary-overview')).toHaveText('Made the merge deterministic.');
  await expect(card.getByTestId('summary-author')).toHaveText('you');
  await card.getByTestId('summary-remove').click();
  await expect(card).toContainText('No summary yet.');
});

// Another process's write reached the server's store but not the open window until it was reloaded.
test('a summary the CLI writes while the session is open shows on its card without a reload, and its removal too', async ({ page, vault }) => {
  await page.goto(vault.url);
  await row(page, 'jido-code:j-1').click();
  const card = page.getByTestId('summary-card');
  await expect(card).toContainText('No summary yet.');
  const cli = await setSummaryByCli(vault, 'jido-code:j-1', { overview: 'Summarised by a script while the window was open.' });
  expect(cli).toEqual({ code: 0, stderr: '' });
  await expect(card.getByTestId('summary-overview')).toHaveText('Summarised by a script while the window was open.');
  await expect(card.getByTestId('summary-author')).toHaveText('cli');
  expect(await summaryByCli(vault, 'jido-code:j-1', ['--clear'])).toEqual({ code: 0, stderr: '' });
  await expect(card).toContainText('No summary yet.');
});
