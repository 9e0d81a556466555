// `session-vault team push` end to end: the real CLI against a real store (the review before a first push, source files), the password only in the environment and never in its output.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPostgres } from './postgres-suite.ts';
import type { TeamConnection } from './team-connection.ts';
import { accountConnection, connectUrl } from './test-team.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', 'cli', 'cli.ts');
const ROOT = join(import.meta.dirname, '..', 'sources', 'codex', 'fixtures');

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describeWithPostgres('team push command', (pgs) => {
  let home: string;
  let owner: TeamConnection;
  let alice: { conn: TeamConnection; token: string; url: string };
  let storeUrl: string;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'sv-team-cli-'));
    const ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    alice = await accountConnection(owner, ownerUrl, 'alice', 'member');
    const plain = new URL(alice.url);
    plain.password = '';
    storeUrl = plain.href;
  }, 30_000);

  afterAll(async () => {
    await alice?.conn.close();
    await owner?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('shows the review before the first push and sends nothing until confirmed, then pushes sessions with their files, then nothing again', async () => {
    const args = ['team', 'push', '--all', '--to', storeUrl, '--machine', 'alice-laptop', '--root', ROOT, '--no-defaults'];
    const env = { SESSION_VAULT_HOME: home, PGPASSWORD: alice.token };
    const count = async () =>
      (await owner.client.query<{ n: string }>(`SELECT count(*) AS n FROM session_vault.sessions WHERE machine = 'alice-laptop'`)).rows[0]?.n;
    const review = await cli(args, env);
    expect(review.code).toBe(2);
    expect(review.out).toMatch(/^Review before the first push of 3 session\(s\):\nNo secrets found\.\n/);
    expect(review.out).toContain('3 session(s) the team store does not have yet were not pushed: review their findings above, then push again with --yes');
    expect(await count()).toBe('0');
    const first = await cli([...args, '--yes'], env);
    expect(first.out).toMatch(
      /^No secrets found\.\nPushed 3 session\(s\) \(0\.\d MB, 0\.\d MB of it source files\) to postgresql:\/\/alice@127\.0\.0\.1:\d+\/\S+ as machine "alice-laptop" \(account alice\) in 1 batch\(es\)\.\n$/,
    );
    expect(first.code).toBe(0);
    const rows = await owner.client.query<{ n: string }>(
      `SELECT count(*) AS n FROM session_vault.sessions WHERE machine = 'alice-laptop' AND pushed_by = 'alice'`,
    );
    expect(rows.rows[0]?.n).toBe('3');
    // Each session's source file, byte for byte (nothing in these fixtures needed redacting), under its original path.
    const files = await owner.client.query<{ path: string; bytes: Buffer }>(
      `SELECT f.path, string_agg(p.bytes, ''::bytea ORDER BY p.part) AS bytes FROM session_vault.session_files f JOIN session_vault.file_parts p USING (machine, key, path) WHERE f.machine = 'alice-laptop' GROUP BY f.path`,
    );
    expect(files.rows).toHaveLength(3);
    for (const f of files.rows) expect(f.bytes.equals(readFileSync(f.path))).toBe(true);
    const second = await cli([...args, '--json'], env);
    expect(JSON.parse(second.out)).toMatchObject({ machine: 'alice-laptop', account: 'alice', pushed: [], held: [], batches: 0, bytes: 0 });
    expect(JSON.parse(second.out).unchanged).toHaveLength(3);
    for (const r of [review, first, second]) expect(r.out).not.toContain(alice.token);
  });

  it('sends session.json only with --no-sources', async () => {
    const args = ['team', 'push', '--all', '--yes', '--no-sources', '--to', storeUrl, '--machine', 'alice-2', '--root', ROOT, '--no-defaults', '--json'];
    const r = await cli(args, { SESSION_VAULT_HOME: home, PGPASSWORD: alice.token });
    expect(JSON.parse(r.out)).toMatchObject({ sourceBytes: 0 });
    expect(JSON.parse(r.out).pushed).toHaveLength(3);
    const files = await owner.client.query<{ n: string }>(`SELECT count(*) AS n FROM session_vault.session_files WHERE machine = 'alice-2'`);
    expect(files.rows[0]?.n).toBe('0');
  });

  it('says why a sign-in failed without showing the password', async () => {
    const wrong = 'not-the-token-0000';
    const r = await cli(['team', 'push', '--all', '--to', storeUrl, '--root', ROOT, '--no-defaults'], { SESSION_VAULT_HOME: home, PGPASSWORD: wrong });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /^session-vault team: The team store at postgresql:\/\/alice@127\.0\.0\.1:\d+\/\S+ refused the sign-in: password authentication failed for user "alice"\.\n$/,
    );
    expect(r.out).not.toContain(wrong);
  });
});
