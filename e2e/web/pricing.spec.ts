// Prices edited on the Settings page: checked as typed, saved to pricing.json, costs everywhere following without a restart; a broken file is shown, never replaced.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect, callApi, searchFor, startVault, type Vault } from './vault-fixture.ts';

const SESSION_ID = '7e57c0de-0000-4000-8000-000000000001';
const KEY = `claude-code:${SESSION_ID}`;
/** A model no price database knows: its calls are unpriced until the user prices it. */
const MODEL = 'house-model-1';

/** A Claude Code session of one call to MODEL: a million input and a million output tokens. */
function houseSession(): string {
  const base = { sessionId: SESSION_ID, cwd: '/home/dev/house', version: '2.1.76', userType: 'external', isSidechain: false };
  return [
    {
      ...base,
      type: 'user',
      uuid: 'u-1',
      parentUuid: null,
      timestamp: '2026-01-05T09:00:00.000Z',
      message: { role: 'user', content: 'Summarize the house style guide' },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a-1',
      parentUuid: 'u-1',
      requestId: 'req_1',
      timestamp: '2026-01-05T09:00:30.000Z',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: MODEL,
        stop_reason: 'end_turn',
        usage: { input_tokens: 1_000_000, output_tokens: 1_000_000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        content: [{ type: 'text', text: 'Short sentences, plain words.' }],
      },
    },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');
}

const test = base.extend<{ houseVault: Vault }>({
  // eslint-disable-next-line no-empty-pattern
  houseVault: async ({}, use) =>
    startVault(true, use, undefined, async ({ root }) => {
      const dir = join(root, '.claude', 'projects', '-home-dev-house');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${SESSION_ID}.jsonl`), houseSession());
    }),
});

/** The session's cost as the list has it (null: unpriced). */
async function listedCost(vault: Vault): Promise<number | null | undefined> {
  const { sessions } = await callApi<{ sessions: Array<{ key: string; costUsd: number | null }> }>(vault, 'listSessions', {});
  return sessions.find((s) => s.key === KEY)?.costUsd;
}

async function fillPrice(page: Page, values: Partial<Record<'model' | 'input' | 'output' | 'cacheRead' | 'cacheWrite', string>>): Promise<void> {
  for (const [field, value] of Object.entries(values)) await page.getByTestId(`pricing-${field}`).fill(value);
}

test('a price added, changed and removed in Settings is checked, saved to pricing.json, and costs follow without a restart', async ({ page, houseVault }) => {
  // Three edits, each followed by every session read again.
  test.setTimeout(90_000);
  await expect.poll(() => listedCost(houseVault), { timeout: 20_000 }).toBeNull();
  await page.goto(`${houseVault.url}#/settings`);
  const prices = page.getByTestId('settings-prices');
  const file = join(houseVault.dataDir, 'pricing.json');

  // Checked before anything is sent: a model name, and no price below zero.
  await fillPrice(page, { model: ' ', input: '-2', output: '15' });
  await page.getByTestId('pricing-save').click();
  await expect(page.getByTestId('pricing-model-error')).toHaveText('Name the model (or a prefix ending in *).');
  await expect(page.getByTestId('pricing-input-error')).toHaveText('A price cannot be below zero.');
  await expect(page.getByTestId('pricing-input')).toHaveAttribute('aria-invalid', 'true');
  await expect(prices.getByTestId('pricing-state')).toContainText('not there');

  await fillPrice(page, { model: MODEL, input: '3', output: '15' });
  await page.getByTestId('pricing-save').click();
  await expect(prices.getByTestId('pricing-saved')).toContainText(`Saved the price of ${MODEL}`);
  await expect(prices.getByTestId('pricing-entry')).toHaveCount(1);
  await expect(prices.getByTestId('pricing-entry')).toContainText('$15');
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ [MODEL]: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 } });
  // The same server, no restart: the list and the opened session cost what the new price says.
  await expect.poll(() => listedCost(houseVault), { timeout: 20_000 }).toBe(18);
  await page.goto(`${houseVault.url}#/session/${encodeURIComponent(KEY)}/conversation`);
  await expect(page.getByTestId('detail')).toContainText('$18.00');
  await searchFor(page, 'house');
  await page.getByTestId('usage-button').click();
  await expect(page.getByTestId('usage-total-cost')).toContainText('$18.00');

  await page.goto(`${houseVault.url}#/settings`);
  await page.getByRole('button', { name: `Change the price of ${MODEL}` }).click();
  await expect(page.getByTestId('pricing-input')).toHaveValue('3');
  await fillPrice(page, { output: '5' });
  await page.getByTestId('pricing-save').click();
  await expect(prices.getByTestId('pricing-entry')).toContainText('$5');
  await expect.poll(() => listedCost(houseVault), { timeout: 20_000 }).toBe(8);

  await page.getByRole('button', { name: `Remove the price of ${MODEL}` }).click();
  await expect(prices.getByTestId('pricing-entry')).toHaveCount(0);
  await expect.poll(() => listedCost(houseVault), { timeout: 20_000 }).toBeNull();
});

test('a pricing.json that is not valid is shown with its reason and never replaced from the page', async ({ page, houseVault }) => {
  const file = join(houseVault.dataDir, 'pricing.json');
  await writeFile(file, `{ "${MODEL}": { "input": 3, `);
  await page.goto(`${houseVault.url}#/settings`);
  const prices = page.getByTestId('settings-prices');
  await expect(prices.getByTestId('pricing-problem')).toContainText('is not valid JSON');
  await expect(prices.getByTestId('pricing-locked')).toBeVisible();
  await expect(page.getByTestId('pricing-save')).toBeDisabled();

  // Even a call that does not come from the page leaves the file alone and says why.
  await expect(callApi(houseVault, 'setPricingEntry', { model: MODEL, price: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } })).rejects.toThrow(
    /left as it is, because it cannot be used: .*is not valid JSON/,
  );
  expect(await readFile(file, 'utf8')).toBe(`{ "${MODEL}": { "input": 3, `);

  // Fixed by hand and read again: the page edits it once more.
  await writeFile(file, JSON.stringify({ [MODEL]: { input: 3, output: 15 } }));
  await prices.getByTestId('pricing-reload').click();
  await expect(prices.getByTestId('pricing-problem')).toBeHidden();
  await expect(page.getByTestId('pricing-save')).toBeEnabled();
});
