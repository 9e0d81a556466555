// OpenCode and Kilo end to end: sessions inside SQLite stores (each listed on its own) and the legacy storage/ tree open from the list with their own structure; the raw view shows a stored session's rows.
import { testAgentSamples, type AgentCase } from './agent-samples.ts';
import { test, expect, callApi, searchFor } from './vault-fixture.ts';

/** Each case is found by its title or id (a hit in a message would scroll the transcript to it). */
const CASES: AgentCase[] = [
  {
    name: 'opencode store',
    key: 'opencode:ses_happy01',
    search: 'Happy session',
    check: async (page) => {
      // The reasoning part, the read tool paired with its output, and the tokens and cost OpenCode recorded.
      await expect(page.getByTestId('thinking')).toHaveCount(1);
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.getByTestId('tool-card')).toContainText('read');
      await expect(page.getByTestId('usage-totals')).toBeVisible();
    },
  },
  {
    name: 'opencode sub-session',
    key: 'opencode:ses_parent01',
    search: 'Parent session',
    check: async (page) => {
      // The task tool that started the child, and the child listed under its parent.
      await expect(page.getByTestId('tool-card')).toContainText('task');
      await expect(page.getByTestId('subagent')).toHaveCount(1);
      await expect(page.getByTestId('subagent')).toHaveAttribute('data-key', 'opencode:ses_child01');
    },
  },
  {
    name: 'opencode failed tool',
    key: 'opencode:ses_fail01',
    search: 'Failed-tool session',
    check: async (page) => {
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.getByTestId('tool-card')).toHaveAttribute('data-status', 'error');
    },
  },
  {
    name: 'opencode storage tree',
    key: 'opencode:s_stage0_small',
    search: 'OpenCode Small',
    check: async (page) => {
      await expect(page.getByTestId('message')).toHaveCount(2);
      await expect(page.getByTestId('tool-card')).toContainText('bash');
      await expect(page.getByTestId('detail')).toContainText('Found 2 files.');
    },
  },
  {
    name: 'kilo storage tree',
    key: 'kilo:ses_kilo',
    search: 'Kilo Session',
    check: async (page) => {
      await expect(page.getByTestId('detail')).toContainText('Hello from Kilo');
      await expect(page.getByTestId('parent-link')).toBeVisible();
    },
  },
  {
    name: 'kilo usage-only store',
    key: 'kilo:session-a',
    search: 'session-a',
    check: async (page) => {
      // Only usage is stored: the tokens and cost show, the message says it has no content, and a warning says why.
      await expect(page.getByTestId('usage-totals')).toBeVisible();
      await expect(page.getByTestId('message')).toContainText('no content recorded');
      await page.getByRole('tab', { name: /warnings/i }).click();
      await expect(page.getByTestId('detail')).toContainText('holds only a message table');
    },
  },
];

testAgentSamples(CASES, { firstMessage: true });

test('a store holding many sessions lists each of them, named by the store', async ({ samplesVault }) => {
  const nested = () => callApi<{ sessions: Array<{ key: string; primaryPath: string }> }>(samplesVault, 'listSessions', { includeChildren: true });
  const inStore = async () =>
    (await nested()).sessions
      .filter((s) => s.primaryPath.endsWith('aiv-g_nested_subagent/.local/share/opencode/opencode.db'))
      .map((s) => s.key)
      .sort();
  await expect.poll(inStore, { timeout: 10_000 }).toEqual(['opencode:ses_gchild', 'opencode:ses_ggrand', 'opencode:ses_groot']);
});

test('the raw view of a stored session shows its own rows as JSON, and the row behind a message', async ({ page, samplesVault }) => {
  await page.goto(samplesVault.url);
  await searchFor(page, 'Happy session');
  await page.locator('[data-testid="session-row"][data-key="opencode:ses_happy01"]').click();
  await expect(page.getByTestId('message').first()).toBeVisible();
  await page.getByTestId('message').first().getByRole('button', { name: 'raw' }).click();
  const record = page.getByTestId('raw-record');
  await expect(record).toContainText('"session_id": "ses_happy01"');
  await expect(record).toContainText('"role": "assistant"');
  await page.getByRole('tab', { name: /raw/i }).click();
  const source = page.getByTestId('raw-source');
  await expect(source).toContainText('"format": "session-vault-store-rows"');
  await expect(source).toContainText('"ses_happy01"');
  await expect(source).not.toContainText('SQLite format 3');
});
