// The vault commands as a user runs them: keep, tag, note, fork, resume, prune, delete, clear (text and --json).
import { runCli, type CliRun } from '../test-support/run-cli.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jidoSession, vizierSession } from '../test-support/session-files.ts';

let base: string;
let root: string;

const run = (args: string[], input?: string): Promise<CliRun> =>
  runCli([...args, ...(args.includes('--help') ? [] : ['--root', root])], { base, input: input ?? '' });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-vcli-'));
  root = join(base, 'root');
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(root, '.jido_code', 'sessions', 'j-1.json'), jidoSession('j-1', 'nightly-etl'));
  await mkdir(join(root, 'orbit', '.vizier', 'sessions', 'v-1'), { recursive: true });
  await writeFile(join(root, 'orbit', '.vizier', 'sessions', 'v-1', 'session.json'), vizierSession('v-1'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('vault commands', () => {
  it('every command that finds a session takes --no-defaults as list does, and then skips the default folders', async () => {
    // A session only in a tool's default folder (JidoCode's ~/.jido_code/sessions below the test's HOME).
    await mkdir(join(base, 'home', '.jido_code', 'sessions'), { recursive: true });
    await writeFile(join(base, 'home', '.jido_code', 'sessions', 'j-home.json'), jidoSession('j-home', 'home-project'));
    for (const args of [
      ['tag', 'j-home', '--star'],
      ['resume', 'j-home'],
      ['export', 'j-home', '--format', 'markdown', '-o', join(base, 'j.md')],
    ]) {
      const skipped = await run([...args, '--no-defaults']);
      expect(skipped.stderr).toContain('No session matches "j-home"');
      expect(skipped.code).toBe(1);
    }
    expect((await run(['tag', 'j-home', '--star'])).stdout).toBe('jido-code:j-home: ★ (no tags)\n');
    expect((await run(['tag', 'j-1', '--no-defaults', '--json'])).code).toBe(0);
    const exported = await run(['export', 'j-1', '--format', 'markdown', '-o', join(base, 'j-1.md'), '--no-defaults']);
    expect(exported.code).toBe(0);
    expect(existsSync(join(base, 'j-1.md'))).toBe(true);
    expect((await run(['import', join(base, 'missing.zip'), '--no-defaults'])).stderr).not.toContain('Unknown option');
  });

  it('keep copies a session (by id) into the vault', async () => {
    const r = await run(['keep', 'j-1']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Kept jido-code:j-1 in .*vault\/sessions\//);
  });

  it('tag adds, removes and stars; note takes text from stdin; --json prints the annotations', async () => {
    expect((await run(['tag', 'vizier:v-1', '--add', 'merge', '--add', 'flaky', '--star'])).stdout).toBe('vizier:v-1: ★ flaky, merge\n');
    const removed = await run(['tag', 'v-1', '--remove', 'flaky', '--json']);
    expect(JSON.parse(removed.stdout)).toMatchObject({ starred: true, tags: ['merge'] });
    expect((await run(['note', 'v-1', '-'], 'Check the tie-break\n')).stdout).toBe('Note saved for vizier:v-1.\n');
    const listed = JSON.parse((await run(['list', '--json', '--no-defaults'])).stdout) as Array<{ key: string; hasNote: boolean; kept: boolean }>;
    expect(listed.find((s) => s.key === 'vizier:v-1')).toMatchObject({ hasNote: true });
    expect(listed.find((s) => s.key === 'jido-code:j-1')).toMatchObject({ kept: true });
  });

  it('fork branches after N messages and prints the new key and file', async () => {
    const r = await run(['fork', 'j-1', '--through', '1']);
    expect(r.stdout).toMatch(/^Forked jido-code:j-1 after message 1 as vizier:[0-9a-f-]{36}\nSession file: .*session\.json\n$/);
  });

  it('resume explains why a session cannot be resumed, with exit code 1', async () => {
    const r = await run(['resume', 'j-1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cannot resume jido-code:j-1: The project folder no longer exists: /home/dev/nightly-etl');
  });

  it('prune is a dry run until --yes, and never touches live sources', async () => {
    const dry = await run(['prune', '--older-than', '1']);
    expect(dry.stdout).toContain('1 vault session(s) older than 1 days would go to the trash (run again with --yes):');
    const real = await run(['prune', '--older-than', '1', '--yes']);
    expect(real.stdout).toContain('Moved 1 vault session(s) older than 1 days to the trash.');
    expect(existsSync(join(root, '.jido_code', 'sessions', 'j-1.json'))).toBe(true);
  });

  it('delete refuses a live session unless its files are named; clear needs --yes', async () => {
    const refused = await run(['delete', 'v-1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('confirmSourceFiles');
    const clear = await run(['clear']);
    expect(clear.code).toBe(2);
    expect(clear.stderr).toContain('confirm with --yes');
    expect((await run(['clear', '--yes'])).stdout).toMatch(/^Moved \d+ vault session\(s\) to the trash\.\n$/);
  });

  it('names an unknown session clearly', async () => {
    const r = await run(['keep', 'no-such-id']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No session matches "no-such-id"');
  });
});
