// The main job in a browser against `serve`: list, open, live updates, unreadable files, keyboard, demo.
import { writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, Request } from '@playwright/test';
import { test, expect, jidoSession, callApi, startVault } from './vault-fixture.ts';

const row = (page: Page, key: string) => page.locator(`[data-testid="session-row"][data-key="${key}"]`);

test('lists the sessions of a root, newest first, with source, branch and outcome', async ({ page, vault }) => {
  await page.goto(vault.url);
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(3);
  // Newest first; the corrupt file (its mtime is just now, but that is no session's time) comes after every session.
  const keys = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
  expect(keys).toEqual(['vizier:v-1', 'jido-code:j-1', 'jido-code:j-broken']);
  await expect(row(page, 'vizier:v-1')).toContainText('Make merge deterministic');
  await expect(row(page, 'vizier:v-1')).toContainText('fix/tiebreak');
  await expect(row(page, 'vizier:v-1')).toContainText('accepted');
  await expect(row(page, 'jido-code:j-1')).toContainText('nightly-etl');
});

test('opens a session: header, conversation in order, todos and config', async ({ page, vault }) => {
  await page.goto(vault.url);
  await row(page, 'vizier:v-1').click();
  const detail = page.getByTestId('detail');
  await expect(page.getByTestId('detail-title')).toHaveText('Make merge deterministic');
  await expect(page.getByTestId('detail-branch')).toContainText('fix/tiebreak');
  await expect(page.getByTestId('detail-outcome')).toContainText('accepted');
  await expect(detail.getByTestId('message')).toHaveCount(2);
  await expect(detail.getByTestId('message').first()).toHaveAttribute('data-role', 'user');
  await expect(detail.getByTestId('message').first()).toContainText('Make merge deterministic');
  await page.getByRole('tab', { name: /config/i }).click();
  await expect(page.getByTestId('config-row').filter({ hasText: 'model.name' })).toContainText('CLI');
});

test('a session file written on disk appears live, and a replacement updates it', async ({ page, vault }) => {
  await page.goto(vault.url);
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  await writeFile(join(vault.jidoDir, 'j-new.json'), jidoSession('j-new', 'written-while-open', '2030-01-01T00:00:00.000000Z'));
  await expect(row(page, 'jido-code:j-new')).toContainText('written-while-open', { timeout: 2000 });
  // Atomic replacement (temp file + rename), as the tools write.
  const tmp = join(vault.jidoDir, 'j-new.json.tmp');
  await writeFile(tmp, jidoSession('j-new', 'renamed-live', '2030-01-01T00:00:00.000000Z'));
  await rename(tmp, join(vault.jidoDir, 'j-new.json'));
  await expect(row(page, 'jido-code:j-new')).toContainText('renamed-live', { timeout: 2000 });
});

test('a corrupt file is listed as unreadable with its reason', async ({ page, vault }) => {
  await page.goto(vault.url);
  const broken = row(page, 'jido-code:j-broken');
  await expect(broken).toHaveAttribute('data-unreadable', 'true');
  await broken.click();
  await expect(page.getByTestId('unreadable-reason')).toContainText(/Invalid JSON/);
  await expect(page.getByTestId('unreadable-reason')).toContainText(/cut off/);
});

test('the Sources panel names an unreadable file, and that name opens it', async ({ page, vault }) => {
  await page.goto(vault.url);
  await page.getByTestId('root-row').getByText('1 unreadable').click();
  const example = page.getByTestId('unreadable-example');
  await expect(example).toHaveText(/j-broken\.json$/);
  await example.click();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'jido-code:j-broken');
  await expect(page.getByTestId('unreadable-reason')).toContainText(/Invalid JSON/);
});

/** Records every layout shift (an element moving on its own) that Chromium reports, for `shiftsSoFar`. */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: string[] = [];
    const record = (entries: PerformanceEntryList) => {
      for (const entry of entries as unknown as Array<{ hadRecentInput: boolean; sources: Array<{ node?: Node }> }>) {
        // A shift right after the user's own input is the user's doing, not a jump.
        if (entry.hadRecentInput) continue;
        shifts.push(entry.sources.map((s) => (s.node instanceof Element ? s.node.className || s.node.tagName : s.node?.textContent)).join(', '));
      }
    };
    const observer = new PerformanceObserver((list) => record(list.getEntries()));
    observer.observe({ type: 'layout-shift', buffered: true });
    // Entries already reported but not yet handed to the callback are taken too.
    Object.assign(window, { layoutShifts: () => (record(observer.takeRecords()), shifts) });
  });
}

/** The shifts so far, once the frames already due are painted (a shift is reported with the frame that made it). */
const shiftsSoFar = (page: Page) =>
  page.evaluate(async () => {
    await new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)));
    return (window as unknown as { layoutShifts: () => string[] }).layoutShifts();
  });

test('nothing jumps while the window loads and the index is built: rows stay under the pointer', async ({ page, vault }) => {
  await recordLayoutShifts(page);
  await page.goto(vault.url);
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  // The index finishes behind the list, and its progress comes and goes: still nothing may move.
  await expect.poll(() => callApi<{ phase: string }>(vault, 'getIndexProgress', {}).then((p) => p.phase)).toBe('idle');
  // The window has shown the end of it too (the count of files checked comes only with a finished scan).
  await expect(page.getByTestId('index-idle')).toHaveText(/^Index up to date · \d+ files? checked$/);
  expect(await shiftsSoFar(page)).toEqual([]);
  // The counts are there once "Refine" is opened (the user's own doing moves the list, as it should).
  await page.getByTestId('facets-toggle').click();
  await expect(page.getByTestId('facet').first()).toBeVisible();
});

test('a reload of a settled vault fetches the list once, and the page still follows the disk', async ({ page, vault }) => {
  await page.goto(vault.url);
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  await expect(page.getByTestId('index-idle')).toHaveText(/^Index up to date · \d+ files? checked$/);
  // Every list request after the reload; one that names `keys` fetches only the rows an event said changed.
  const lists: Array<{ keys?: string[] }> = [];
  const inFlight = new Set<Request>();
  page.on('request', (r) => {
    if (!r.url().includes('/api/')) return;
    inFlight.add(r);
    if (r.url().includes('/api/listSessions')) lists.push(JSON.parse(r.postData() ?? '{}') as { keys?: string[] });
  });
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => inFlight.delete(r));
  await page.reload();
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  await expect.poll(() => inFlight.size).toBe(0);
  // A change after the load still arrives over the stream (its first event, the hello, came before it).
  await writeFile(join(vault.jidoDir, 'j-new.json'), jidoSession('j-new', 'written-after-reload', '2030-01-01T00:00:00.000000Z'));
  await expect(row(page, 'jido-code:j-new')).toContainText('written-after-reload');
  await expect.poll(() => inFlight.size).toBe(0);
  expect(lists.filter((q) => !q.keys)).toHaveLength(1);
  expect(lists.filter((q) => q.keys).map((q) => q.keys)).toContainEqual(['jido-code:j-new']);
});

test("a source's counts change in place: '1 session, 1 unreadable' becoming '2 sessions' moves no text", async ({ page }) => {
  // Seen in CI: the Sources panel showed a half-scanned root, and the word after the count jumped when it grew.
  await startVault(
    false,
    async (vault) => {
      await recordLayoutShifts(page);
      await page.goto(vault.url);
      const meta = page.getByTestId('root-row').locator('.root-meta');
      await expect(meta).toContainText('1 session');
      await expect(meta).toContainText('1 unreadable');
      await writeFile(join(vault.jidoDir, 'j-new.json'), jidoSession('j-new', 'written-while-open'));
      await expect(meta).toContainText('2 sessions');
      expect(await shiftsSoFar(page)).toEqual([]);
    },
    undefined,
    async ({ jidoDir }) => {
      await writeFile(join(jidoDir, 'j-1.json'), jidoSession('j-1', 'nightly-etl'));
      await writeFile(join(jidoDir, 'j-broken.json'), '{"version":1,"id":"j-broken","name":"cut');
    },
  );
});

test('keyboard: arrows move the selection and Enter opens it', async ({ page, vault }) => {
  await page.goto(vault.url);
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  await page.getByTestId('session-list').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-title')).toHaveText('Make merge deterministic');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-title')).toHaveText('nightly-etl');
  await page.keyboard.press('ArrowUp');
  await expect(page.locator('[data-testid="session-row"][aria-selected="true"]')).toHaveAttribute('data-key', 'vizier:v-1');
});

test('an empty vault explains what to do, and the demo sessions populate it', async ({ page, emptyVault }) => {
  await page.goto(emptyVault.url);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await page.getByTestId('open-demo').click();
  // The demo sessions are listed as the scan reads them: wait for all of them, not just the first.
  await expect.poll(() => page.getByTestId('session-row').count()).toBeGreaterThanOrEqual(4);
});

test('the raw source file is shown for a session', async ({ page, vault }) => {
  await page.goto(vault.url);
  await row(page, 'jido-code:j-1').click();
  await page.getByRole('tab', { name: /raw/i }).click();
  await expect(page.getByTestId('raw-source')).toContainText('"project_path"');
});
