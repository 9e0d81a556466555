// Sharing in a browser against `serve`: review the secrets found, untick one, export, then drop the bundle on a fresh vault.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, jidoSession } from './vault-fixture.ts';

const row = (page: Page, key: string) => page.locator(`[data-testid="session-row"][data-key="${key}"]`);

// Built here so no key-shaped string sits in the repository.
const TOKEN = `ghp_${'k3Y9'.repeat(9)}`;
const FALSE_POSITIVE = `sk-ant-api03-${'demoDEMO'.repeat(11)}demoDAA`;

/** Drops a file on the page the way a person drags one from the desktop. */
async function dropFile(page: Page, bytes: Buffer, name: string): Promise<void> {
  const data = await page.evaluateHandle(
    ({ base64, fileName }) => {
      const binary = atob(base64);
      const array = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) array[i] = binary.charCodeAt(i);
      const transfer = new DataTransfer();
      transfer.items.add(new File([array], fileName, { type: 'application/zip' }));
      return transfer;
    },
    { base64: bytes.toString('base64'), fileName: name },
  );
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: data });
  await expect(page.getByTestId('bundle-drop-hint')).toBeVisible();
  await page.dispatchEvent('body', 'dragover', { dataTransfer: data });
  await page.dispatchEvent('body', 'drop', { dataTransfer: data });
}

test('export from the UI with a reviewed finding, then import it into a fresh vault by drop', async ({ page, vault, emptyVault }, testInfo) => {
  const leaky = JSON.parse(jidoSession('j-leak', 'deploy-bot')) as { conversation: Array<{ content: string }> };
  leaky.conversation[0]!.content = `Deploy with GITHUB_TOKEN=${TOKEN} please`;
  leaky.conversation[1]!.content = `The docs' sample key ${FALSE_POSITIVE} is not real.`;
  await writeFile(join(vault.jidoDir, 'j-leak.json'), JSON.stringify(leaky));

  await page.goto(vault.url);
  await row(page, 'jido-code:j-leak').click();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'jido-code:j-leak');
  await page.getByTestId('bundle-share').click();

  const dialog = page.getByTestId('bundle-share-dialog');
  await expect(dialog).toBeVisible();
  const findings = dialog.getByTestId('bundle-finding');
  // Each secret is found in the source file and in session.json; previews never show it.
  await expect(findings).toHaveCount(4);
  await expect(dialog.locator('[data-rule="github"]')).toHaveCount(2);
  await expect(dialog.locator('[data-rule="anthropic"]')).toHaveCount(2);
  await expect(dialog.getByTestId('bundle-finding-preview').first()).toContainText('****');
  await expect(dialog).not.toContainText(TOKEN);
  await expect(dialog).not.toContainText(FALSE_POSITIVE);

  // The documentation's sample key is a false positive: untick it wherever it was found.
  for (const box of await dialog.locator('[data-rule="anthropic"]').getByTestId('bundle-finding-toggle').all()) await box.uncheck();
  await expect(dialog.getByTestId('bundle-findings-summary')).toContainText('2 of 4 findings will be redacted');

  const downloading = page.waitForEvent('download');
  await dialog.getByTestId('bundle-export').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^session-vault-\d{4}-\d{2}-\d{2}-jido-code_j-leak\.zip$/);
  const zipPath = testInfo.outputPath('shared.zip');
  await download.saveAs(zipPath);
  await expect(dialog.getByTestId('bundle-done')).toContainText('2 secrets redacted, 2 left as you chose');
  await dialog.getByTestId('bundle-close').click();
  await expect(dialog).toHaveCount(0);

  const bundle = await readFile(zipPath);
  expect(bundle.subarray(0, 2).toString()).toBe('PK');

  // A fresh vault on another "machine": drop the bundle onto its window.
  await page.goto(emptyVault.url);
  await expect(page.getByTestId('session-row')).toHaveCount(0);
  await dropFile(page, bundle, 'shared.zip');
  const report = page.getByTestId('bundle-import-dialog');
  await expect(report.getByTestId('bundle-imported-count')).toHaveText('Imported 1 session into the vault.');
  await expect(report.getByTestId('bundle-imported')).toHaveAttribute('data-key', 'jido-code:j-leak');
  await expect(report).toContainText('The sender redacted 2 secrets before sharing.');
  await report.getByTestId('bundle-import-close').click();

  await expect(row(page, 'jido-code:j-leak')).toBeVisible();
  await row(page, 'jido-code:j-leak').click();
  const detail = page.getByTestId('detail');
  await expect(detail.getByTestId('message').first()).toContainText('GITHUB_TOKEN=[REDACTED:github]');
  await expect(detail).not.toContainText(TOKEN);
  await expect(detail.getByTestId('message').nth(1)).toContainText(FALSE_POSITIVE);

  // The same bundle again: nothing is overwritten, and the report says what was skipped.
  await dropFile(page, bundle, 'shared.zip');
  await expect(report.getByTestId('bundle-imported-count')).toHaveText('Nothing new was imported.');
  await expect(report.getByTestId('bundle-skipped')).toHaveAttribute('data-key', 'jido-code:j-leak');
});

test('a damaged bundle is refused with the rule it broke, and the vault stays empty', async ({ page, emptyVault }) => {
  await page.goto(emptyVault.url);
  await dropFile(page, Buffer.from('PK\u0003\u0004 not really a zip'), 'broken.zip');
  const dialog = page.getByTestId('bundle-import-dialog');
  await expect(dialog.getByTestId('bundle-import-error')).toContainText('refused (not-a-zip)');
  await dialog.getByTestId('bundle-import-close').click();
  await expect(page.getByTestId('session-row')).toHaveCount(0);
});

test('a row dragged out of the window carries a download of its session as a redacted bundle', async ({ page, vault }) => {
  const leaky = JSON.parse(jidoSession('j-drag', 'drag-me')) as { conversation: Array<{ content: string }> };
  leaky.conversation[0]!.content = `Deploy with GITHUB_TOKEN=${TOKEN} please`;
  await writeFile(join(vault.jidoDir, 'j-drag.json'), JSON.stringify(leaky));
  await page.goto(vault.url);
  const dragged = row(page, 'jido-code:j-drag');
  await expect(dragged).toHaveAttribute('draggable', 'true');

  const transfer = await page.evaluateHandle(() => new DataTransfer());
  await dragged.dispatchEvent('dragstart', { dataTransfer: transfer });
  const downloadUrl = await transfer.evaluate((t) => t.getData('DownloadURL'));
  const match = /^application\/zip:drag-me\.zip:(http:\/\/127\.0\.0\.1:\d+\/download\/bundle\?.+)$/.exec(downloadUrl);
  expect(match, downloadUrl).not.toBeNull();

  // What Chromium fetches when the row is dropped on a folder.
  const response = await page.request.get(match![1]!);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-disposition']).toContain('.zip');
  const bytes = await response.body();
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
});
