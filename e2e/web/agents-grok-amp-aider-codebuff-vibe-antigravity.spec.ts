// Grok, Amp, Aider, Codebuff, Mistral Vibe and Antigravity end to end: one sample of each opens from the list with its own structure.
import { join } from 'node:path';
import { runIds, splitRuns } from '../../main/sources/aider/aider-runs.ts';
import { testAgentSamples, type AgentCase } from './agent-samples.ts';
import { expect, samplesRoot } from './vault-fixture.ts';

/** An aider run is named after its history file and start time (main/sources/aider/aider-runs.ts). */
const aiderRun = runIds(join(samplesRoot, 'aider/myrepo/.aider.chat.history.md'), splitRuns('# aider chat started at 2026-06-09 14:01:00\n').runs)[0]!;

const CASES: AgentCase[] = [
  {
    name: 'grok',
    key: 'grok:019f6851-7ec4-7ef0-97d3-03f3eee38755',
    search: 'hello.py',
    check: async (page) => {
      // read_file and run_terminal_cmd with their results, a backend web search, reasoning summaries, the injected context.
      await expect(page.getByTestId('tool-card')).toHaveCount(3);
      await expect(page.getByTestId('thinking').first()).toBeVisible();
      await expect(page.getByTestId('tool-card').filter({ hasText: 'python3 hello.py' })).toHaveCount(1);
    },
  },
  {
    name: 'amp',
    key: 'amp:T-thread-a',
    search: 'T-thread-a',
    check: async (page) => {
      // Tokens per inference from messages[].usage; the replies themselves recorded no content, and say so.
      await expect(page.getByTestId('usage-totals')).toHaveAttribute('title', 'in 15 · out 220 · cache read 23k · cache write 986');
      await expect(page.getByTestId('message')).toHaveCount(3);
      await expect(page.getByTestId('detail')).toContainText('(no content recorded)');
    },
  },
  {
    name: 'aider',
    key: `aider:${aiderRun}`,
    search: 'webhook',
    check: async (page) => {
      // One run of the history: the prompt, the answer (its own "Step 1" heading kept), aider's edit notices.
      await expect(page.getByTestId('message')).toHaveCount(3);
      await expect(page.locator('[data-testid="message"][data-role="tool"]')).toContainText('Applied edit to src/webhook.py');
      await expect(page.getByTestId('detail')).not.toContainText('make the timeout configurable');
    },
  },
  {
    name: 'codebuff',
    key: 'codebuff:myproject/2026-07-15T15-04-00.000Z',
    search: 'login bug',
    check: async (page) => {
      await expect(page.getByTestId('message')).toHaveCount(2);
      await expect(page.getByTestId('detail')).toContainText('updating the auth handler');
      await expect(page.getByTestId('detail')).toContainText('base2-deepseek');
    },
  },
  {
    name: 'vibe',
    key: 'vibe:abc123def-0000-0000-0000-000000000000',
    search: 'sort a list',
    check: async (page) => {
      // Five messages, the fenced Python block rendered as code, the session's tokens from meta.json.
      await expect(page.getByTestId('message')).toHaveCount(5);
      await expect(page.getByTestId('detail').locator('code').filter({ hasText: 'def sort_list' })).toBeVisible();
      await expect(page.getByTestId('usage-totals')).toHaveAttribute('title', 'in 100 · out 50');
    },
  },
  {
    name: 'antigravity',
    key: 'antigravity:00000000-0000-4000-8000-00000000a902',
    search: 'List the files',
    check: async (page) => {
      // Planner turns with thinking; list_dir and write_file paired with their result steps, eight more result steps
      // whose calls the fixture trimmed; the compaction checkpoint.
      await expect(page.getByTestId('tool-card')).toHaveCount(10);
      await expect(page.getByTestId('tool-card').filter({ hasText: 'list_dir' })).toHaveCount(1);
      await expect(page.getByTestId('thinking').first()).toBeVisible();
      await expect(page.getByTestId('compaction')).toHaveCount(1);
    },
  },
];

testAgentSamples(CASES);
