// The page itself: a favicon in the tab, and an address without its token says which command prints the right one.
import { test, expect } from './vault-fixture.ts';

test("the tab shows the app's icon", async ({ page, vault }) => {
  await page.goto(vault.url);
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBe('./favicon.svg');
  const icon = await page.request.get(new URL(href!, vault.url).toString());
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toBe('image/svg+xml');
});

test('opened without its token, the page says which command prints the address to use', async ({ page, vault }) => {
  const bare = new URL(vault.url);
  bare.search = '';
  await page.goto(bare.toString());
  const notice = page.getByTestId('access-needed');
  await expect(notice).toContainText('session-vault serve');
  await expect(notice).toContainText('?token=');
  // Nothing else competes with it: no list, no error banners, no reconnecting spinner.
  await expect(page.getByTestId('session-list')).toHaveCount(0);
});
