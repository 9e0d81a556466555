// What a push sends again, and when: source files by their changed parts, the ledger passing over untouched sessions unread, the review hold, a dropped connection resumed.
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { inThreadLoader, type SessionLoader } from '../bundle/prepare-session.ts';
import { findReader } from '../sources/registry.ts';
import { PLANTED_ENV, SECRETS } from '../test-support/planted-secrets.ts';
import { fixturesOf } from '../test-support/source-fixtures.ts';
import { waitFor } from '../test-support/wait-for.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { PushLedger } from './push-ledger.ts';
import { pushResuming } from './push-resume.ts';
import { pushSessions } from './push.ts';
import type { TeamConnection } from './team-connection.ts';
import { accountConnection, connectUrl } from './test-team.ts';

/** Reads the files of `paths` afresh at every prepare, counting the reads: a machine whose files change between pushes. */
function diskLoader(paths: Map<string, string>): SessionLoader & { reads: string[] } {
  const reads: string[] = [];
  const loader = inThreadLoader(async (key) => {
    reads.push(key);
    const path = paths.get(key) as string;
    return (await findReader(path)?.read(path)) as Session;
  });
  return Object.assign(loader, { reads });
}

describeWithPostgres('team push, incremental', (pgs) => {
  let ownerUrl: string;
  let owner: TeamConnection;
  let dave: { conn: TeamConnection; token: string; url: string };
  let dir: string;
  const paths = new Map<string, string>();

  beforeAll(async () => {
    ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    dave = await accountConnection(owner, ownerUrl, 'dave', 'member');
    // A copy of the Claude Code fixtures this test may grow and touch.
    dir = mkdtempSync(join(tmpdir(), 'sv-team-incr-'));
    cpSync(fixturesOf('claude-code'), dir, { recursive: true });
    const ledger = join(dir, 'projects', '-home-dev-proj-ledger');
    for (const name of ['2b3c4d5e-6f70-4819-8a2b-3c4d5e6f7081.jsonl']) {
      const path = join(ledger, name);
      const session = (await findReader(path)?.read(path)) as Session;
      paths.set(session.key, path);
    }
  }, 30_000);

  afterAll(async () => {
    await dave?.conn.close();
    await owner?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stored = async (machine: string) =>
    (
      await owner.client.query<{ bytes: Buffer }>(
        `SELECT string_agg(p.bytes, ''::bytea ORDER BY p.part) AS bytes FROM session_vault.file_parts p WHERE p.machine = $1 GROUP BY p.key, p.path`,
        [machine],
      )
    ).rows.map((r) => r.bytes);

  it('holds a first push for review: findings reported, nothing stored; then sends the session with its source file', async () => {
    const keys = [...paths.keys()];
    const held = await pushSessions({ client: dave.conn.client, machine: 'dave-box', keys, loader: diskLoader(paths), env: {}, newSessions: 'hold' });
    expect(held.held).toEqual(keys);
    expect(held.pushed).toEqual([]);
    expect((await owner.client.query(`SELECT 1 FROM session_vault.sessions WHERE machine = 'dave-box'`)).rowCount).toBe(0);
    const sent = await pushSessions({ client: dave.conn.client, machine: 'dave-box', keys, loader: diskLoader(paths), env: {}, partBytes: 512 });
    expect(sent.pushed).toEqual(keys);
    const file = readFileSync(paths.get(keys[0] as string) as string);
    expect(sent.sourceBytes).toBe(file.length);
    expect(await stored('dave-box')).toEqual([file]);
  });

  it('sends of a grown file only the parts that changed, and the ledger passes over an untouched session without reading it', async () => {
    const keys = [...paths.keys()];
    const path = paths.get(keys[0] as string) as string;
    const ledger = await PushLedger.open(dir, ownerUrl, 'dave-box');
    const listing = () => 'as listed';
    // A push that finds the session unchanged by its content hash, and notes it in the ledger.
    const first = await pushSessions({
      client: dave.conn.client,
      machine: 'dave-box',
      keys,
      loader: diskLoader(paths),
      env: {},
      partBytes: 512,
      ledger,
      listing,
    });
    expect(first.unchanged).toEqual(keys);
    const untouched = diskLoader(paths);
    const again = await pushSessions({ client: dave.conn.client, machine: 'dave-box', keys, loader: untouched, env: {}, partBytes: 512, ledger, listing });
    expect(again.unchanged).toEqual(keys);
    expect(untouched.reads).toEqual([]);
    // The environment's secrets are part of the scan settings: a new one means reading the session again.
    const rescanned = diskLoader(paths);
    await pushSessions({ client: dave.conn.client, machine: 'dave-box', keys, loader: rescanned, env: PLANTED_ENV, partBytes: 512, ledger, listing });
    expect(rescanned.reads).toEqual(keys);

    const before = readFileSync(path);
    const line = JSON.stringify({
      type: 'user',
      uuid: 'u-grown',
      parentUuid: null,
      timestamp: '2025-03-02T10:00:00.000Z',
      message: { role: 'user', content: `one more turn with ${SECRETS.github}` },
    });
    appendFileSync(path, `${line}\n`);
    const grown = diskLoader(paths);
    const third = await pushSessions({ client: dave.conn.client, machine: 'dave-box', keys, loader: grown, env: {}, partBytes: 512, ledger, listing });
    expect(grown.reads).toEqual(keys);
    expect(third.pushed).toEqual(keys);
    // The unchanged whole parts stay; the last part (cut short before) and the new ones (redacted) go.
    const [bytes] = await stored('dave-box');
    const unchangedParts = Math.floor(before.length / 512);
    expect(third.sourceBytes).toBe((bytes?.length ?? 0) - unchangedParts * 512);
    expect(third.sourceBytes).toBeLessThan(before.length / 2);
    expect(bytes?.toString()).toContain('one more turn with [REDACTED:');
    expect(bytes?.toString()).not.toContain(SECRETS.github);
    expect(bytes?.subarray(0, before.length).equals(before)).toBe(true);

    // Touched (same bytes, a new time): read again; its session.json names the new time, its file sends no part.
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    const touched = diskLoader(paths);
    const fourth = await pushSessions({ client: dave.conn.client, machine: 'dave-box', keys, loader: touched, env: {}, partBytes: 512, ledger, listing });
    expect(touched.reads).toEqual(keys);
    expect(fourth.sourceBytes).toBe(0);
  });

  it('resumes by itself when the connection drops mid-batch: one batch lost whole, the rest sent, nothing twice', async () => {
    const sessions = Array.from({ length: 6 }, (_, i) => i);
    const path = [...paths.values()][0] as string;
    const copies = new Map<string, string>();
    for (const i of sessions) {
      const copy = join(dir, 'projects', '-home-dev-proj-ledger', `0000000${i}-aaaa-4bbb-8ccc-dddddddddddd.jsonl`);
      cpSync(path, copy);
      const session = (await findReader(copy)?.read(copy)) as Session;
      copies.set(session.key, copy);
    }
    const keys = [...copies.keys()];
    const victim = keys[4] as string;
    await owner.client.query(`CREATE FUNCTION public.hold_resume() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF EXISTS (SELECT 1 FROM new_rows WHERE key = '${victim}') AND NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = 'killed-once') THEN PERFORM pg_sleep(10); END IF; RETURN NULL; END $$`);
    await owner.client.query(
      `CREATE TRIGGER hold_resume AFTER INSERT ON session_vault.session_texts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.hold_resume()`,
    );
    const retries: string[] = [];
    let connections = 0;
    const push = pushResuming(
      { machine: 'dave-resume', keys, loader: diskLoader(copies), env: {}, batchSessions: 2 },
      {
        connect: async () => {
          connections++;
          const conn = await connectUrl(dave.url);
          // The second connection marks itself, so the held trigger lets its batch through.
          if (connections > 1) await conn.client.query(`SET application_name = 'killed-once'`);
          return conn;
        },
        delayMs: 10,
        onRetry: (attempt, reason) => retries.push(`${attempt}: ${reason}`),
      },
    );
    const killed = await waitFor(
      async () => {
        const { rows } = await owner.client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE usename = 'dave' AND wait_event = 'PgSleep'`);
        return rows[0] ? (await owner.client.query('SELECT pg_terminate_backend($1)', [rows[0].pid])).rowCount : undefined;
      },
      10_000,
      "dave's push to be held mid-batch",
    );
    expect(killed).toBe(1);
    const report = await push;
    await owner.client.query('DROP TRIGGER hold_resume ON session_vault.session_texts');
    expect(retries).toEqual([expect.stringMatching(/^1: The push stopped after 4 session\(s\) were stored/)]);
    expect(report.pushed.sort()).toEqual([...keys].sort());
    const { rows } = await owner.client.query<{ key: string }>(`SELECT key FROM session_vault.sessions WHERE machine = 'dave-resume' ORDER BY key`);
    expect(rows.map((r) => r.key)).toEqual([...keys].sort());
  });
});
