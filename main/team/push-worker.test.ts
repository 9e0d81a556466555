// A push through the app's loader (its read worker prepares each session whole): secrets never reach the store, the same rows as sessions prepared on this thread, and the roots check against roots resolved once per push.
import { statSync } from 'node:fs';
import { mkdtemp, rm, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inThreadLoader } from '../bundle/prepare-session.ts';
import { gatedLoader } from '../bundle/session-gate.ts';
import { workerLoader } from '../bundle/worker-loader.ts';
import { SessionFileCheck } from '../roots/session-files.ts';
import { findReader } from '../sources/registry.ts';
import { PLANTED_ENV, PLANTED_TEXT, SECRETS } from '../test-support/planted-secrets.ts';
import { writeJidoFile } from '../test-support/session-files.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import type { TeamConnection } from './team-connection.ts';
import { accountConnection, connectUrl } from './test-team.ts';

describeWithPostgres('team push through the loader worker', (pgs) => {
  let base: string;
  let owner: TeamConnection;
  let alice: { conn: TeamConnection; token: string; url: string };
  const paths = new Map<string, string>();
  const locate = (key: string) => {
    const path = paths.get(key) as string;
    return { path, size: statSync(path).size, childKeys: [] };
  };

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'sv-push-worker-'));
    const ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    alice = await accountConnection(owner, ownerUrl, 'alice', 'member');
  }, 30_000);

  afterAll(async () => {
    await alice?.conn.close();
    await owner?.close();
    await rm(base, { recursive: true, force: true });
  });

  /** Every text and byte the store holds of `machine`'s sessions, as one string. */
  const everything = async (machine: string) =>
    (
      await owner.client.query<{ text: string }>(
        `SELECT concat_ws(' ',
           (SELECT string_agg(concat_ws(' ', title, idents, session_head, project_path), ' ') FROM session_vault.sessions WHERE machine = $1),
           (SELECT string_agg(body, ' ') FROM session_vault.session_texts WHERE machine = $1),
           (SELECT string_agg(body, ' ') FROM session_vault.session_messages WHERE machine = $1),
           (SELECT string_agg(convert_from(bytes, 'UTF8'), ' ') FROM session_vault.file_parts WHERE machine = $1)) AS text`,
        [machine],
      )
    ).rows[0]?.text ?? '';

  /** What the store holds of `machine`'s sessions, by key: content hash, chunk hashes and file part hashes. */
  const stored = async (machine: string) => {
    const q = async (sql: string) => (await owner.client.query<{ key: string; h: string }>(sql, [machine])).rows.map((r) => `${r.key} ${r.h}`);
    return {
      sessions: await q(
        `SELECT key, concat_ws(' ', content_hash, title, idents, message_count, size_bytes) AS h FROM session_vault.sessions WHERE machine = $1 ORDER BY 1, 2`,
      ),
      messages: await q(`SELECT key, chunk || ' ' || sha256 AS h FROM session_vault.session_messages WHERE machine = $1 ORDER BY 1, 2`),
      texts: await q(`SELECT key, weight || seq || ' ' || sha256 AS h FROM session_vault.session_texts WHERE machine = $1 ORDER BY 1, 2`),
      parts: await q(`SELECT key, part || ' ' || sha256 || ' ' || length(bytes) AS h FROM session_vault.file_parts WHERE machine = $1 ORDER BY 1, 2`),
    };
  };

  it('redacts every planted secret there, in session.json and the source file, and stores what a push prepared on this thread stores', async () => {
    const dir = join(base, 'planted');
    paths.set('jido-code:p-1', await writeJidoFile(dir, 'p-1', PLANTED_TEXT));
    paths.set('jido-code:p-2', await writeJidoFile(dir, 'p-2', 'Nothing secret here; ünïcödé and "quotes" \\ stay as they are.'));
    const keys = ['jido-code:p-1', 'jido-code:p-2'];
    const loader = gatedLoader(workerLoader(locate), new SessionFileCheck(() => [dir]));
    try {
      const report = await pushSessions({ client: alice.conn.client, machine: 'alice-worker', keys, loader, env: PLANTED_ENV, partBytes: 512 });
      expect(report.pushed).toEqual(keys);
      expect(report.findings.length).toBeGreaterThan(5);
      expect(report.findings.every((f) => f.redacted)).toBe(true);
    } finally {
      await loader.close();
    }
    const text = await everything('alice-worker');
    expect(text).toContain('[REDACTED:');
    expect(text).toContain('ünïcödé and "quotes"');
    for (const [which, secret] of Object.entries(SECRETS)) expect(text, which).not.toContain(secret);
    // The same sessions prepared on this thread (no worker) give the very same rows, chunks and parts.
    const here = inThreadLoader(async (key) => {
      const path = paths.get(key) as string;
      return { ...(await findReader(path)!.read(path)), key };
    });
    await pushSessions({ client: alice.conn.client, machine: 'alice-here', keys, loader: here, env: PLANTED_ENV, partBytes: 512 });
    const [there, onThread] = [await stored('alice-worker'), await stored('alice-here')];
    expect(there.parts.length).toBeGreaterThan(2);
    expect(there).toEqual(onThread);
  });

  it('checks each push against its roots as they are when it starts: a root pointed elsewhere between two pushes is seen by the second', async () => {
    const [a, b] = [join(base, 'roots', 'a'), join(base, 'roots', 'b')];
    paths.set('jido-code:in-a', await writeJidoFile(a, 'in-a', 'a session kept in folder a'));
    paths.set('jido-code:in-b', await writeJidoFile(b, 'in-b', 'a session kept in folder b'));
    // The root the user added is a link; where it points decides which files lie inside it.
    const root = join(base, 'roots', 'current');
    await symlink(a, root);
    const files = new SessionFileCheck(() => [root]);
    const keys = ['jido-code:in-a', 'jido-code:in-b'];
    const push = async () => {
      const loader = gatedLoader(workerLoader(locate), files);
      try {
        return await pushSessions({ client: alice.conn.client, machine: 'alice-roots', keys, loader, env: {} });
      } finally {
        await loader.close();
      }
    };
    const first = await push();
    expect(first.pushed).toEqual(['jido-code:in-a']);
    expect(first.skipped).toEqual([{ key: 'jido-code:in-b', reason: expect.stringContaining('outside every known session folder') }]);
    await unlink(root);
    await symlink(b, root);
    const second = await push();
    expect(second.pushed).toEqual(['jido-code:in-b']);
    expect(second.skipped).toEqual([{ key: 'jido-code:in-a', reason: expect.stringContaining('outside every known session folder') }]);
  });
});
