// Screenshots pasted into a session are shown inline, open at full size on click, and are gathered in an Images tab.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test as base, expect, startVault, type Vault } from './vault-fixture.ts';

// A 2x2 PNG, red, as Claude Code stores a pasted screenshot (base64 in an image block).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';
const SESSION = '5c5c5c5c-0000-4000-8000-000000000001';

const test = base.extend<{ imageVault: Vault }>({
  // eslint-disable-next-line no-empty-pattern
  imageVault: async ({}, use) =>
    startVault(false, use, undefined, async ({ root }) => {
      const project = join(root, '.claude', 'projects', '-home-u-shots');
      await mkdir(project, { recursive: true });
      const rec = (o: object) => JSON.stringify({ sessionId: SESSION, cwd: '/home/u/shots', version: '2.1.0', isSidechain: false, ...o });
      await writeFile(
        join(project, `${SESSION}.jsonl`),
        [
          rec({
            type: 'user',
            uuid: 'u1',
            parentUuid: null,
            timestamp: '2026-02-01T10:00:00Z',
            message: {
              role: 'user',
              content: [
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
                { type: 'text', text: 'Why is this button red?' },
              ],
            },
          }),
          rec({
            type: 'assistant',
            uuid: 'a1',
            parentUuid: 'u1',
            timestamp: '2026-02-01T10:00:05Z',
            message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'The error state is set.' }] },
          }),
        ].join('\n') + '\n',
      );
    }),
});

test('an image opens at full size and closes with Esc; the Images tab lists it with its message', async ({ page, imageVault }) => {
  await page.goto(imageVault.url);
  await page.locator(`[data-testid="session-row"][data-key="claude-code:${SESSION}"]`).click();
  const inline = page.getByTestId('message').first().getByTestId('image');
  await expect(inline.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await inline.click();
  const box = page.getByTestId('image-lightbox');
  await expect(box).toBeVisible();
  await expect(box.locator('img')).toHaveJSProperty('naturalWidth', 2);
  await page.keyboard.press('Escape');
  await expect(box).toBeHidden();

  await page.getByRole('tab', { name: /images/i }).click();
  await expect(page.getByTestId('image-cell')).toHaveCount(1);
  await expect(page.getByTestId('image-cell')).toContainText('message 1 · user');
});
