// The UI runs under a CSP with no 'unsafe-inline' styles: opening sessions of every format, Markdown, highlighted code and the comparison view trips none of it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { CLAUDE_KEY, CODEX_KEY } from '../../main/compare/fixture-paths.ts';
import { test, expect, jidoSession, searchFor } from './vault-fixture.ts';
import { watchCsp } from './csp-violations.ts';

/** One sample of each format in the corpus. */
const SAMPLES = [
  'claude-code:11111111-1111-4111-8111-111111111111',
  'codex:019dfed4-0000-7000-8000-00000000000a',
  'gemini:session-2025-12-16T23-47-b4f17607',
  'ai-agent:6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47',
  'projecthub:2d7a9c4e-6b1f-4e3a-8d5c-7f9e0a1b2c3d',
  'vizier:01934f2a-6c1e-7b3d-9a45-0e8c2d7f1b63',
  'jido-code:c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f',
];

const MARKDOWN = [
  '## Plan',
  '',
  '| step | status |',
  '|:-----|-------:|',
  '| build | **done** |',
  '',
  '```ts',
  'export function add(a: number, b: number): number {',
  '  return a + b; // sum',
  '}',
  '```',
  '',
  '- [x] tests, see [the docs](https://example.com/docs)',
  '',
  '<span style="color:red">raw html stays text</span>',
].join('\n');

async function open(page: Page, key: string): Promise<void> {
  await searchFor(page, key.split(':')[1]!.slice(-8));
  await page.locator(`[data-testid="session-row"][data-key="${key}"]`).click();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', key);
  // Every tab draws something different: the transcript, operations trees, todos, config tables, raw records.
  for (const tab of await page.getByRole('tab').all()) {
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
  }
  await page.getByRole('tab', { name: /conversation/i }).click();
  await expect(page.getByTestId('message').first()).toBeVisible();
}

test('sessions of every format open without a single CSP violation', async ({ page, samplesVault }) => {
  const csp = await watchCsp(page);
  const res = await page.goto(samplesVault.url);
  expect(res?.headers()['content-security-policy']).toMatch(/style-src 'self';/);
  for (const key of SAMPLES) await open(page, key);
  expect(await csp.violations()).toEqual([]);
});

test('Markdown, a GFM table, highlighted code and the comparison view trip no CSP rule, and an inline <style> would', async ({ page, vault, compareVault }) => {
  const doc = JSON.parse(jidoSession('j-md', 'markdown-tour')) as { conversation: Array<{ content: string }> };
  doc.conversation[1]!.content = MARKDOWN;
  await writeFile(join(vault.jidoDir, 'j-md.json'), JSON.stringify(doc));
  const csp = await watchCsp(page);

  await page.goto(vault.url);
  await open(page, 'jido-code:j-md');
  await page.getByRole('tab', { name: /conversation/i }).click();
  await expect(page.locator('.md table')).toBeVisible();
  await expect(page.locator('.md td').nth(1)).toHaveCSS('text-align', 'right');
  await expect(page.locator('.md pre code.hljs .hljs-keyword').first()).toBeVisible();
  await expect(page.getByTestId('detail')).toContainText('<span style="color:red">raw html stays text</span>');

  await page.goto(`${compareVault.url}#/compare/${encodeURIComponent(CLAUDE_KEY)}/${encodeURIComponent(CODEX_KEY)}`);
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.getByTestId('word-ins').first()).toBeVisible();
  expect(await csp.violations()).toEqual([]);

  // The watch is live: a style element injected at runtime is blocked and reported.
  await page.evaluate(() => {
    const style = document.createElement('style');
    style.textContent = 'body { outline: 1px solid red; }';
    document.head.append(style);
  });
  await expect.poll(async () => (await csp.violations())[0]).toMatch(/^style-src-elem blocked inline/);
  expect(await page.evaluate(() => getComputedStyle(document.body).outlineStyle)).toBe('none');
});
