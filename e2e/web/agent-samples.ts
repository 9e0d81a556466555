// The agents' end-to-end cases: a sample session of each is found by a search, opened from the list, checked by its own case and kept as a screenshot.
import type { Page } from '@playwright/test';
import { test, expect, searchFor } from './vault-fixture.ts';

export interface AgentCase {
  /** Names the test and its screenshot. */
  name: string;
  key: string;
  /** Words that find the session in the list. */
  search: string;
  check(page: Page): Promise<void>;
}

/** One test per case; `firstMessage`: the opened session's first message is on screen before the case's checks. */
export function testAgentSamples(cases: readonly AgentCase[], { firstMessage = false } = {}): void {
  for (const c of cases) {
    test(`${c.name}: a sample opens and shows its own structure`, async ({ page, samplesVault }, testInfo) => {
      await page.goto(samplesVault.url);
      await searchFor(page, c.search);
      await page.locator(`[data-testid="session-row"][data-key="${c.key}"]`).click();
      await expect(page.getByTestId('detail')).toHaveAttribute('data-key', c.key);
      if (firstMessage) await expect(page.getByTestId('message').first()).toBeVisible();
      await c.check(page);
      await page.screenshot({ path: testInfo.outputPath(`${c.name.replace(/\W+/g, '-')}.png`), fullPage: false });
    });
  }
}
