// Who may do what in a team store: refused by the app, and by the database itself when a member's credentials are used with plain SQL.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { revokeAccount, verifyToken } from './accounts.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import { connectTeam, type TeamConnection } from './team-connection.ts';
import { resolveTeamTarget } from './team-credentials.ts';
import { accountConnection, connectUrl, fixtureSessions, memoryLoader, urlAs } from './test-team.ts';

/** The SQLSTATE a statement fails with, or 'ok' and how many rows it touched. */
async function attempt(conn: TeamConnection, sql: string, values: readonly unknown[] = []): Promise<string> {
  try {
    const r = await conn.client.query(sql, [...values]);
    return `ok ${r.rowCount}`;
  } catch (err) {
    return `${(err as { code?: string }).code}: ${(err as Error).message}`;
  }
}

describeWithPostgres('team access', (pgs) => {
  let ownerUrl: string;
  let owner: TeamConnection;
  let alice: { conn: TeamConnection; token: string; url: string };
  let bob: { conn: TeamConnection; token: string; url: string };
  let vera: { conn: TeamConnection; token: string; url: string };
  let sessions: Session[];

  beforeAll(async () => {
    ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    alice = await accountConnection(owner, ownerUrl, 'alice', 'member');
    bob = await accountConnection(owner, ownerUrl, 'bob', 'member');
    vera = await accountConnection(owner, ownerUrl, 'vera', 'viewer');
    sessions = (await fixtureSessions(['codex'])).slice(0, 2);
    await pushSessions({ client: alice.conn.client, machine: 'alice-laptop', keys: sessions.map((s) => s.key), loader: memoryLoader(sessions), env: {} });
    await pushSessions({ client: bob.conn.client, machine: 'bob-box', keys: sessions.map((s) => s.key), loader: memoryLoader(sessions), env: {} });
  }, 30_000);

  afterAll(async () => {
    for (const c of [alice?.conn, bob?.conn, vera?.conn, owner]) await c?.close();
  });

  it("refuses, in the app, a member pushing as another's machine and a viewer pushing at all", async () => {
    const push = (conn: TeamConnection, machine: string) =>
      pushSessions({ client: conn.client, machine, keys: [sessions[0]?.key ?? ''], loader: memoryLoader(sessions), env: {} });
    await expect(push(bob.conn, 'alice-laptop')).rejects.toThrow(
      'The machine "alice-laptop" belongs to alice: push as a machine of your own (--machine NAME).',
    );
    await expect(push(vera.conn, 'vera-box')).rejects.toThrow('The account "vera" is a viewer: it may read the team store, not push to it.');
    await expect(push(owner, 'bad label!')).rejects.toThrow('"bad label!" cannot be a machine label');
  });

  it("refuses, in the database, a member's direct SQL against another machine's rows, deletes, and account changes", async () => {
    const row = (machine: string, pushedBy: string) =>
      [
        `INSERT INTO session_vault.sessions (machine, key, pushed_by, format, title, message_count, has_summary, idents, size_bytes, content_hash, session_head)
       VALUES ($1, 'codex:forged', $2, 'codex', 'forged', 0, false, '', 2, 'x', '{}')`,
        [machine, pushedBy],
      ] as const;
    expect(await attempt(bob.conn, ...row('alice-laptop', 'bob'))).toMatch(/^42501: new row violates row-level security policy/);
    expect(await attempt(bob.conn, ...row('bob-box', 'alice'))).toMatch(/^42501: new row violates row-level security policy/);
    expect(await attempt(bob.conn, `UPDATE session_vault.sessions SET title = 'defaced' WHERE machine = 'alice-laptop'`)).toBe('ok 0');
    expect(await attempt(bob.conn, `UPDATE session_vault.sessions SET machine = 'alice-laptop' WHERE machine = 'bob-box'`)).toMatch(
      /^42501: new row violates row-level security policy/,
    );
    expect(await attempt(bob.conn, `DELETE FROM session_vault.sessions`)).toMatch(/^42501: permission denied for table sessions/);
    expect(await attempt(bob.conn, `DELETE FROM session_vault.session_texts WHERE machine = 'alice-laptop'`)).toBe('ok 0');
    expect(await attempt(bob.conn, `DELETE FROM session_vault.session_messages WHERE machine = 'alice-laptop'`)).toBe('ok 0');
    expect(await attempt(bob.conn, `UPDATE session_vault.session_messages SET body = '[]' WHERE machine = 'alice-laptop'`)).toBe('ok 0');
    expect(
      await attempt(bob.conn, `INSERT INTO session_vault.session_messages (machine, key, chunk, sha256, body) VALUES ('alice-laptop', $1, 99, 'x', '[]')`, [
        sessions[0]?.key,
      ]),
    ).toMatch(/^42501: new row violates row-level security policy/);
    expect(await attempt(bob.conn, `UPDATE session_vault.machines SET account = 'bob' WHERE label = 'alice-laptop'`)).toMatch(
      /^42501: permission denied for table machines/,
    );
    expect(await attempt(bob.conn, `INSERT INTO session_vault.machines (label, account) VALUES ('alice-2', 'alice')`)).toMatch(
      /^42501: new row violates row-level security policy/,
    );
    expect(await attempt(bob.conn, `UPDATE session_vault.accounts SET role = 'admin' WHERE name = 'bob'`)).toMatch(
      /^42501: permission denied for table accounts/,
    );
    expect(await attempt(bob.conn, `SELECT token_hash FROM session_vault.accounts`)).toMatch(/^42501: permission denied for table accounts/);
    expect(await attempt(vera.conn, `UPDATE session_vault.sessions SET title = 'x'`)).toMatch(/^42501: permission denied for table sessions/);
    const titles = await owner.client.query<{ title: string }>(`SELECT DISTINCT title FROM session_vault.sessions WHERE machine = 'alice-laptop'`);
    expect(titles.rows.map((r) => r.title)).not.toContain('defaced');
    expect(
      Number((await owner.client.query<{ n: string }>(`SELECT count(*) AS n FROM session_vault.session_texts WHERE machine = 'alice-laptop'`)).rows[0]?.n),
    ).toBeGreaterThan(0);
    // Members read everything, and may re-push their own.
    expect(await attempt(bob.conn, `UPDATE session_vault.sessions SET title = 'renamed' WHERE machine = 'bob-box'`)).toBe(`ok ${sessions.length}`);
    expect(await attempt(owner, `DELETE FROM session_vault.sessions WHERE machine = 'bob-box' AND key = $1`, [sessions[0]?.key])).toBe('ok 1');
  });

  it('keeps tokens hashed with scrypt, checks them, and revokes an account so it can neither sign in nor push', async () => {
    const hash = (await owner.client.query<{ token_hash: string }>(`SELECT token_hash FROM session_vault.accounts WHERE name = 'alice'`)).rows[0]?.token_hash;
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(hash).not.toContain(alice.token);
    expect(await verifyToken(owner.client, 'alice', alice.token)).toEqual({ name: 'alice', role: 'member', revoked: false });
    expect(await verifyToken(owner.client, 'alice', bob.token)).toBeNull();
    expect(await verifyToken(owner.client, 'nobody', alice.token)).toBeNull();
    const dave = await accountConnection(owner, ownerUrl, 'dave', 'member');
    await revokeAccount(owner.client, 'dave');
    expect(await verifyToken(owner.client, 'dave', dave.token)).toBeNull();
    await expect(pushSessions({ client: dave.conn.client, machine: 'dave-box', keys: [], loader: memoryLoader([]), env: {} })).rejects.toThrow(
      'The account "dave" was revoked',
    );
    expect(await attempt(dave.conn, `INSERT INTO session_vault.machines (label, account) VALUES ('dave-box', 'dave')`)).toMatch(
      /^42501: new row violates row-level security policy/,
    );
    await dave.conn.close();
    const signIn = connectUrl(dave.url);
    await expect(signIn).rejects.toThrow(/refused the sign-in/);
    await expect(signIn).rejects.not.toThrow(dave.token);
  });

  it('never shows a password: not from the URL, the environment or a password file', async () => {
    const wrong = 'Wrong-Password-1234';
    const target = resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: urlAs(ownerUrl, 'alice', wrong) });
    expect(target.shown).not.toContain(wrong);
    const error = await connectTeam(target).then(
      () => 'connected',
      (err: Error) => err.message,
    );
    expect(error).toMatch(/^The team store at postgresql:\/\/alice@127\.0\.0\.1:\d+\/team_\d+_\d+ refused the sign-in/);
    expect(error).not.toContain(wrong);
    expect(() => resolveTeamTarget(urlAs(ownerUrl, 'alice', wrong), {})).toThrow(/not in --to: other users of this machine can see command lines/);
    const dir = mkdtempSync(join(tmpdir(), 'sv-team-pw-'));
    try {
      const file = join(dir, 'password');
      writeFileSync(file, `${alice.token}\n`, { mode: 0o644 });
      chmodSync(file, 0o644);
      const plainUrl = urlAs(ownerUrl, 'alice', '');
      expect(() => resolveTeamTarget(plainUrl, { SESSION_VAULT_TEAM_PASSWORD_FILE: file })).toThrow(
        /can be read by other users; make it yours alone \(chmod 600\)/,
      );
      chmodSync(file, 0o600);
      const conn = await connectTeam(resolveTeamTarget(plainUrl, { SESSION_VAULT_TEAM_PASSWORD_FILE: file }));
      expect((await conn.client.query<{ u: string }>('SELECT current_user AS u')).rows[0]?.u).toBe('alice');
      await conn.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
