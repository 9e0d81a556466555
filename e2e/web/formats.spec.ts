// Every format end to end: the whole sample corpus is listed, and one session of each opens with its own structure.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, samplesRoot, callApi, searchFor } from './vault-fixture.ts';

interface Summary {
  key: string;
  primaryPath: string;
  unreadable: { message: string } | null;
}

/** One sample per format, and what its detail view must show. */
const CASES: Array<{ format: string; key: string; check: (page: Page) => Promise<void> }> = [
  {
    format: 'claude-code',
    key: 'claude-code:11111111-1111-4111-8111-111111111111',
    check: async (page) => {
      await expect(page.getByTestId('tool-card').first()).toBeVisible();
      await expect(page.getByTestId('thinking').first()).toBeVisible();
    },
  },
  {
    format: 'codex',
    key: 'codex:019dfed4-0000-7000-8000-00000000000a',
    check: async (page) => {
      await expect(page.getByTestId('tool-card').first()).toBeVisible();
      await expect(page.getByTestId('usage-totals')).toBeVisible();
    },
  },
  {
    format: 'gemini',
    key: 'gemini:session-2025-12-16T23-47-b4f17607',
    check: async (page) => {
      await expect(page.getByTestId('message').first()).toBeVisible();
      await expect(page.getByTestId('tool-card').first()).toBeVisible();
    },
  },
  {
    format: 'ai-agent',
    key: 'ai-agent:6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47',
    check: async (page) => {
      await page.getByRole('tab', { name: /operations/i }).click();
      await expect(page.getByTestId('op-node').first()).toBeVisible();
      expect(await page.locator('[data-testid="op-node"][data-depth="1"]').count()).toBeGreaterThan(0);
      await expect(page.getByTestId('op-totals')).toBeVisible();
    },
  },
  {
    format: 'projecthub',
    key: 'projecthub:2d7a9c4e-6b1f-4e3a-8d5c-7f9e0a1b2c3d',
    check: async (page) => {
      await expect(page.getByTestId('detail')).toContainText(/idempotency/i);
      await expect(page.getByTestId('tool-card').first()).toBeVisible();
    },
  },
  {
    format: 'vizier',
    key: 'vizier:01934f2a-6c1e-7b3d-9a45-0e8c2d7f1b63',
    check: async (page) => {
      await page.getByRole('tab', { name: /operations/i }).click();
      await expect(page.getByTestId('operation').first()).toBeVisible();
    },
  },
  {
    format: 'jido-code',
    key: 'jido-code:c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f',
    check: async (page) => {
      await page.getByRole('tab', { name: /todos/i }).click();
      await expect(page.getByTestId('todo')).toHaveCount(4);
    },
  },
];

test('every session file of the corpus is listed, loose ones by their content, and only the broken ones are unreadable', async ({ samplesVault }) => {
  const manifest = JSON.parse(readFileSync(join(samplesRoot, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; format: string }> };
  const sessionFiles = manifest.files.filter(
    // loose/ is outside every tool's layout: recognition by content finds those files.
    (f) => !f.path.startsWith('malformed/') && /transcript$|rollout$|snapshot|ledger$|markdown$|^vizier \(|^jido-code session|^gemini chat/.test(f.format),
  );
  // The scan runs in the background after start-up: wait until every file is in.
  let sessions: Summary[] = [];
  const missing = async () => {
    ({ sessions } = await callApi<{ sessions: Summary[] }>(samplesVault, 'listSessions', { includeChildren: true }));
    const listed = new Set(sessions.map((s) => s.primaryPath.slice(samplesRoot.length + 1)));
    return sessionFiles.filter((f) => !listed.has(f.path)).map((f) => f.path);
  };
  await expect.poll(missing, { timeout: 10_000 }).toEqual([]);
  const unreadable = sessions.filter((s) => s.unreadable).map((s) => `${s.key}: ${s.unreadable?.message}`);
  // malformed/ holds files recognised by their content as sessions: the ones that cannot be read say why.
  expect(unreadable.sort()).toEqual([
    expect.stringMatching(/^ai-agent:.*File is empty/),
    expect.stringMatching(/^jido-code:.*Invalid JSON at line 9/),
    expect.stringMatching(/^jido-code:.*version 99 is newer/),
    // A Vibe session folder whose messages.jsonl is empty, named by its folder.
    expect.stringMatching(/^vibe:session_[^:]*: File is empty/),
  ]);
});

for (const c of CASES) {
  test(`${c.format}: a sample opens and shows its own structure`, async ({ page, samplesVault }, testInfo) => {
    await page.goto(samplesVault.url);
    await searchFor(page, c.key.split(':')[1]!.slice(-8));
    const row = page.locator(`[data-testid="session-row"][data-key="${c.key}"]`);
    await row.click();
    await expect(page.getByTestId('detail')).toHaveAttribute('data-key', c.key);
    await c.check(page);
    await page.screenshot({ path: testInfo.outputPath(`${c.format}.png`), fullPage: false });
  });
}

test('find in session: Ctrl+F finds, counts and steps through matches', async ({ page, samplesVault }) => {
  await page.goto(samplesVault.url);
  await searchFor(page, '019dfed4');
  await page.locator('[data-testid="session-row"]').first().click();
  // Find belongs to a loaded session.
  await expect(page.getByTestId('message').first()).toBeVisible();
  await page.keyboard.press('Control+f');
  await expect(page.getByTestId('find-bar')).toBeVisible();
  await page.keyboard.type('the');
  await expect(page.getByTestId('find-count')).toHaveText(/^1 of \d+$/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('find-count')).toHaveText(/^2 of \d+$/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('find-bar')).toBeHidden();
});
