// Pushing to a real team store from two simulated machines: what is stored, search across both, incremental re-push, redaction, a push cut off.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { textMessage } from '../search-index/test-sessions.ts';
import { PLANTED_ENV, PLANTED_TEXT, SECRETS } from '../test-support/planted-secrets.ts';
import { waitFor } from '../test-support/wait-for.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import { sessionJsonText } from './session-chunks.ts';
import { storedSession } from './team-reader.ts';
import { searchTeam } from './team-search.ts';
import type { TeamConnection } from './team-connection.ts';
import { accountConnection, connectUrl, fixtureSessions, memoryLoader } from './test-team.ts';

const keysOf = (sessions: Session[]) => sessions.map((s) => s.key);

describeWithPostgres('team push', (pgs) => {
  let ownerUrl: string;
  let owner: TeamConnection;
  let alice: TeamConnection;
  let bob: TeamConnection;
  let laptop: Session[];
  let desktop: Session[];

  beforeAll(async () => {
    ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    alice = (await accountConnection(owner, ownerUrl, 'alice', 'member')).conn;
    bob = (await accountConnection(owner, ownerUrl, 'bob', 'member')).conn;
    laptop = await fixtureSessions(['claude-code', 'codex', 'gemini']);
    desktop = await fixtureSessions(['vizier', 'jido-code', 'ai-agent', 'projecthub']);
    const first = await pushSessions({
      client: alice.client,
      machine: 'alice-laptop',
      keys: keysOf(laptop),
      loader: memoryLoader(laptop),
      env: {},
      batchSessions: 4,
    });
    expect(first.pushed).toHaveLength(laptop.length);
    expect(first.batches).toBe(Math.ceil(laptop.length / 4));
    await pushSessions({ client: bob.client, machine: 'bob-desktop', keys: keysOf(desktop), loader: memoryLoader(desktop), env: {} });
  }, 30_000);

  afterAll(async () => {
    for (const c of [alice, bob, owner]) await c?.close();
  });

  it('stores each session with its machine, who pushed it, and the session.json a bundle would carry', async () => {
    const { rows } = await owner.client.query<{ machine: string; pushed_by: string; n: string }>(
      'SELECT machine, pushed_by, count(*) AS n FROM session_vault.sessions GROUP BY 1, 2 ORDER BY 1',
    );
    expect(rows).toEqual([
      { machine: 'alice-laptop', pushed_by: 'alice', n: String(laptop.length) },
      { machine: 'bob-desktop', pushed_by: 'bob', n: String(desktop.length) },
    ]);
    const one = laptop.find((s) => s.title === 'Ledger import CLI scaffolding') as Session;
    const stored = (
      await owner.client.query<{ content_hash: string; title: string; project_path: string }>(
        `SELECT content_hash, title, project_path FROM session_vault.sessions WHERE machine = 'alice-laptop' AND key = $1`,
        [one.key],
      )
    ).rows[0];
    // Kept as a head and message chunks, it reads back byte for byte as the session.json that was hashed.
    const json = sessionJsonText((await storedSession(owner.client, 'alice-laptop', one.key)) as Session);
    expect(json).toBe(`${JSON.stringify(one, null, 2)}\n`);
    expect(stored?.content_hash).toBe(createHash('sha256').update(json).digest('hex'));
    expect(stored?.title).toBe('Ledger import CLI scaffolding');
  });

  it("searches both machines with the app's query syntax, plus machine: and user:", async () => {
    const titles = async (q: string) => (await searchTeam(bob.client, q)).hits.map((h) => `${h.machine} ${h.title}`);
    expect(await titles('OFX')).toEqual(expect.arrayContaining(['alice-laptop Ledger import CLI scaffolding']));
    expect((await titles('berth')).every((t) => t.startsWith('bob-desktop '))).toBe(true);
    expect(await titles('berth')).toHaveLength(2);
    // The title weighs most: the two sessions named for webhooks come before those that only mention them.
    const webhook = await titles('webhook');
    expect(webhook.slice(0, 2).sort()).toEqual(['alice-laptop Fix flaky webhook retry test', 'alice-laptop Webhook retry backoff']);
    expect(await titles('webhook -flaky')).not.toContain('alice-laptop Fix flaky webhook retry test');
    // An excluded identifier piece and an excluded phrase leave out just their sessions.
    const reconcile = 'alice-laptop Summarise what changed in scripts/reconcile.py';
    expect(await titles('changed')).toContain(reconcile);
    expect(await titles('changed -concile.p')).not.toContain(reconcile);
    expect((await titles('changed -concile.p')).length).toBe((await titles('changed')).length - 1);
    const berth = await titles('berth');
    const lateBookings = (t: string) => t.startsWith('bob-desktop Berth bookings made after 23:00');
    expect(berth.some(lateBookings)).toBe(true);
    expect(await titles('berth -"wrong day"')).toEqual(berth.filter((t) => !lateBookings(t)));
    expect(await titles('"wrong day"')).toEqual([expect.stringMatching(/^bob-desktop Berth bookings made after 23:00/)]);
    expect(await titles('"day wrong"')).toEqual([]);
    expect(await titles('moor*')).toEqual(['bob-desktop harbour-db']);
    // A piece of an identifier or path, as the local search finds it (scripts/reconcile.py).
    expect(await titles('concile.p')).toEqual(expect.arrayContaining(['alice-laptop Summarise what changed in scripts/reconcile.py']));
    expect(await titles('tidepool machine:alice-laptop')).toEqual([]);
    expect((await titles('tidepool machine:bob-desktop')).length).toBeGreaterThan(0);
    expect((await titles('user:bob')).length).toBe(desktop.length);
    expect((await titles('-user:bob')).length).toBe(laptop.length);
    expect(await titles('source:jido-code user:alice')).toEqual([]);
    // tag: reads the team's shared tags (team-notes.test.ts tags sessions): nobody has tagged one here, so nothing matches.
    const tagged = await searchTeam(bob.client, 'webhook tag:todo');
    expect(tagged.problems).toEqual([]);
    expect(tagged.hits).toEqual([]);
  });

  it('sends nothing for unchanged sessions, and only the session that changed', async () => {
    const before = (await owner.client.query<{ max: Date }>('SELECT max(pushed_at) FROM session_vault.sessions')).rows[0]?.max;
    const again = await pushSessions({ client: alice.client, machine: 'alice-laptop', keys: keysOf(laptop), loader: memoryLoader(laptop), env: {} });
    expect(again.pushed).toEqual([]);
    expect(again.unchanged).toHaveLength(laptop.length);
    expect(again.batches).toBe(0);
    expect((await owner.client.query<{ max: Date }>('SELECT max(pushed_at) FROM session_vault.sessions')).rows[0]?.max).toEqual(before);
    const grown = laptop.map((s) =>
      s.title === 'Webhook retry backoff' ? { ...s, messages: [...s.messages, textMessage('user', 'also cap the jitter at 250ms')] } : s,
    );
    const third = await pushSessions({ client: alice.client, machine: 'alice-laptop', keys: keysOf(grown), loader: memoryLoader(grown), env: {} });
    expect(third.pushed).toEqual([grown.find((s) => s.title === 'Webhook retry backoff')?.key]);
    expect((await searchTeam(bob.client, 'jitter')).hits.map((h) => h.title)).toEqual(['Webhook retry backoff']);
  });

  it('stores a session whose token counts are damaged past any number (1e308) with no token total, and the rest of its batch with it', async () => {
    const [first, second] = laptop as [Session, Session];
    const damaged = {
      ...first,
      key: 'gemini:damaged-count',
      id: 'damaged-count',
      usage: { input: 1e308, output: 1e308, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    };
    const sound = { ...second, key: 'gemini:sound-count', id: 'sound-count' };
    const report = await pushSessions({
      client: alice.client,
      machine: 'alice-laptop',
      keys: [damaged.key, sound.key],
      loader: memoryLoader([damaged, sound]),
      env: {},
    });
    expect(report.pushed).toEqual([damaged.key, sound.key]);
    const { rows } = await owner.client.query<{ key: string; total_tokens: string | null }>(
      `SELECT key, total_tokens FROM session_vault.sessions WHERE key = ANY($1) ORDER BY key`,
      [[damaged.key, sound.key]],
    );
    expect(rows).toEqual([
      { key: damaged.key, total_tokens: null },
      { key: sound.key, total_tokens: expect.any(String) },
    ]);
    await owner.client.query('DELETE FROM session_vault.sessions WHERE key = ANY($1)', [[damaged.key, sound.key]]);
  });

  it('never lets a planted secret reach the database', async () => {
    const planted: Session = {
      ...(laptop[0] as Session),
      key: 'claude-code:planted',
      id: 'planted',
      title: `deploy with ${SECRETS.github}`,
      messages: [textMessage('user', PLANTED_TEXT), textMessage('tool', `export AWS_SECRET_ACCESS_KEY="${SECRETS.awsSecretKey}"`)],
      parentKey: null,
      childKeys: [],
    };
    const report = await pushSessions({
      client: alice.client,
      machine: 'alice-laptop',
      keys: [planted.key],
      loader: memoryLoader([planted]),
      env: PLANTED_ENV,
    });
    expect(report.pushed).toEqual([planted.key]);
    expect(report.findings.length).toBeGreaterThan(5);
    expect(report.findings.every((f) => f.redacted)).toBe(true);
    const everything = (
      await owner.client.query<{ text: string }>(
        `SELECT concat_ws(' ', s.title, s.idents, s.session_head, s.project_path, (SELECT string_agg(body, ' ') FROM session_vault.session_texts t WHERE t.machine = s.machine AND t.key = s.key),
                  (SELECT string_agg(body, ' ') FROM session_vault.session_messages m WHERE m.machine = s.machine AND m.key = s.key)) AS text
           FROM session_vault.sessions s WHERE s.key = $1`,
        [planted.key],
      )
    ).rows[0]?.text;
    expect(everything).toContain('[REDACTED:');
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
    expect((await searchTeam(bob.client, SECRETS.github)).hits).toEqual([]);
  });

  it('keeps a push cut off mid-batch out of the store entirely, and the next push finishes it', async () => {
    const sessions = desktop.map((s) => ({ ...s, key: `${s.key}#cut`, title: `${s.title} (cut)` }));
    const victim = sessions[5] as Session;
    // Hold the second batch's text insert long enough to kill its connection while the transaction is open.
    await owner.client.query(`CREATE FUNCTION public.hold() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF EXISTS (SELECT 1 FROM new_rows WHERE key = '${victim.key}') THEN PERFORM pg_sleep(10); END IF; RETURN NULL; END $$`);
    await owner.client.query(
      `CREATE TRIGGER hold AFTER INSERT ON session_vault.session_texts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.hold()`,
    );
    const carol = await accountConnection(owner, ownerUrl, 'carol', 'member');
    const push = pushSessions({
      client: carol.conn.client,
      machine: 'carol-box',
      keys: keysOf(sessions),
      loader: memoryLoader(sessions),
      env: {},
      batchSessions: 4,
    });
    const killed = waitFor(
      async () => {
        const { rows } = await owner.client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE usename = 'carol' AND wait_event = 'PgSleep'`);
        return rows[0] ? (await owner.client.query('SELECT pg_terminate_backend($1)', [rows[0].pid])).rowCount : undefined;
      },
      5000,
      "carol's push to be held mid-batch",
    );
    await expect(push).rejects.toThrow(/The push stopped after 4 session\(s\) were stored: .*push again to send the rest/);
    expect(await killed).toBe(1);
    await owner.client.query('DROP TRIGGER hold ON session_vault.session_texts');
    const stored = async () =>
      (
        await owner.client.query<{ key: string; texts: string }>(
          `SELECT s.key, (SELECT count(*) FROM session_vault.session_texts t WHERE t.machine = s.machine AND t.key = s.key) AS texts FROM session_vault.sessions s WHERE machine = 'carol-box' ORDER BY s.key`,
        )
      ).rows;
    // The first batch only, each session whole (its row and its text).
    expect((await stored()).map((r) => r.key)).toEqual(keysOf(sessions.slice(0, 4)).sort());
    expect((await stored()).every((r) => Number(r.texts) > 0 || sessions.find((s) => s.key === r.key)?.messages.length === 0)).toBe(true);
    await carol.conn.close();
    const again = await connectUrl(carol.url);
    const rest = await pushSessions({
      client: again.client,
      machine: 'carol-box',
      keys: keysOf(sessions),
      loader: memoryLoader(sessions),
      env: {},
      batchSessions: 4,
    });
    await again.close();
    expect(rest.unchanged).toEqual(keysOf(sessions.slice(0, 4)));
    expect(rest.pushed).toEqual(keysOf(sessions.slice(4)));
    expect((await stored()).map((r) => r.key)).toEqual(keysOf(sessions).sort());
  });
});
