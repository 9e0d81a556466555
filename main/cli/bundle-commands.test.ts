// `session-vault export|import` as a user runs them: findings printed, secrets gone, a second vault gets the sessions.
import { runCli, type CliRun } from '../test-support/run-cli.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLANTED_ENV, SECRETS } from '../test-support/planted-secrets.ts';
import { jidoSession, vizierSession } from '../test-support/session-files.ts';

let base: string;
let root: string;

const run = (args: string[], home = 'data'): Promise<CliRun> => runCli(args, { base, dataDir: home, env: PLANTED_ENV });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-bcli-'));
  root = join(base, 'root');
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  const leaky = JSON.parse(jidoSession('j-1', 'nightly-etl')) as { conversation: Array<{ content: string }> };
  leaky.conversation[0]!.content = `deploy with GITHUB_TOKEN=${SECRETS.github} and db password ${SECRETS.envValue}`;
  await writeFile(join(root, '.jido_code', 'sessions', 'j-1.json'), JSON.stringify(leaky));
  await mkdir(join(root, 'orbit', '.vizier', 'sessions', 'v-1'), { recursive: true });
  await writeFile(join(root, 'orbit', '.vizier', 'sessions', 'v-1', 'session.json'), vizierSession('v-1'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('session-vault export', () => {
  it('--dry-run prints each finding with rule, file:line and a masked preview, and writes nothing', async () => {
    const r = await run(['export', 'j-1', '--dry-run', '--root', root]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\d+ finding\(s\) \(rule, file:line, masked preview; --keep ID leaves one in place\):/);
    expect(r.stdout).toMatch(/ {2}[0-9a-f]{16} {2}github {2}sessions\/jido-code_j-1-[0-9a-f]{10}\/source\/.*\/j-1\.json:1\n/);
    expect(r.stdout).toContain('GITHUB_TOKEN=ghp_************');
    expect(r.stdout).toContain('ENV:DB_PASSWORD_FOR_TESTS');
    expect(r.stdout).not.toContain(SECRETS.github);
    expect(r.stdout).not.toContain(SECRETS.envValue);
    expect(r.stdout).toContain('Dry run: 1 session(s), 2 file(s) scanned; nothing was written.');
  });

  it('writes a redacted bundle of the named sessions and reports it', async () => {
    const out = join(base, 'share.zip');
    const r = await run(['export', 'j-1', 'vizier:v-1', '-o', out, '--root', root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Redacted \d+ secret\(s\)\.\nWrote 2 session\(s\), 4 file\(s\) to .*share\.zip/);
    const bytes = await readFile(out);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
  });

  it('--query picks sessions by text; --format md writes one session as Markdown', async () => {
    const md = join(base, 'j-1.md');
    const r = await run(['export', '--query', 'nightly', '-o', md, '--root', root]);
    expect(r.code).toBe(0);
    const text = await readFile(md, 'utf8');
    expect(text).toMatch(/^---\nsession_id: "j-1"\nproject_dir: "\/home\/dev\/nightly-etl"\n/);
    expect(text).toContain('GITHUB_TOKEN=[REDACTED:github]');
    expect(text).not.toContain(SECRETS.github);
  });

  it('--format html with two sessions is a usage error (exit 2); an unknown session exits 1', async () => {
    const two = await run(['export', 'j-1', 'v-1', '--format', 'html', '-o', join(base, 'x.html'), '--root', root]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('--format html writes one session; 2 were given.');
    const missing = await run(['export', 'nope', '-o', join(base, 'y.zip'), '--root', root]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No session matches "nope".');
    expect(existsSync(join(base, 'y.zip'))).toBe(false);
  });
});

describe('session-vault import', () => {
  it('brings the bundle into a fresh vault, then skips what it already has; --as-copy imports a second copy', async () => {
    const out = join(base, 'share.zip');
    if (!existsSync(out)) await run(['export', 'j-1', 'v-1', '-o', out, '--root', root]);
    const first = await run(['import', out], 'fresh');
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/^Imported 2 session\(s\) into the vault:\n/);
    const listed = JSON.parse((await run(['list', '--json', '--no-defaults'], 'fresh')).stdout) as Array<{ key: string; kept: boolean }>;
    expect(listed.map((s) => s.key).sort()).toEqual(['jido-code:j-1', 'vizier:v-1']);
    const again = await run(['import', out], 'fresh');
    expect(again.stdout).toContain('Imported no session.\nSkipped 2 session(s) already here');
    const copy = await run(['import', out, '--as-copy', '--json'], 'fresh');
    expect((JSON.parse(copy.stdout) as { imported: Array<{ key: string }> }).imported.map((s) => s.key).sort()).toEqual([
      'jido-code:j-1~copy-1',
      'vizier:v-1~copy-1',
    ]);
  });

  it('refuses a damaged bundle with the entry and the rule, exit 1', async () => {
    const bad = join(base, 'bad.zip');
    const good = await readFile(join(base, 'share.zip'));
    await writeFile(bad, good.subarray(0, good.length - 30));
    const r = await run(['import', bad], 'fresh2');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^session-vault import: The bundle was refused \(not-a-zip\): .*bad\.zip is not a zip archive, or it is truncated/);
    // The app makes its vault folders on start; the refused bundle put nothing in them.
    expect(await readdir(join(base, 'fresh2', 'vault', 'sessions'))).toEqual([]);
    expect(existsSync(join(base, 'fresh2', 'vault', '.staging')) ? await readdir(join(base, 'fresh2', 'vault', '.staging')) : []).toEqual([]);
  });
});
