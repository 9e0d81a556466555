// A forked session links to the session it was forked from: open the fork, follow the link, and the first attempt opens.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, startVault } from './vault-fixture.ts';

const ORIGIN = '0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a10';
const FORK = '0194f3b0-0000-7000-8000-000000000f01';

/** A Codex rollout as Codex writes it: session_meta (with forked_from_id for a fork), a prompt and an answer. */
function rollout(id: string, at: string, prompt: string, answer: string, forkedFrom?: string): string {
  const meta = {
    id,
    timestamp: at,
    cwd: '/home/dev/app',
    originator: 'codex_cli_rs',
    cli_version: '0.52.0',
    ...(forkedFrom ? { forked_from_id: forkedFrom } : {}),
  };
  const lines = [
    { timestamp: at, type: 'session_meta', payload: meta },
    { timestamp: at, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] } },
    { timestamp: at, type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }] } },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

test('a forked Codex session links to the session it was forked from, which opens from the link', async ({ page }) => {
  await startVault(
    false,
    async (vault) => {
      await page.goto(vault.url);
      await page.locator(`[data-testid="session-row"][data-key="codex:${FORK}"]`).click();
      await expect(page.getByTestId('detail')).toHaveAttribute('data-key', `codex:${FORK}`);
      const link = page.getByTestId('fork-link');
      await expect(link).toHaveText('← Forked from Make the retry loop back off');
      await link.click();
      await expect(page.getByTestId('detail')).toHaveAttribute('data-key', `codex:${ORIGIN}`);
      // The first attempt forked from nothing: no link in its header.
      await expect(page.getByTestId('fork-link')).toHaveCount(0);
    },
    undefined,
    async ({ root }) => {
      const day = join(root, '.codex', 'sessions', '2026', '02', '14');
      await mkdir(day, { recursive: true });
      await writeFile(
        join(day, `rollout-2026-02-14T10-30-00-${ORIGIN}.jsonl`),
        rollout(ORIGIN, '2026-02-14T10:30:00.000Z', 'Make the retry loop back off', 'Added exponential back-off.'),
      );
      await writeFile(
        join(day, `rollout-2026-02-14T11-00-00-${FORK}.jsonl`),
        rollout(FORK, '2026-02-14T11:00:00.000Z', 'Try a jittered back-off instead', 'Added full jitter.', ORIGIN),
      );
    },
  );
});
