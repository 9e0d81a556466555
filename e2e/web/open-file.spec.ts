// One session file opens on its own in the browser: dropped on the window or picked with "Open file…"; its folder is not added, it can be kept, and a file that is no session says why.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { callApi, test, expect, samplesRoot } from './vault-fixture.ts';

const CLAUDE = join(samplesRoot, 'loose', 'claude-session (1).jsonl');

/** Drops a file on the page the way a person drags one from the desktop. */
async function dropFile(page: Page, bytes: Buffer, name: string): Promise<void> {
  const data = await page.evaluateHandle(
    ({ base64, fileName }) => {
      const binary = atob(base64);
      const array = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) array[i] = binary.charCodeAt(i);
      const transfer = new DataTransfer();
      transfer.items.add(new File([array], fileName));
      return transfer;
    },
    { base64: bytes.toString('base64'), fileName: name },
  );
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: data });
  await page.dispatchEvent('body', 'dragover', { dataTransfer: data });
  await page.dispatchEvent('body', 'drop', { dataTransfer: data });
}

test('a Claude Code transcript dropped on the window opens, and no folder is added', async ({ page, emptyVault }) => {
  await page.goto(emptyVault.url);
  // The folders as the server has them (read right after the page opened, the count could still be the empty first render's).
  const roots = await callApi<unknown[]>(emptyVault, 'listRoots', {});
  const sources = `${roots.length} source${roots.length === 1 ? '' : 's'}`;
  await expect(page.locator('.roots-count')).toHaveText(sources);
  await dropFile(page, await readFile(CLAUDE), 'claude-session (1).jsonl');
  const detail = page.getByTestId('detail');
  await expect(detail).toHaveAttribute('data-key', /^claude-code:/);
  await expect(detail.getByTestId('message').first()).toBeVisible();
  await expect(page.locator('.roots-count')).toHaveText(sources);
  expect(await callApi<unknown[]>(emptyVault, 'listRoots', {})).toHaveLength(roots.length);
  // A file opened from outside every folder is offered for keeping, and kept on a click.
  await page.getByTestId('keep-button').click();
  await expect(page.getByTestId('kept-status')).toContainText('Kept');
});

test('"Open file…" opens a picked session file; a file that is no session says why', async ({ page, emptyVault }) => {
  await page.goto(emptyVault.url);
  await page.getByTestId('open-file-input').setInputFiles(join(samplesRoot, 'loose', 'rollout.jsonl'));
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', /^codex:/);

  await page.getByTestId('open-file-input').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"todo":"buy milk"}') });
  await expect(page.getByTestId('opening-file-error')).toHaveText(
    'notes.json is not a session file any reader recognises (by its place or its first records).',
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('opening-file-dialog')).toBeHidden();
});
