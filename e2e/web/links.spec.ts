// A link in a session opens only after a modal names its full URL: Cancel opens nothing, Esc closes, Open opens a new tab.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, jidoSession } from './vault-fixture.ts';

const URL_SHOWN = 'https://docs.example.com/guide?step=2#setup';

test('clicking a link in a session asks first, naming the whole URL', async ({ page, context, vault }) => {
  const doc = JSON.parse(jidoSession('j-link', 'link-check')) as { conversation: Array<{ content: string }> };
  doc.conversation[1]!.content = `See [the guide](${URL_SHOWN}) and [a local file](file:///etc/passwd).`;
  await writeFile(join(vault.jidoDir, 'j-link.json'), JSON.stringify(doc));
  // Nothing leaves the machine: the "browser" answers for the site.
  await context.route('https://docs.example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>guide</title>ok' }));
  const opened: string[] = [];
  context.on('page', (p) => opened.push(p.url()));

  await page.goto(vault.url);
  await page.locator('[data-testid="session-row"][data-key="jido-code:j-link"]').click();
  const link = page.getByRole('link', { name: 'the guide' });
  const dialog = page.getByTestId('link-confirm');

  await link.click();
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('link-confirm-url')).toHaveText(URL_SHOWN);
  await expect(page.getByTestId('link-confirm-cancel')).toBeFocused();
  await page.getByTestId('link-confirm-cancel').click();
  await expect(dialog).toBeHidden();
  await expect(link).toBeFocused();

  // Esc closes it too; a middle click asks just the same.
  await link.click({ button: 'middle' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A file: link never gets as far as the question, and never opens.
  await page.getByText('a local file').click();
  await expect(dialog).toBeHidden();

  await link.click();
  await expect(page.getByTestId('link-confirm-url')).toHaveText(URL_SHOWN);
  const popup = context.waitForEvent('page');
  await page.getByTestId('link-confirm-open').click();
  const tab = await popup;
  // Pages are reported in the order they open: had the file: link opened one, it would be here before the guide's.
  expect(opened).toHaveLength(1);
  await tab.waitForLoadState();
  expect(tab.url()).toBe(URL_SHOWN);
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await expect(dialog).toBeHidden();
  // The app itself did not navigate: only its own place in the URL (the open session) follows the hash.
  const stayed = new URL(page.url());
  stayed.hash = '';
  expect(stayed.toString()).toBe(vault.url);
});
