// Helpers for suites that visit one session of every format in the sample corpus: which session, and opening it by its URL.
import type { Page } from '@playwright/test';
import { callApi, expect, type Vault } from './vault-fixture.ts';

export interface FormatSession {
  format: string;
  key: string;
}

/** Waits until every file is read and indexed, so the list and the figures no longer change under a test. */
export async function indexed(vault: Vault): Promise<void> {
  await expect
    .poll(
      async () => {
        const p = await callApi<{ phase: string; searchPending?: number }>(vault, 'getIndexProgress', {});
        return p.phase === 'idle' && !p.searchPending;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** For each format, the first listed session (most recent first) that opens with messages. */
export async function sessionPerFormat(vault: Vault): Promise<FormatSession[]> {
  await indexed(vault);
  const { sessions } = await callApi<{ sessions: Array<{ key: string; format: string; unreadable: unknown; primaryPath: string }> }>(vault, 'listSessions', {});
  const found = new Map<string, string>();
  for (const s of sessions) {
    // malformed/ holds files built to break readers; loose/ copies files found elsewhere.
    if (s.unreadable || found.has(s.format) || /\/samples\/(malformed|loose)\//.test(s.primaryPath)) continue;
    const opened = await callApi<{ messagesTotal: number }>(vault, 'getSession', { key: s.key });
    if (opened.messagesTotal > 0) found.set(s.format, s.key);
  }
  return [...found].map(([format, key]) => ({ format, key })).sort((a, b) => a.format.localeCompare(b.format));
}

/** Opens a session the way a link does: through its #/session/ address, without reloading the page. */
export async function openByUrl(page: Page, key: string): Promise<void> {
  await page.evaluate(
    (hash) => {
      window.location.hash = hash;
    },
    `#/session/${encodeURIComponent(key)}/conversation`,
  );
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', key);
  await expect(page.getByTestId('message').first()).toBeVisible();
}
