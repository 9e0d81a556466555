// Comparing a Claude Code session with a Codex one in the browser: header deltas, word diffs, n/p navigation, swap, picking the pair.
import type { Page } from '@playwright/test';
import { CLAUDE_KEY, CODEX_KEY } from '../../main/compare/fixture-paths.ts';
import { test, expect } from './vault-fixture.ts';

const compareUrl = (base: string, a: string, b: string) => `${base}#/compare/${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
const headerRow = (page: Page, label: string) => page.locator(`[data-testid="compare-header-row"][data-label="${label}"]`);
const prompt = (page: Page, row: number, side: 'a' | 'b') =>
  page.locator(`[data-testid="compare-turn"][data-row="${row}"] [data-testid="compare-prompt"][data-side="${side}"]`);

test('opens a comparison from its URL: header deltas, word diffs, n/p through the differences, swap', async ({ page, compareVault }, testInfo) => {
  await page.goto(compareUrl(compareVault.url, CLAUDE_KEY, CODEX_KEY));
  const view = page.getByTestId('compare-view');
  await expect(view).toBeVisible();
  await expect(page.getByTestId('compare-side-a')).toContainText('Claude Code');
  await expect(page.getByTestId('compare-side-b')).toContainText('Codex');

  // Header: each side and the difference.
  await expect(headerRow(page, 'Duration')).toContainText('2m 00s');
  await expect(headerRow(page, 'Duration')).toContainText('4m 12s');
  await expect(headerRow(page, 'Duration').getByTestId('compare-delta')).toHaveText('+2m 12s, 2.1× slower');
  await expect(headerRow(page, 'Tool calls').getByTestId('compare-delta')).toHaveText('+2, +50%');
  await expect(headerRow(page, 'Model')).toContainText('openai / gpt-5.1-codex');

  // The edited prompt: B's added word is marked, A's text is whole.
  await expect(prompt(page, 3, 'b').getByTestId('word-ins')).toHaveText(' please');
  await expect(prompt(page, 3, 'a')).toHaveText('Run the tests.');
  // A changed reply inside a matched turn gets a word diff too.
  await expect(page.locator('[data-testid="compare-turn"][data-row="2"] [data-testid="word-ins"]').last()).toHaveText(', capped at 5 attempts');
  await expect(page.getByTestId('compare-fold')).toContainText('2 identical turns');
  await page.screenshot({ path: testInfo.outputPath('compare-top.png'), fullPage: false });

  // n / p walk the four differences (turn 3 changed, 4 changed, A's 5th, B's 5th).
  const current = page.locator('[data-testid="compare-turn"][data-current="true"]');
  await page.keyboard.press('n');
  await expect(current).toHaveAttribute('data-row', '2');
  await expect(page.getByTestId('compare-position')).toHaveText('1 of 4');
  await page.keyboard.press('n');
  await page.keyboard.press('n');
  await expect(current).toHaveAttribute('data-row', '4');
  await expect(current).toHaveAttribute('data-status', 'deleted');
  await page.keyboard.press('p');
  await expect(current).toHaveAttribute('data-row', '3');
  await expect(page.getByTestId('compare-position')).toHaveText('2 of 4');
  await page.screenshot({ path: testInfo.outputPath('compare-navigated.png'), fullPage: false });

  // Swap: Codex on the left, the URL follows, and B's addition is now A's extra word.
  await page.getByTestId('compare-swap').click();
  await expect(page.getByTestId('compare-side-a')).toContainText('Codex');
  await expect(page).toHaveURL(new RegExp(`#/compare/${encodeURIComponent(CODEX_KEY)}/${encodeURIComponent(CLAUDE_KEY)}$`));
  await expect(prompt(page, 3, 'a').getByTestId('word-del')).toHaveText(' please');
  await expect(headerRow(page, 'Duration').getByTestId('compare-delta')).toHaveText('-2m 12s, 2.1× faster');

  // Identical turns unfold on click; the files tab is a set diff.
  await page.getByTestId('compare-fold').click();
  await expect(page.locator('[data-testid="compare-turn"][data-status="same"]')).toHaveCount(2);
  await page.getByRole('tab', { name: /files/i }).click();
  await expect(page.locator('[data-testid="compare-file"][data-status="only-a"]')).toContainText(['src/backoff.rs', 'tests/webhook.rs']);
});

test('picks the pair in the list: "Compare with…" for the open session, or Ctrl-click two rows', async ({ page, compareVault }, testInfo) => {
  await page.goto(compareVault.url);
  const row = (key: string) => page.locator(`[data-testid="session-row"][data-key="${key}"]`);
  await row(CLAUDE_KEY).click();
  await expect(page.getByTestId('detail')).toBeVisible();
  // Esc gives up picking, as Cancel does; the session stays open.
  await page.getByTestId('compare-with').click();
  await expect(page.getByTestId('compare-bar')).toContainText('Pick the session to compare with');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('compare-bar')).not.toContainText('Pick the session');
  await expect(page.getByTestId('compare-with')).toBeVisible();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', CLAUDE_KEY);
  await page.getByTestId('compare-with').click();
  await expect(page.getByTestId('compare-bar')).toContainText('Pick the session to compare with');
  await row(CODEX_KEY).click();
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-b', CODEX_KEY);
  await expect(page).toHaveURL(/#\/compare\//);
  await page.screenshot({ path: testInfo.outputPath('compare-picked.png'), fullPage: false });

  // A plain click on a row leaves the comparison and opens that session.
  await row(CODEX_KEY).click();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', CODEX_KEY);
  await expect(page).not.toHaveURL(/#\/compare\//);

  // Esc unmarks a marked row.
  await row(CODEX_KEY).click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByTestId('compare-row-mark')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('compare-row-mark')).toHaveCount(0);
  await row(CODEX_KEY).click({ modifiers: ['ControlOrMeta'] });
  await row(CLAUDE_KEY).click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByTestId('compare-row-mark')).toHaveCount(2);
  await page.getByTestId('compare-marked').click();
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-a', CODEX_KEY);
  await expect(page.getByTestId('compare-side-a')).toContainText('Codex');
});

test('a comparison URL naming an unknown session says so', async ({ page, compareVault }) => {
  await page.goto(compareUrl(compareVault.url, CLAUDE_KEY, 'codex:no-such-session'));
  await expect(page.getByTestId('compare-error')).toContainText('No session with key "codex:no-such-session" is known');
});
