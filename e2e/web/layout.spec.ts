// The conversation is the point of the detail view: at every window size the first message of an opened session (of every format) is on screen,
// the tabs stay in view, an open Refine panel leaves the list its rows, and the top bar fits an 800 px window.
import { test, expect } from './vault-fixture.ts';
import { openByUrl, sessionPerFormat } from './format-samples.ts';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 640 },
  { width: 800, height: 600 },
];

for (const size of SIZES) {
  test(`at ${size.width}x${size.height} the first message shows without scrolling, and the tabs stay while the conversation scrolls`, async ({
    page,
    vault,
  }, testInfo) => {
    await page.setViewportSize(size);
    await page.goto(vault.url);
    // The Vizier session has the most facts: outcome, operations, config, extras.
    await page.locator('[data-testid="session-row"][data-key="vizier:v-1"]').click();
    const first = page.getByTestId('message').first();
    await expect(first).toBeVisible();
    const box = await first.boundingBox();
    expect(box, 'the first message has a box').not.toBeNull();
    expect(box!.y).toBeLessThan(size.height - 40);
    await page.screenshot({ path: testInfo.outputPath(`detail-${size.width}x${size.height}.png`) });

    // Scrolled to the end of the conversation, the tab strip is still on screen.
    await page.getByTestId('message').last().scrollIntoViewIfNeeded();
    const tabs = await page.getByRole('tablist').boundingBox();
    expect(tabs!.y).toBeGreaterThanOrEqual(0);
    expect(tabs!.y).toBeLessThan(size.height);
  });
}

for (const size of SIZES) {
  test(`at ${size.width}x${size.height} the first message of a session of every format shows without scrolling`, async ({ page, samplesVault }) => {
    test.setTimeout(90_000);
    const sessions = await sessionPerFormat(samplesVault);
    expect(sessions.length).toBeGreaterThanOrEqual(20);
    await page.setViewportSize(size);
    await page.goto(samplesVault.url);
    const late: string[] = [];
    for (const { format, key } of sessions) {
      await openByUrl(page, key);
      const box = await page.getByTestId('message').first().boundingBox();
      if (!box || box.y > size.height - 40) late.push(`${format} (${key}) at y=${box?.y}`);
    }
    expect(late).toEqual([]);
  });
}

test('at 1024x640 an open Refine panel scrolls in its own bounded area: the list keeps its rows and nothing slides under Sources', async ({
  page,
  samplesVault,
}) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.goto(samplesVault.url);
  await expect(page.getByTestId('session-row').first()).toBeVisible();
  await page.getByTestId('facets-toggle').click();
  const groups = page.getByTestId('facet-groups');
  await expect(groups.getByTestId('facet-group').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('refine-1024x640.png') });

  const facets = (await page.getByTestId('facets').boundingBox())!;
  const list = (await page.locator('.session-list-wrap').boundingBox())!;
  const sources = (await page.getByTestId('roots-panel').boundingBox())!;
  // Stacked, not overlapping: facets above the list, the list above Sources.
  expect(facets.y + facets.height).toBeLessThanOrEqual(list.y + 1);
  expect(list.y + list.height).toBeLessThanOrEqual(sources.y + 1);
  // The facets scroll inside their area (once every group has arrived: the first one can come alone, as a local
  // run saw once); the list still shows at least three whole rows.
  await expect.poll(() => groups.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  const whole = await page.getByTestId('session-row').evaluateAll(
    (rows, bounds) =>
      rows.filter((r) => {
        const b = r.getBoundingClientRect();
        return b.top >= bounds.top - 1 && b.bottom <= bounds.bottom + 1;
      }).length,
    { top: list.y, bottom: list.y + list.height },
  );
  expect(whole).toBeGreaterThanOrEqual(3);
});

test('at 800x600 nothing in the top bar is cut off or outside the window', async ({ page, samplesVault }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(samplesVault.url);
  const bar = page.locator('header.topbar');
  await expect(bar.getByTestId('filter')).toBeVisible();
  expect(await bar.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const outside = await bar.locator('button, input').evaluateAll((els) =>
    els
      .filter((el) => el.getBoundingClientRect().width > 0)
      .filter((el) => {
        const b = el.getBoundingClientRect();
        return b.left < 0 || b.right > window.innerWidth || b.width < el.scrollWidth - 1;
      })
      .map((el) => el.textContent || el.getAttribute('aria-label')),
  );
  expect(outside).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('topbar-800x600.png') });
});

test('a message or operation header that shows its tokens is one line high (the dashboard’s styles do not reach it)', async ({ page, samplesVault }) => {
  // A Claude Code session whose answers carry their usage, and a Cline task whose requests are operations with theirs.
  await page.goto(samplesVault.url);
  await openByUrl(page, 'claude-code:44444444-4444-4444-8444-444444444444');
  const usage = page.locator('[data-testid="message"] .message-header .usage').first();
  await expect(usage).toBeVisible();
  const header = usage.locator('xpath=..');
  expect((await header.boundingBox())!.height).toBeLessThan(30);
  await openByUrl(page, 'cline:1700000000000');
  await page.getByRole('tab', { name: /Operations/ }).click();
  const opHeader = page.locator('[data-testid="operation"] .operation-header').first();
  await expect(opHeader.locator('.usage')).toBeVisible();
  expect((await opHeader.boundingBox())!.height).toBeLessThan(30);
});
