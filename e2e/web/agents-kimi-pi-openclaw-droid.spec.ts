// Kimi, Pi, OpenClaw and Droid end to end: each sample is listed once, opens with its own structure; an OpenClaw archive says so.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { testAgentSamples, type AgentCase } from './agent-samples.ts';
import { test, expect, samplesRoot, callApi, startVault } from './vault-fixture.ts';

interface Summary {
  key: string;
  format: string;
  primaryPath: string;
  unreadable: { message: string } | null;
}

/** One sample per agent (both Kimi layouts, both Droid dialects), what to search for, and what its detail view must show. */
const CASES: AgentCase[] = [
  {
    name: 'kimi-cli',
    key: 'kimi:session-1',
    search: 'Implement Kimi provider',
    check: async (page) => {
      await expect(page.getByTestId('detail-title')).toHaveText('Implement Kimi provider');
      await expect(page.getByTestId('thinking').first()).toBeVisible();
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
    },
  },
  {
    name: 'kimi code',
    key: 'kimi:session_9eb1bf57-c1af-48a5-b658-0e8d9fe794f5',
    search: '0e8d9fe794f5',
    check: async (page) => {
      await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveCount(3);
      await expect(page.getByTestId('detail')).toContainText('kimi-k2.7-code');
    },
  },
  {
    name: 'pi',
    key: 'pi:019e19b4-eb48-746a-aa6b-8dfcfa37954b',
    search: '8dfcfa37954b',
    check: async (page) => {
      await expect(page.getByTestId('compaction')).toHaveCount(2);
      await expect(page.getByTestId('usage-totals')).toBeVisible();
    },
  },
  {
    name: 'openclaw',
    key: 'openclaw:openclaw-stage0-drift',
    search: 'Need a quick diagnostic',
    check: async (page) => {
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      // The legacy `compact` record and the broken parent link are reported, not dropped.
      await expect(page.getByTestId('warning-badge')).toBeVisible();
    },
  },
  {
    name: 'droid session',
    key: 'droid:droid_s1',
    search: 'Stage0 Droid Small',
    check: async (page) => {
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
    },
  },
  {
    name: 'droid exec log',
    key: 'droid:sid_stage0_drift',
    search: 'sid_stage0_drift',
    check: async (page) => {
      await expect(page.getByTestId('tool-card')).toHaveAttribute('data-status', 'error');
      await expect(page.getByTestId('detail-outcome')).toContainText('failed');
    },
  },
];

test('each Kimi, Pi, OpenClaw and Droid sample file is listed once, and none is unreadable', async ({ samplesVault }) => {
  const expected = {
    kimi: ['kimi:session-1', 'kimi:session-2', 'kimi:session_9eb1bf57-c1af-48a5-b658-0e8d9fe794f5'],
    pi: ['pi:019e19b4-eb48-746a-aa6b-8dfcfa37954b'],
    openclaw: ['openclaw:openclaw-stage0-drift', 'openclaw:openclaw-stage0-small'],
    droid: ['droid:droid_drift', 'droid:droid_s1', 'droid:sid_stage0_drift', 'droid:sid_stage0_small'],
  };
  const listed = async () => {
    const { sessions } = await callApi<{ sessions: Summary[] }>(samplesVault, 'listSessions', { includeChildren: true });
    const mine = sessions.filter((s) => s.format in expected);
    return Object.fromEntries(
      Object.keys(expected).map((f) => [
        f,
        mine
          .filter((s) => s.format === f && !s.unreadable)
          .map((s) => s.key)
          .sort(),
      ]),
    );
  };
  // The scan runs in the background after start-up: wait until every file is in.
  await expect.poll(listed, { timeout: 10_000 }).toEqual(expected);
});

testAgentSamples(CASES);

test('openclaw: a deleted transcript is listed, marked deleted in the list and in its detail', async ({ page }) => {
  await startVault(
    false,
    async (vault) => {
      await page.goto(vault.url);
      const row = page.locator('[data-testid="session-row"][data-key="openclaw:openclaw-stage0-small"]');
      await expect(row).toContainText('closed · deleted');
      await row.click();
      await expect(page.getByTestId('detail-outcome')).toContainText('deleted');
    },
    undefined,
    async ({ root }) => {
      const sessions = join(root, '.openclaw', 'agents', 'main', 'sessions');
      await mkdir(sessions, { recursive: true });
      const sample = join(samplesRoot, 'openclaw', '.openclaw', 'agents', 'main', 'sessions', 'openclaw-stage0-small.jsonl');
      await copyFile(sample, join(sessions, 'openclaw-stage0-small.jsonl.deleted.2026-03-01T08-15-00.000Z'));
    },
  );
});
