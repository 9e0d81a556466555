// The `session-vault` command line as a user runs it: list (table and JSON), help, and clear usage errors.
import { spawn } from 'node:child_process';
import { CLI_ENTRY, runCli, type CliRun } from '../test-support/run-cli.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jidoSession, vizierSession } from '../test-support/session-files.ts';

let base: string;
let root: string;

const run = (args: string[]): Promise<CliRun> => runCli(args, { base });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-cli-'));
  root = join(base, 'root');
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(root, '.jido_code', 'sessions', 'j-1.json'), jidoSession('j-1', 'nightly-etl'));
  await writeFile(join(root, '.jido_code', 'sessions', 'j-bad.json'), '');
  await mkdir(join(root, 'orbit', '.vizier', 'sessions', 'v-1'), { recursive: true });
  await writeFile(join(root, 'orbit', '.vizier', 'sessions', 'v-1', 'session.json'), vizierSession('v-1'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('session-vault CLI', () => {
  it('list prints id, created, source, branch, outcome and summary per session, newest first', async () => {
    const { code, stdout } = await run(['list', '--root', root, '--no-defaults']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+CREATED\s+SOURCE\s+BRANCH\s+OUTCOME\s+SUMMARY$/);
    // The broken file's only date is its mtime (just now), so it leads; then the sessions by their own times.
    expect(lines[1]).toMatch(/^j-bad\s+-\s+jido-code\s+.*UNREADABLE: File is empty \(0 bytes\)\./);
    expect(lines[2]).toMatch(/^v-1\s+2026-01-03 15:00\s+vizier\s+fix\/tiebreak\s+accepted\s+Tie-break fixed$/);
    expect(lines[3]).toMatch(/^j-1\s+2026-01-02 09:00\s+jido-code\s+-\s+closed\s+nightly-etl$/);
  });

  it('list --json prints the session summaries', async () => {
    const { code, stdout } = await run(['list', '--json', '--root', root, '--no-defaults']);
    expect(code).toBe(0);
    const sessions = JSON.parse(stdout) as Array<{ key: string; branch: string | null }>;
    expect(sessions.map((s) => s.key).sort()).toEqual(['jido-code:j-1', 'jido-code:j-bad', 'vizier:v-1']);
  });

  it('does not save a --root folder: the next plain list is empty', async () => {
    const { stdout } = await run(['list', '--no-defaults']);
    expect(stdout).toContain('No sessions found');
  });

  it('prints help for the tool and for each command', async () => {
    expect((await run(['--help'])).stdout).toContain('Commands:');
    expect((await run(['list', '--help'])).stdout).toContain('Usage: session-vault list');
    expect((await run(['help', 'serve'])).stdout).toContain('Usage: session-vault serve');
  });

  it('answers a bad command or option with one clear line and exit code 2, never a stack trace', async () => {
    const unknown = await run(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const badPort = await run(['serve', '--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port must be a whole number');
    const badOption = await run(['list', '--colour']);
    expect(badOption.code).toBe(2);
    expect(`${unknown.stderr}${badPort.stderr}${badOption.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('stops quietly when the reader of its output goes away (`| head`), with no stack trace', async () => {
    const child = spawn(process.execPath, [CLI_ENTRY, 'list', '--json', '--root', root, '--no-defaults'], {
      env: { ...process.env, SESSION_VAULT_HOME: join(base, 'data-pipe'), HOME: join(base, 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reading end closed before the command writes: its first write meets a closed pipe (EPIPE).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
