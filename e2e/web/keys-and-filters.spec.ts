// [ and ] jump between the user's prompts, fetching later windows of a long session; a filter the app does not have, or a comparison without a number, is named.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, searchFor, startVault, type Vault } from './vault-fixture.ts';
import { indexed, openByUrl } from './format-samples.ts';

/** Messages in the long session; the app opens it with the first 1,000 and fetches 2,000 more at a time. */
const LONG_MESSAGES = 3300;
/** Where the user's prompts are: the third lies two windows beyond the first, past 2,000 messages without a prompt. */
const LONG_PROMPTS = new Map([
  [0, 'First prompt: plan the migration.'],
  [100, 'Second prompt: now run it.'],
  [3200, 'Third prompt, far down: write up what happened.'],
]);

/** A JidoCode session of LONG_MESSAGES messages, the assistant's between the three prompts. */
function longSession(): string {
  const conversation = Array.from({ length: LONG_MESSAGES }, (_, i) => ({
    id: `m${i}`,
    role: LONG_PROMPTS.has(i) ? 'user' : 'assistant',
    content: LONG_PROMPTS.get(i) ?? `Step ${i}: routine progress on the migration.`,
    timestamp: '2025-12-01T09:00:00.000000Z',
  }));
  return JSON.stringify({
    version: 1,
    id: 'j-long',
    name: 'long-haul',
    project_path: '/home/dev/long-haul',
    config: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    created_at: '2025-12-01T09:00:00.000000Z',
    updated_at: '2025-12-01T10:00:00.000000Z',
    conversation,
  });
}

const longTest = test.extend<{ longVault: Vault }>({
  // eslint-disable-next-line no-empty-pattern
  longVault: async ({}, use) => startVault(true, use, undefined, ({ jidoDir }) => writeFile(join(jidoDir, 'j-long.json'), longSession())),
});

/** The row index of the user message whose top sits just under the sticky tabs, or null. */
async function promptAtTop(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const tabs = document.querySelector('.detail .tabs')!.getBoundingClientRect();
    for (const m of document.querySelectorAll<HTMLElement>('[data-testid="message"][data-role="user"]')) {
      const top = m.getBoundingClientRect().top;
      if (top >= tabs.bottom - 2 && top <= tabs.bottom + 24) return Number(m.closest('[data-index]')?.getAttribute('data-index'));
    }
    return null;
  });
}

/** The text of the user message whose top sits just under the sticky tabs, or null. */
async function promptTextAtTop(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const tabs = document.querySelector('.detail .tabs')!.getBoundingClientRect();
    for (const m of document.querySelectorAll<HTMLElement>('[data-testid="message"][data-role="user"]')) {
      const top = m.getBoundingClientRect().top;
      if (top >= tabs.bottom - 2 && top <= tabs.bottom + 24) return m.textContent;
    }
    return null;
  });
}

longTest(
  '] at the last loaded prompt of a long session fetches the windows after it and goes on to the next prompt; [ comes back',
  async ({ page, longVault }) => {
    await indexed(longVault);
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.goto(longVault.url);
    // Opened by its address, as openByUrl does, with room for a slow first parse of 3,300 messages on a busy machine.
    await page.evaluate(() => {
      window.location.hash = `#/session/${encodeURIComponent('jido-code:j-long')}/conversation`;
    });
    await expect(page.getByTestId('message').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('messages-loading')).toHaveText(`Showing 1,000 of ${LONG_MESSAGES.toLocaleString('en')} messages…`);
    await page
      .getByTestId('message')
      .first()
      .click({ position: { x: 2, y: 2 } });

    // The first prompt sits below the header: ] brings it up to the reading line, the next ] goes on.
    await page.keyboard.press(']');
    await expect.poll(() => promptTextAtTop(page)).toContain('First prompt');
    await page.keyboard.press(']');
    await expect.poll(() => promptTextAtTop(page)).toContain('Second prompt');
    // The last prompt of the first window: the next one is two windows on.
    await page.keyboard.press(']');
    await expect.poll(() => promptTextAtTop(page), { timeout: 15_000 }).toContain('Third prompt, far down');
    await expect(page.getByTestId('messages-loading')).toBeHidden();
    await page.keyboard.press('[');
    await expect.poll(() => promptTextAtTop(page)).toContain('Second prompt');
  },
);

test('] and [ move the reading position to the next and previous prompt', async ({ page, samplesVault }) => {
  await indexed(samplesVault);
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.goto(samplesVault.url);
  // A Claude Code session with ten prompts and tool calls between them.
  await openByUrl(page, 'claude-code:ses_stage0_small');
  await page
    .getByTestId('message')
    .first()
    .click({ position: { x: 2, y: 2 } });

  await page.keyboard.press(']');
  await expect.poll(() => promptAtTop(page)).not.toBeNull();
  const second = (await promptAtTop(page))!;
  expect(second).toBeGreaterThan(0);
  await page.keyboard.press(']');
  await expect.poll(() => promptAtTop(page)).toBeGreaterThan(second);
  await page.keyboard.press('[');
  await expect.poll(() => promptAtTop(page)).toBe(second);

  // Typed into a field, the brackets are text.
  await page.getByTestId('filter').focus();
  await page.keyboard.type('[x]');
  await expect(page.getByTestId('filter')).toHaveValue('[x]');
  await expect.poll(() => promptAtTop(page)).toBe(second);
});

test('a filter the app does not have, and a comparison without a number, each say what is wrong', async ({ page, vault }) => {
  await page.goto(vault.url);
  await searchFor(page, 'frobnicate:yes');
  await expect(page.getByTestId('search-problem')).toHaveText(/"frobnicate:" is not a filter, so frobnicate:yes was searched as text \(filters: source:/);

  await searchFor(page, 'tokens>lots nightly');
  await expect(page.getByTestId('search-problem')).toHaveText('"tokens>lots": "lots" is not a number (for example tokens>100000 or tokens>50k).');
  // The rest of the query still searches.
  await expect(page.getByTestId('session-row')).toHaveCount(1);
});
