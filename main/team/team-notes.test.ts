// The team's shared notes, tags and summaries: written by members on any team session as themselves, read by everyone, refused to viewers by the app and by the database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { createAccount, revokeAccount } from './accounts.ts';
import { TEAM_SCHEMA_VERSION } from './migrations.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import type { TeamConnection } from './team-connection.ts';
import { resolveTeamTarget } from './team-credentials.ts';
import { teamKey } from './team-reader.ts';
import { openTeamServices, type TeamServices } from './team-services.ts';
import { accountConnection, connectUrl, fixtureSessions, memoryLoader, storeAtVersion, urlAs, writeAsBefore } from './test-team.ts';

/** The SQLSTATE a statement fails with, or 'ok' and how many rows it touched. */
async function attempt(conn: TeamConnection, sql: string, values: readonly unknown[] = []): Promise<string> {
  try {
    const r = await conn.client.query(sql, [...values]);
    return `ok ${r.rowCount}`;
  } catch (err) {
    return `${(err as { code?: string }).code}: ${(err as Error).message}`;
  }
}

const serveAs = (url: string, dataDir: string) => openTeamServices(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: url }), dataDir, {});

describeWithPostgres("the team's shared notes and summaries", (pgs) => {
  let owner: TeamConnection;
  let alice: { conn: TeamConnection; token: string; url: string };
  let bob: { conn: TeamConnection; token: string; url: string };
  let vera: { conn: TeamConnection; token: string; url: string };
  let asAlice: TeamServices;
  let asBob: TeamServices;
  let asVera: TeamServices;
  let sessions: Session[];
  let dataDir: string;
  let ownerUrl: string;
  /** Bob's session, which Alice writes about. */
  let bobs: string;
  let alices: string;

  beforeAll(async () => {
    ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    alice = await accountConnection(owner, ownerUrl, 'alice', 'member');
    bob = await accountConnection(owner, ownerUrl, 'bob', 'member');
    vera = await accountConnection(owner, ownerUrl, 'vera', 'viewer');
    sessions = (await fixtureSessions(['codex'])).slice(0, 2);
    const keys = sessions.map((s) => s.key);
    await pushSessions({ client: alice.conn.client, machine: 'alice-laptop', keys, loader: memoryLoader(sessions), env: {} });
    await pushSessions({ client: bob.conn.client, machine: 'bob-box', keys, loader: memoryLoader(sessions), env: {} });
    bobs = teamKey('bob-box', keys[0] as string);
    alices = teamKey('alice-laptop', keys[0] as string);
    dataDir = mkdtempSync(join(tmpdir(), 'sv-team-notes-'));
    [asAlice, asBob, asVera] = await Promise.all([serveAs(alice.url, dataDir), serveAs(bob.url, dataDir), serveAs(vera.url, dataDir)]);
  }, 30_000);

  afterAll(async () => {
    for (const s of [asAlice, asBob, asVera]) await s?.close();
    for (const c of [alice?.conn, bob?.conn, vera?.conn, owner]) await c?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lets a member write a summary of another machine's session, shown to every account with who wrote it and when", async () => {
    expect((await asVera.methods.getSummary({ key: bobs })).summary).toBeNull();
    const before = Date.now();
    const { summary } = await asAlice.methods.setSummary({
      key: bobs,
      summary: {
        overview: 'Retries the webhook with backoff.',
        decisions: ['Exponential backoff'],
        outcomes: [],
        openItems: ['Cap the delay'],
        tags: ['webhook', 'CI', 'Webhook'],
      },
      // The window's name for its user: the store records the account instead.
      author: 'you',
    });
    expect(summary).toMatchObject({ source: 'vault', author: 'alice', overview: 'Retries the webhook with backoff.', tags: ['Webhook', 'CI'] });
    expect(Date.parse(summary?.updatedAt ?? '')).toBeGreaterThanOrEqual(before - 5_000);

    const seen = (await asVera.methods.getSummary({ key: bobs })).summary;
    expect(seen).toEqual(summary);
    expect((await asVera.methods.summaryStates({ keys: [alices, bobs] })).states).toEqual([
      { key: alices, source: null, author: null, updatedAt: null },
      { key: bobs, source: 'vault', author: 'alice', updatedAt: summary?.updatedAt },
    ]);
    // has:summary finds it, and its facet counts what the filter selects.
    const found = await asVera.methods.searchSessions({ query: 'has:summary', limit: 10, offset: 0 });
    expect(found.results.map((r) => r.summary.key)).toEqual([bobs]);
    expect((await asVera.methods.searchSessions({ query: '-has:summary', limit: 10, offset: 0 })).total).toBe(2 * sessions.length - 1);
    const all = await asVera.methods.searchSessions({ query: '', limit: 1, offset: 0, facets: true });
    expect(all.facets?.summary).toEqual([{ value: 'Has a summary', filter: 'has:summary', count: 1 }]);

    // Bob rewrites it: now his; Alice removes it: gone for everyone.
    await asBob.methods.setSummary({
      key: bobs,
      summary: { overview: 'Backoff capped at a minute.', decisions: [], outcomes: [], openItems: [], tags: [] },
      author: 'you',
    });
    expect((await asVera.methods.getSummary({ key: bobs })).summary).toMatchObject({ author: 'bob', overview: 'Backoff capped at a minute.' });
    expect((await asAlice.methods.setSummary({ key: bobs, summary: null, author: 'you' })).summary).toBeNull();
    expect((await asVera.methods.getSummary({ key: bobs })).summary).toBeNull();
  });

  it("shares a session's note and tags; stars stay each machine's own", async () => {
    const saved = await asAlice.methods.setAnnotations({ key: bobs, note: 'Flaky on CI: see the retry at message 4.', tags: ['flaky', ' ci ', 'flaky'] });
    expect(saved).toMatchObject({ starred: false, note: 'Flaky on CI: see the retry at message 4.', tags: ['ci', 'flaky'] });
    expect((await asVera.methods.getVaultStatus({ key: bobs })).annotations).toEqual(saved);
    // The list marks it as having a note, for everyone.
    const rows = (await asVera.methods.searchSessions({ query: '', limit: 10, offset: 0 })).results.map((r) => r.summary);
    expect(rows.filter((r) => r.hasNote).map((r) => r.key)).toEqual([bobs]);
    // A change of the tags keeps the note.
    expect(await asBob.methods.setAnnotations({ key: bobs, tags: ['flaky'] })).toMatchObject({ note: saved.note, tags: ['flaky'] });
    await expect(asAlice.methods.setAnnotations({ key: bobs, starred: true })).rejects.toThrow(
      "A team session cannot be starred: stars are each machine's own. Its note and tags are shared with the team.",
    );
    // Emptied, it is gone.
    expect(await asBob.methods.setAnnotations({ key: bobs, note: '', tags: [] })).toMatchObject({ note: '', tags: [] });
    expect((await asVera.methods.getVaultStatus({ key: bobs })).annotations).toEqual({ starred: false, note: '', tags: [], updatedAt: null });
    await expect(asAlice.methods.setAnnotations({ key: 'bob-box/codex:nope', note: 'x' })).rejects.toThrow(
      'The team store has no session codex:nope from bob-box.',
    );
  });

  it("finds sessions by the team's shared tags with tag:, whatever their case, counts them in Refine, and lists them by tag", async () => {
    await asAlice.methods.setAnnotations({ key: bobs, tags: ['flaky', 'CI'] });
    await asBob.methods.setAnnotations({ key: alices, tags: ['ci'] });
    try {
      const keys = async (query: string) => {
        const found = await asVera.methods.searchSessions({ query, limit: 10, offset: 0 });
        expect(found.problems).toEqual([]);
        return found.results.map((r) => r.summary.key).sort();
      };
      expect(await keys('tag:flaky')).toEqual([bobs]);
      expect(await keys('tag:ci')).toEqual([alices, bobs].sort());
      expect(await keys('tag:FLAKY tag:ci')).toEqual([bobs]);
      expect(await keys('tag:ci machine:alice-laptop')).toEqual([alices]);
      expect(await keys('tag:deploy')).toEqual([]);
      const facets = (await asVera.methods.searchSessions({ query: '', limit: 10, offset: 0, facets: true })).facets;
      expect(facets?.tag).toEqual([
        { value: expect.stringMatching(/^ci$/i), count: 2, filter: expect.stringMatching(/^tag:ci$/i) },
        { value: 'flaky', count: 1, filter: 'tag:flaky' },
      ]);
      expect((await asVera.methods.listSessions({ tag: 'flaky' })).sessions.map((s) => s.key)).toEqual([bobs]);
    } finally {
      await asAlice.methods.setAnnotations({ key: bobs, tags: [] });
      await asBob.methods.setAnnotations({ key: alices, tags: [] });
    }
  });

  it('tells the window which account it is signed in as, and its role, so a viewer is offered no writing', async () => {
    expect(await asVera.methods.getTeamStatus({})).toMatchObject({ account: 'vera', role: 'viewer', served: true, error: null });
    expect(await asAlice.methods.getTeamStatus({})).toMatchObject({ account: 'alice', role: 'member', served: true, error: null });
  });

  it('refuses a viewer plainly, and the database refuses its direct SQL, a write in another name, and a revoked account', async () => {
    await expect(
      asVera.methods.setSummary({ key: bobs, summary: { overview: 'mine', decisions: [], outcomes: [], openItems: [], tags: [] }, author: 'you' }),
    ).rejects.toThrow('The account "vera" is a viewer: it may read the team\'s notes and summaries, not write them. Ask an admin for the member role.');
    await expect(asVera.methods.setAnnotations({ key: bobs, note: 'mine' })).rejects.toThrow('The account "vera" is a viewer');
    const [machine, key] = ['bob-box', sessions[0]?.key];
    const insert = (by: string) =>
      [`INSERT INTO session_vault.session_summaries (machine, key, overview, written_by) VALUES ($1, $2, 'forged', $3)`, [machine, key, by]] as const;
    expect(await attempt(vera.conn, ...insert('vera'))).toMatch(/^42501: permission denied for table session_summaries/);
    expect(
      await attempt(vera.conn, `INSERT INTO session_vault.session_annotations (machine, key, note, written_by) VALUES ($1, $2, 'x', 'vera')`, [machine, key]),
    ).toMatch(/^42501: permission denied for table session_annotations/);
    expect(await attempt(bob.conn, ...insert('alice'))).toMatch(/^42501: new row violates row-level security policy/);
    expect(await attempt(alice.conn, ...insert('alice'))).toBe('ok 1');
    // Bob may rewrite Alice's summary, but only as himself.
    expect(await attempt(bob.conn, `UPDATE session_vault.session_summaries SET overview = 'defaced'`)).toMatch(
      /^42501: new row violates row-level security policy/,
    );
    expect(await attempt(vera.conn, `DELETE FROM session_vault.session_summaries`)).toMatch(/^42501: permission denied for table session_summaries/);
    expect((await asVera.methods.getSummary({ key: bobs })).summary).toMatchObject({ overview: 'forged', author: 'alice' });

    const dave = await accountConnection(owner, ownerUrl, 'dave', 'member');
    const asDave = await serveAs(dave.url, dataDir);
    try {
      await revokeAccount(owner.client, 'dave');
      await expect(asDave.methods.setAnnotations({ key: bobs, note: 'still here' })).rejects.toThrow('The account "dave" was revoked');
      expect(await attempt(dave.conn, `DELETE FROM session_vault.session_summaries`)).toBe('ok 0');
      expect(await attempt(dave.conn, ...insert('dave'))).toMatch(/^42501: new row violates row-level security policy/);
    } finally {
      await asDave.close();
      await dave.conn.close();
    }
  });
  it('upgrades a version-3 store with pushed sessions: they read back as before, and notes and summaries can be written on them', async () => {
    const url = await pgs.freshDatabase();
    // The store as the previous app left it: migrations 1-3, an account, a machine's sessions pushed.
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    let token: string;
    try {
      await storeAtVersion(setup, 3);
      token = await createAccount(setup, 'carol', 'member');
      // Carol's sessions as that app's push wrote them (this app's push needs the current schema).
      await writeAsBefore(setup, 'carol-box', 'carol', sessions);
    } finally {
      await setup.end();
    }
    const carolUrl = urlAs(url, 'carol', token);
    const key = teamKey('carol-box', sessions[0]?.key as string);
    const stored = await connectUrl(url).then(async (c) => {
      await c.close();
      return c.schema;
    });
    expect(stored).toEqual({ before: 3, after: TEAM_SCHEMA_VERSION });
    const asCarol = await serveAs(carolUrl, dataDir);
    try {
      const opened = await asCarol.methods.getSession({ key, messageLimit: 1000 });
      expect(opened.messages.map((m) => m.id)).toEqual(sessions[0]?.messages.map((m) => m.id));
      expect((await asCarol.methods.getSummary({ key })).summary).toBeNull();
      await asCarol.methods.setSummary({
        key,
        summary: { overview: 'Written after the upgrade.', decisions: [], outcomes: [], openItems: [], tags: [] },
        author: 'you',
      });
      await asCarol.methods.setAnnotations({ key, note: 'upgraded' });
      expect((await asCarol.methods.getSummary({ key })).summary).toMatchObject({ author: 'carol', overview: 'Written after the upgrade.' });
      expect((await asCarol.methods.getVaultStatus({ key })).annotations.note).toBe('upgraded');
    } finally {
      await asCarol.close();
    }
  });
});
