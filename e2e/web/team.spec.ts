// The team store in a browser, two machines' sessions pushed to a throwaway PostgreSQL: `serve --team` (listed with their machine, searched, opened, compared, exported, read-only but for the team's shared summaries) and the app's Team source (beside local sessions, a push after its review, a summary written for the team).
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { findPgBin, startCluster, type PgCluster } from '../../main/team/pg-cluster.ts';
import { pushSessions } from '../../main/team/push.ts';
import type { TeamConnection } from '../../main/team/team-connection.ts';
import { teamKey } from '../../main/team/team-reader.ts';
import { jidoSession } from '../../main/test-support/session-files.ts';
import { makeSession, textMessage } from '../../main/search-index/test-sessions.ts';
import { accountConnection, connectUrl, fixtureSessions, memoryLoader } from '../../main/team/test-team.ts';

const CLI = resolve('out/main/cli.js');
const bin = findPgBin();

/** The message of lighthouseSession() that alone says "lighthouse": past the first window of 1,000 messages the transcript loads. */
const LIGHTHOUSE_MESSAGE = 1400;

/** A long session of routine steps whose only mention of a lighthouse sits deep in it (its project's name does not say it). */
const lighthouseSession = () =>
  makeSession('harbour-rota', {
    title: 'Harbour lights rota',
    messages: Array.from({ length: 1500 }, (_, i) =>
      textMessage(
        i % 2 ? 'assistant' : 'user',
        i === LIGHTHOUSE_MESSAGE ? 'The lighthouse lamp was relit after the storm.' : `Step ${i}: routine checks on the harbour rota.`,
      ),
    ),
    sourceFiles: [],
  });

/** Starts `serve` (this machine's sessions, below `root`) and reads the URL it prints. */
function serveLocal(root: string, home: string): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, [CLI, 'serve', '--root', root, '--port', '0', '--no-open'], {
    env: { ...process.env, SESSION_VAULT_HOME: home, HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 15 s: ${out}`)), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { child, url };
}

/** Starts `serve --team` as a viewer (its token in PGPASSWORD, never on the command line) and reads the URL it prints. */
function serveTeam(storeUrl: string, token: string, home: string): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, [CLI, 'serve', '--team', storeUrl, '--port', '0', '--no-open'], {
    env: { ...process.env, SESSION_VAULT_HOME: home, HOME: home, PGPASSWORD: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = new Promise<string>((resolveUrl, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve --team printed no URL in 15 s.\nstdout: ${out}\nstderr: ${err}`)), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /read-only at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve --team exited with ${code}: ${err}`)));
  });
  return { child, url };
}

test.describe('team store in the browser', () => {
  test.skip(!bin && process.env.CI !== 'true', 'no PostgreSQL server binaries (install postgresql to run it)');
  test.describe.configure({ mode: 'serial' });

  let cluster: PgCluster;
  let owner: TeamConnection;
  let server: { child: ChildProcess; url: Promise<string> };
  let url: string;
  let home: string;
  let ledgerKey: string;
  let berthKey: string;
  let app: { child: ChildProcess; url: Promise<string> };
  let appUrl: string;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    if (!bin) throw new Error('CI must have PostgreSQL: .ci/run installs it');
    home = await mkdtemp(join(tmpdir(), 'sv-e2e-team-'));
    cluster = await startCluster(bin);
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE team');
    await admin.end();
    const ownerUrl = cluster.url.replace(/\/[^/]*$/, '/team');
    owner = await connectUrl(ownerUrl);
    const alice = await accountConnection(owner, ownerUrl, 'alice', 'member');
    const bob = await accountConnection(owner, ownerUrl, 'bob', 'member');
    const vera = await accountConnection(owner, ownerUrl, 'vera', 'viewer');
    const laptop = await fixtureSessions(['claude-code']);
    const desktop = [...(await fixtureSessions(['vizier'])), lighthouseSession()];
    await pushSessions({ client: alice.conn.client, machine: 'alice-laptop', keys: laptop.map((s) => s.key), loader: memoryLoader(laptop), env: {} });
    await pushSessions({ client: bob.conn.client, machine: 'bob-desktop', keys: desktop.map((s) => s.key), loader: memoryLoader(desktop), env: {} });
    ledgerKey = teamKey('alice-laptop', laptop.find((s) => s.title === 'Ledger import CLI scaffolding')?.key ?? '');
    berthKey = teamKey('bob-desktop', desktop.find((s) => s.title.startsWith('Berth bookings made after 23:00'))?.key ?? '');
    for (const c of [alice.conn, bob.conn, vera.conn]) await c.close();
    // Vera's URL without a password: --team never takes one (the command line is visible to every user).
    const viewerUrl = new URL(ownerUrl);
    viewerUrl.username = 'vera';
    viewerUrl.password = '';
    server = serveTeam(viewerUrl.href, vera.token, home);
    url = await server.url;
    // The app on Alice's other machine: one local session, and the Team source set (as its settings form keeps it).
    const appHome = join(home, 'app');
    const root = join(home, 'root');
    await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
    await writeFile(join(root, '.jido_code', 'sessions', 'j-1.json'), jidoSession('j-1', 'nightly-etl'));
    await mkdir(join(appHome, 'team'), { recursive: true, mode: 0o700 });
    const aliceUrl = new URL(ownerUrl);
    aliceUrl.username = 'alice';
    aliceUrl.password = '';
    await writeFile(join(appHome, 'team', 'settings.json'), JSON.stringify({ store: aliceUrl.href, machine: 'alice-app', autoPush: false }));
    await writeFile(join(appHome, 'team', 'token'), alice.token, { mode: 0o600 });
    app = serveLocal(root, appHome);
    appUrl = await app.url;
  });

  test.afterAll(async () => {
    for (const s of [server, app]) {
      s?.child.kill('SIGTERM');
      if (s?.child.exitCode === null) await new Promise((r) => s.child.once('exit', r));
    }
    await owner?.close();
    await cluster?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  test("lists both machines' sessions marked with their machine; search finds one by a word of its transcript and opens it", async ({ page }, testInfo) => {
    await page.goto(url);
    const rows = page.getByTestId('session-row');
    await expect(rows.filter({ has: page.getByTestId('row-machine').filter({ hasText: 'alice-laptop' }) }).first()).toBeVisible();
    await expect(rows.filter({ has: page.getByTestId('row-machine').filter({ hasText: 'bob-desktop' }) }).first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('team-list.png'), fullPage: false });
    // The window is the team store: no Team source beside it.
    await expect(page.getByTestId('team-panel')).toHaveCount(0);

    await page.keyboard.press('/');
    await page.keyboard.type('berth');
    const found = page.locator(`[data-testid="session-row"][data-key="${berthKey}"]`);
    await expect(found).toBeVisible();
    await expect(found.getByTestId('row-machine')).toHaveText('bob-desktop');
    // Its snippet shows the word in its context, marked, as a local result's does.
    await expect(found.getByTestId('row-snippet').locator('mark').first()).toHaveText(/^berth$/i);
    await expect(page.locator('[data-testid="session-row"][data-key^="alice-laptop/"]')).toHaveCount(0);
    await found.click();
    await expect(page.getByTestId('detail')).toHaveAttribute('data-key', berthKey);
    await expect(page.getByTestId('detail')).toContainText('show up on the wrong day');
    // Nothing of a local vault is offered on the team's sessions: no Keep, Star, Delete or Fork, no Vault… panel.
    await expect(page.getByTestId('vault-actions').getByTestId('resume-button')).toBeVisible();
    for (const id of ['keep-button', 'star-toggle', 'delete-button', 'fork-button', 'vault-panel-button']) await expect(page.getByTestId(id)).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('team-open.png'), fullPage: false });
  });

  test('a hit on a word of a late message opens the transcript at that message', async ({ page }) => {
    await page.goto(url);
    await page.keyboard.press('/');
    await page.keyboard.type('lighthouse');
    const found = page.locator(`[data-testid="session-row"][data-key="${teamKey('bob-desktop', lighthouseSession().key)}"]`);
    await expect(found.getByTestId('row-snippet').locator('mark').first()).toHaveText(/^lighthouse$/i);
    await found.click();
    // The hit named its message: the link to the open session says it too.
    await expect(page).toHaveURL(new RegExp(`/conversation/${LIGHTHOUSE_MESSAGE}$`));
    const target = page.locator('[data-testid="message"][data-search-target="true"]');
    await expect(target).toBeInViewport();
    await expect(target).toContainText('The lighthouse lamp was relit');
    await expect(target.locator('mark', { hasText: /lighthouse/i })).toBeVisible();
  });

  test("in the app's Team source, a hit on a word of a late message opens the transcript at that message too", async ({ page }) => {
    await page.goto(appUrl);
    const panel = page.getByTestId('team-panel');
    await panel.getByTestId('team-search').fill('lighthouse');
    const key = teamKey('bob-desktop', lighthouseSession().key);
    await expect(panel.getByTestId('team-row')).toHaveCount(1);
    await panel.locator(`[data-testid="team-row"][data-key="${key}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/conversation/${LIGHTHOUSE_MESSAGE}$`));
    const target = page.locator('[data-testid="message"][data-search-target="true"]');
    await expect(target).toBeInViewport();
    await expect(target).toContainText('The lighthouse lamp was relit');
    await expect(target.locator('mark', { hasText: /lighthouse/i })).toBeVisible();
  });

  test('compares a session of one machine with one of the other, exports one, and refuses changes', async ({ page, request }) => {
    await page.goto(`${url}#/compare/${encodeURIComponent(ledgerKey)}/${encodeURIComponent(berthKey)}`);
    await expect(page.getByTestId('compare-view')).toBeVisible();
    await expect(page.getByTestId('compare-side-a')).toContainText('Claude Code');
    await expect(page.getByTestId('compare-side-b')).toContainText('Vizier');

    const base = new URL(url);
    const token = base.searchParams.get('token') ?? '';
    const zip = await request.get(`${base.origin}/download/bundle?key=${encodeURIComponent(ledgerKey)}&token=${token}`);
    expect(zip.status()).toBe(200);
    expect((await zip.body()).subarray(0, 2).toString()).toBe('PK');
    const keep = await request.post(`${base.origin}/api/keepSession`, { headers: { Authorization: `Bearer ${token}` }, data: { key: ledgerKey } });
    expect(keep.status()).toBe(409);
    expect((await keep.json()).error.message).toMatch(/^The team store is served read-only/);
  });

  test("the app's Team source lists both machines' sessions beside the local ones, finds one by a word of its transcript, opens it, and pushes a local session after its review", async ({
    page,
  }, testInfo) => {
    // A push starts the bundles' worker and scans the session: seconds on a busy machine.
    test.setTimeout(60_000);
    await page.goto(appUrl);
    const panel = page.getByTestId('team-panel');
    await expect(panel.getByTestId('team-status')).toContainText('alice (member) · this machine: alice-app');
    await expect(panel.getByTestId('row-machine').filter({ hasText: 'alice-laptop' }).first()).toBeVisible();
    await expect(panel.getByTestId('row-machine').filter({ hasText: 'bob-desktop' }).first()).toBeVisible();
    await expect(page.locator('[data-testid="session-row"][data-key="jido-code:j-1"]')).toBeVisible();

    await panel.getByTestId('team-search').fill('"wrong day"');
    await expect(panel.getByTestId('team-row')).toHaveCount(1);
    await panel.locator(`[data-testid="team-row"][data-key="${berthKey}"]`).click();
    await expect(page.getByTestId('detail')).toHaveAttribute('data-key', berthKey);
    await expect(page.getByTestId('detail')).toContainText('show up on the wrong day');
    await expect(page.getByTestId('vault-actions').getByTestId('resume-button')).toBeVisible();
    for (const id of ['keep-button', 'star-toggle', 'delete-button', 'fork-button']) await expect(page.getByTestId(id)).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('team-source.png'), fullPage: false });

    await page.locator('[data-testid="session-row"][data-key="jido-code:j-1"]').click();
    await expect(page.getByTestId('detail')).toHaveAttribute('data-key', 'jido-code:j-1');
    // This machine's own session keeps every vault action.
    for (const id of ['keep-button', 'star-toggle', 'delete-button']) await expect(page.getByTestId(id)).toBeVisible();
    await panel.getByTestId('team-push').click();
    const review = page.getByTestId('team-review');
    await expect(review).toBeVisible({ timeout: 20_000 });
    await expect(review).toContainText('Push 1 session to the team for the first time?');
    await review.getByTestId('team-review-push').click();
    await expect(panel.getByTestId('team-push-message')).toHaveText('1 session pushed.', { timeout: 20_000 });
    await panel.getByTestId('team-search').fill('machine:alice-app');
    await expect(panel.locator('[data-testid="team-row"][data-key="alice-app/jido-code:j-1"]')).toBeVisible();
  });

  test("a summary and a tag written on a team session in Alice's app are the team's: Vera sees them in serve --team, finds the session by tag:, and as a viewer is offered no editing", async ({
    page,
    browser,
  }, testInfo) => {
    await page.goto(appUrl);
    const panel = page.getByTestId('team-panel');
    await panel.getByTestId('team-search').fill('"wrong day"');
    await panel.locator(`[data-testid="team-row"][data-key="${berthKey}"]`).click();
    await expect(page.getByTestId('detail')).toHaveAttribute('data-key', berthKey);
    const card = page.getByTestId('summary-card');
    await card.getByTestId('summary-edit').click();
    await page.getByTestId('summary-overview-input').fill('Late bookings landed on the next day; the cut-off now uses the harbour time zone.');
    await page.getByTestId('summary-openItems-input').fill('Backfill the bookings made since March');
    await page.getByTestId('summary-save').click();
    await expect(card.getByTestId('summary-overview')).toHaveText('Late bookings landed on the next day; the cut-off now uses the harbour time zone.');
    await expect(card.getByTestId('summary-author')).toHaveText('alice');
    // A member tags it for the team on the Info tab.
    await page.getByRole('tab', { name: 'Info' }).click();
    await page.getByTestId('tag-input').fill('Timezones');
    await page.getByTestId('tag-input').press('Enter');
    await expect(page.getByTestId('detail').getByTestId('tag-chip')).toHaveText(['Timezones×']);

    // Another person, another browser: Vera's serve --team, signed in as a viewer.
    const other = await browser.newContext();
    try {
      const vera = await other.newPage();
      await vera.goto(url);
      await vera.keyboard.press('/');
      await vera.keyboard.type('berth');
      // Refine counts the matches by machine and by who pushed them.
      await vera.getByTestId('facets-toggle').click();
      const machines = vera.locator('[data-testid="facet-group"][data-facet="machine"]');
      await expect(machines.getByTestId('facet')).toHaveText(['bob-desktop 2']);
      await expect(vera.locator('[data-testid="facet-group"][data-facet="user"]').getByTestId('facet')).toHaveText(['bob 2']);
      await vera.locator(`[data-testid="session-row"][data-key="${berthKey}"]`).click();
      const seen = vera.getByTestId('summary-card');
      await expect(seen.getByTestId('summary-overview')).toHaveText('Late bookings landed on the next day; the cut-off now uses the harbour time zone.');
      await expect(seen.getByTestId('summary-author')).toHaveText('alice');
      await expect(seen).toContainText('Backfill the bookings made since March');
      await vera.screenshot({ path: testInfo.outputPath('team-summary-shared.png'), fullPage: false });
      // A viewer reads the team's summary, tags and note, and is offered nothing to write them with.
      await expect(seen.getByTestId('summary-edit')).toHaveCount(0);
      await expect(seen.getByTestId('summary-remove')).toHaveCount(0);
      await vera.getByRole('tab', { name: 'Info' }).click();
      await expect(vera.getByTestId('tags-readonly').getByTestId('tag-chip')).toHaveText(['Timezones']);
      await expect(vera.getByTestId('tag-input')).toHaveCount(0);
      await expect(vera.getByTestId('note-input')).toHaveCount(0);
      // tag: finds it by the team's tag, in any case.
      await vera.getByTestId('filter').fill('tag:timezones');
      await expect(vera.getByTestId('session-row')).toHaveCount(1);
      await expect(vera.locator(`[data-testid="session-row"][data-key="${berthKey}"]`)).toBeVisible();
    } finally {
      await other.close();
    }
    // Nothing of Vera's reached the store.
    const stored = await owner.client.query<{ overview: string; written_by: string }>('SELECT overview, written_by FROM session_vault.session_summaries');
    expect(stored.rows).toEqual([{ overview: 'Late bookings landed on the next day; the cut-off now uses the harbour time zone.', written_by: 'alice' }]);
  });
});
