// Hermes, Goose and Devin end to end: a transcript, and sessions inside SQLite stores, open from the list with their own structure.
import { testAgentSamples, type AgentCase } from './agent-samples.ts';
import { test, expect, callApi } from './vault-fixture.ts';

/** Each case is found by its title or id (a hit in a message would scroll the transcript to it). */
const CASES: AgentCase[] = [
  {
    name: 'hermes transcript',
    key: 'hermes:20260429_hermes_schema_drift',
    search: 'hermes_schema_drift',
    check: async (page) => {
      // The memory call paired with its failed result.
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.getByTestId('tool-card')).toContainText('memory');
    },
  },
  {
    name: 'hermes state.db',
    key: 'hermes:child',
    search: 'Child Session',
    check: async (page) => {
      // The store's row: its title, and the tokens Hermes counted for the session.
      await expect(page.getByTestId('detail-title')).toContainText('Child Session');
      await expect(page.getByTestId('detail')).toContainText('state db only has one message');
      await expect(page.getByTestId('usage-totals')).toBeVisible();
    },
  },
  {
    name: 'goose schema 15',
    key: 'goose:child',
    search: 'Auth review',
    check: async (page) => {
      // Thinking (one of it redacted), the Read call with its result, the approval note, the ledger's operations.
      await expect(page.getByTestId('thinking')).toHaveCount(2);
      await expect(page.getByTestId('thinking').and(page.locator('[data-redacted="true"]'))).toHaveCount(1);
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.getByTestId('detail')).toContainText('Action required: Approve the proposed edit.');
      await page.getByRole('tab', { name: /operations/i }).click();
      await expect(page.getByTestId('operation')).toHaveCount(2);
    },
  },
  {
    name: 'goose minimal schema',
    key: 'goose:s1',
    search: 'title-a',
    check: async (page) => {
      await expect(page.getByTestId('detail-title')).toContainText('title-a');
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.getByTestId('tool-card')).toContainText('developer__shell');
    },
  },
  {
    name: 'devin',
    key: 'devin:bald-ketch',
    search: 'bald-ketch',
    check: async (page) => {
      // The main chain only: the read_file call with its result and the thinking before it; the abandoned branch stays out.
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.getByTestId('thinking')).toHaveCount(1);
      await expect(page.getByTestId('detail')).not.toContainText('ABANDONED');
      // ... and is reachable as operations, nested as it branched.
      await page.getByRole('tab', { name: /operations/i }).click();
      await expect(page.getByTestId('op-node')).toHaveCount(2);
      await expect(page.locator('[data-testid="op-node"][data-depth="1"]')).toHaveCount(1);
    },
  },
];

testAgentSamples(CASES, { firstMessage: true });

test('a hidden Devin session is not listed', async ({ samplesVault }) => {
  const listed = async () =>
    (await callApi<{ sessions: Array<{ key: string }> }>(samplesVault, 'listSessions', { includeChildren: true })).sessions.map((s) => s.key);
  await expect.poll(async () => (await listed()).includes('devin:bald-ketch'), { timeout: 10_000 }).toBe(true);
  expect(await listed()).not.toContain('devin:hidden-otter');
});
