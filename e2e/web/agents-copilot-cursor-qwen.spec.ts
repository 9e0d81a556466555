// Copilot CLI, Cursor and Qwen Code end to end: one sample of each opens from the list with its own structure.
import type { Page } from '@playwright/test';
import { test, expect, searchFor } from './vault-fixture.ts';

const CASES: Array<{ agent: string; key: string; check: (page: Page) => Promise<void> }> = [
  {
    agent: 'copilot-cli',
    key: 'copilot-cli:copilot_stage0_small',
    check: async (page) => {
      // Tool requests paired with their executions, encrypted reasoning, the sub-agent's own thread, a truncation divider.
      await expect(page.getByTestId('tool-card').first()).toBeVisible();
      await expect(page.getByTestId('thinking').first()).toBeVisible();
      await expect(page.getByTestId('agent-group')).toHaveCount(1);
      await expect(page.getByTestId('compaction').first()).toBeVisible();
    },
  },
  {
    agent: 'cursor',
    key: 'cursor:a1b2c3d4-e5f6-7890-abcd-ef1234567890',
    check: async (page) => {
      // The chat store names the session; its sub-agent transcript is listed under it.
      await expect(page.getByTestId('detail-title')).toContainText('Test Session');
      await expect(page.getByTestId('tool-card')).toHaveCount(2);
      await expect(page.getByTestId('subagent')).toHaveCount(1);
      await expect(page.getByTestId('subagent')).toContainText('Run ls -la in the workspace directory');
    },
  },
  {
    agent: 'qwen-code',
    key: 'qwen-code:019f0000-0000-7000-8000-000000000001',
    check: async (page) => {
      // Gemini-style parts: a thought, a function call with its response, and the prompt without its hook context.
      await expect(page.getByTestId('thinking').first()).toBeVisible();
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.getByTestId('detail')).not.toContainText('Synthetic hook context');
    },
  },
];

for (const c of CASES) {
  test(`${c.agent}: a sample opens and shows its own structure`, async ({ page, samplesVault }, testInfo) => {
    await page.goto(samplesVault.url);
    await searchFor(page, c.key.split(':')[1]!.slice(-8));
    await page.locator(`[data-testid="session-row"][data-key="${c.key}"]`).click();
    await expect(page.getByTestId('detail')).toHaveAttribute('data-key', c.key);
    await c.check(page);
    await page.screenshot({ path: testInfo.outputPath(`${c.agent}.png`), fullPage: false });
  });
}
