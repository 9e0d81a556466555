// The open session and its tab are in the URL: a reload keeps them, the address can be shared, Back and Forward move between sessions.
import { test, expect } from './vault-fixture.ts';

test('reload keeps the open session and tab; Back and Forward move between the sessions opened', async ({ page, vault }) => {
  await page.goto(vault.url);
  await page.locator('[data-testid="session-row"][data-key="jido-code:j-1"]').click();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'jido-code:j-1');
  await expect.poll(() => new URL(page.url()).hash).toBe('#/session/jido-code%3Aj-1/conversation');

  await page.locator('[data-testid="session-row"][data-key="vizier:v-1"]').click();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'vizier:v-1');
  await page.getByRole('tab', { name: /raw/i }).click();
  await expect.poll(() => new URL(page.url()).hash).toBe('#/session/vizier%3Av-1/raw');

  await page.reload();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'vizier:v-1');
  await expect(page.getByRole('tab', { name: /raw/i })).toHaveAttribute('aria-selected', 'true');

  await page.goBack();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'jido-code:j-1');
  await page.goForward();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'vizier:v-1');
});
