// The empty state's promise: "Open the demo sessions" brings a readable session of every format the app reads.
import { SOURCE_FORMATS } from '../../shared/source-formats.ts';
import { test, expect, searchFor } from './vault-fixture.ts';
import { indexed } from './format-samples.ts';

test('the demo set holds a readable session of every format', async ({ page, emptyVault }) => {
  test.setTimeout(90_000);
  await page.goto(emptyVault.url);
  await page.getByTestId('open-demo').click();
  await expect(page.getByTestId('empty-state')).toBeHidden();
  await indexed(emptyVault);
  await expect(page.locator('[data-testid="session-row"][data-unreadable="true"]')).toHaveCount(0);

  // Every format but the vault's own store (a kept copy is listed by its original format): found by source, and it opens.
  const missing: string[] = [];
  for (const format of SOURCE_FORMATS.filter((f) => f !== 'vault')) {
    await searchFor(page, `source:${format}`);
    const row = page.getByTestId('session-row').first();
    if (!(await row.isVisible())) {
      missing.push(format);
      continue;
    }
    const key = await row.getAttribute('data-key');
    await row.click();
    const detail = page.getByTestId('detail');
    await expect(detail).toHaveAttribute('data-key', key!);
    await expect(detail).toHaveAttribute('aria-busy', 'false');
    await expect(detail.getByRole('tabpanel')).not.toBeEmpty();
    await expect(detail.getByTestId('unreadable-reason')).toHaveCount(0);
    await expect(detail.getByTestId('detail-error')).toHaveCount(0);
  }
  expect(missing).toEqual([]);
});
