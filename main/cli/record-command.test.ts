// `session-vault record` as a shell script drives it: one process per step, human and protocol output, refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SessionDocument } from '../recorder/session-schema.ts';
import { PLANTED_ENV, PLANTED_TEXT, SECRETS, secretsOnDisk } from '../test-support/planted-secrets.ts';

const RUN = resolve(import.meta.dirname, 'cli.ts');
const RACER = resolve(import.meta.dirname, '../recorder/fixtures/race-writer.ts');
let base: string;
let dir: string;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** stdin: text to pipe in, 'closed' (no stdin at all), or 'open' (a pipe nobody ever writes to or closes). */
function record(args: string[], options: { stdin?: string | 'closed' | 'open'; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Result> {
  const started = Date.now();
  const stdin = options.stdin ?? 'closed';
  return new Promise((done) => {
    const child = spawn(process.execPath, [RUN, 'record', ...args], {
      cwd: options.cwd ?? base,
      env: { PATH: process.env.PATH, HOME: join(base, 'home'), SESSION_VAULT_HOME: join(base, 'data'), ...options.env },
      stdio: [stdin === 'closed' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    if (child.stdin && stdin !== 'open') child.stdin.end(stdin);
    const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', (code) => {
      clearTimeout(guard);
      child.stdin?.destroy();
      done({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

async function doc(id: string, sessionsDir = dir): Promise<SessionDocument> {
  return SessionDocument.parse(JSON.parse(await readFile(join(sessionsDir, id, 'session.json'), 'utf8')));
}

async function start(...extra: string[]): Promise<string> {
  const r = await record(['start', '--dir', dir, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-record-'));
  dir = join(base, 'sessions');
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('a session recorded step by step', () => {
  it('start prints the id; append, op and close build session.json; close prints the outcome and the file', async () => {
    const start = await record(['start', '--dir', dir, '--provider', 'openai', '--model', 'gpt-5', '--temperature', '0.2', '--thinking-level', 'medium']);
    expect(start.code, start.stderr).toBe(0);
    const id = start.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(start.stderr).toBe(`Session file: ${join(dir, id, 'session.json')}\n`);

    expect((await record(['append', '--dir', dir, '--session', id, '--role', 'user', '--content', 'Fix the berth bug'])).code).toBe(0);
    const piped = await record(['append', '--dir', dir, '--session', id, '--role', 'assistant', '--content', '-'], { stdin: 'Patched.\nDone.' });
    expect(piped.stdout).toBe(`Outcome: open (2 messages, 0 operations)\nSession file: ${join(dir, id, 'session.json')}\n`);
    const op = await record([
      'op',
      '--dir',
      dir,
      '--session',
      id,
      '--type',
      'gate_open',
      '--detail',
      'commit gate opened',
      '--modified',
      'src/a.ts',
      '--deleted',
      'old.json',
      '--renamed',
      'tz.ts=oslo.ts',
    ]);
    expect(op.code, op.stderr).toBe(0);
    const close = await record(['close', '--dir', dir, '--session', id, '--status', 'accepted', '--summary', 'Fixed', '--commit-sha', '7d1e2f0a9c8b']);
    expect(close.stdout).toBe(`Outcome: accepted — Fixed (commit 7d1e2f0a9c8b)\nSession file: ${join(dir, id, 'session.json')}\n`);

    const d = await doc(id);
    expect(d.chat.map((m) => m.content)).toEqual(['Fix the berth bug', 'Patched.\nDone.']);
    expect(d.operations[0]).toMatchObject({
      type: 'gate_open',
      detail: 'commit gate opened',
      vcs: { staged: { M: ['src/a.ts'], D: ['old.json'], R: [['tz.ts', 'oslo.ts']] } },
    });
    expect(d.model).toEqual({ provider: 'openai', name: 'gpt-5', temperature: 0.2, thinking_level: 'medium' });
    expect(d.config_effective['model.name']).toEqual({ value: 'gpt-5', provenance: 'CLI' });
    expect(d.outcome).toEqual({ status: 'accepted', summary: 'Fixed', commit_sha: '7d1e2f0a9c8b' });
  });

  it('never rewrites a closed session: every later step fails with exit 1 and the bytes stay the same', async () => {
    const id = await start();
    await record(['close', '--dir', dir, '--session', id, '--status', 'aborted']);
    const bytes = await readFile(join(dir, id, 'session.json'));
    for (const step of [['append', '--role', 'user', '--content', 'x'], ['op', '--type', 'revert'], ['close', '--status', 'accepted'], ['start']]) {
      const r = await record([step[0] as string, '--dir', dir, '--session', id, ...step.slice(1)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Session ${id} is closed (outcome: aborted) and closed sessions are write-once`);
    }
    expect((await readFile(join(dir, id, 'session.json'))).equals(bytes)).toBe(true);
  });

  it('resumes with a header, and refuses to change what the command line set at start', async () => {
    const id = await start('--model', 'gpt-5', '--redact', 'secrets,env');
    const resumed = await record(['start', '--dir', dir, '--session', id]);
    expect(resumed.stdout.split('\n')[0]).toBe(`Resumed session ${id} (branch: none, outcome: open)`);

    const model = await record(['start', '--dir', dir, '--session', id, '--model', 'o3']);
    expect(model.code).toBe(1);
    expect(model.stderr).toContain('Config key "model.name" was set on the command line');
    const redact = await record(['append', '--dir', dir, '--session', id, '--redact', 'none', '--role', 'user', '--content', 'x']);
    expect(redact.code).toBe(1);
    expect(redact.stderr).toContain('Config key "redact"');
    expect((await doc(id)).chat).toEqual([]);
  });

  it('answers usage mistakes with exit code 2', async () => {
    expect((await record(['rewind'])).code).toBe(2);
    expect((await record(['append', '--dir', dir, '--role', 'user', '--content', 'x'])).stderr).toContain('needs --session ID');
    const id = await start();
    expect((await record(['append', '--dir', dir, '--session', id, '--role', 'robot', '--content', 'x'])).code).toBe(2);
    expect((await record(['op', '--dir', dir, '--session', id, '--type', 'deploy'])).stderr).toContain('--type must be one of proposal, gate_open');
    expect((await record(['append', '--dir', dir, '--session', id, '--role', 'user', '--content', '-', '--annotations', '{'])).code).toBe(2);
  });
});

describe('--mode protocol', () => {
  it('prints exactly one NDJSON outcome line per step, with session.path, and never ANSI', async () => {
    const lines: string[] = [];
    const first = await record(['start', '--dir', dir, '--mode', 'protocol']);
    lines.push(first.stdout);
    const id = JSON.parse(first.stdout).session.id as string;
    lines.push((await record(['append', '--dir', dir, '--session', id, '--mode', 'protocol', '--role', 'user', '--content', 'hi'])).stdout);
    lines.push((await record(['start', '--dir', dir, '--session', id, '--mode', 'protocol'])).stdout);
    lines.push((await record(['close', '--dir', dir, '--session', id, '--mode', 'protocol', '--status', 'rejected', '--summary', 'no'])).stdout);
    const refused = await record(['append', '--dir', dir, '--session', id, '--mode', 'protocol', '--role', 'user', '--content', 'late']);
    expect(refused.code).toBe(1);
    lines.push(refused.stdout);

    for (const out of lines) {
      expect(out.includes('\u001b')).toBe(false);
      expect(out.endsWith('\n')).toBe(true);
      expect(out.trimEnd().split('\n')).toHaveLength(1);
    }
    const [started, appended, resumed, closed, error] = lines.map((l) => JSON.parse(l));
    const path = join(dir, id, 'session.json');
    expect(started).toMatchObject({
      type: 'outcome',
      schema: 'outcome.v1',
      command: 'record start',
      status: 'open',
      session: { id, path, resumed: false, logging: 'on' },
    });
    expect(appended.session).toMatchObject({ path, messages: 1 });
    expect(resumed.message).toBe(`Resumed session ${id} (branch: none, outcome: open)`);
    expect(closed).toMatchObject({ type: 'outcome', status: 'rejected', summary: 'no', session: { path } });
    expect(error).toMatchObject({ type: 'error', code: 'session_closed', session: { id } });
    expect((await doc(id)).mode).toBe('protocol');
  });
});

describe('standard input', () => {
  it('never blocks: closed stdin, an open pipe nobody writes to, and "-" on an empty stdin all finish promptly', async () => {
    const id = await start();
    const closedStart = await record(['start', '--dir', dir], { stdin: 'closed' });
    const openPipe = await record(['append', '--dir', dir, '--session', id, '--role', 'user', '--content', 'typed'], { stdin: 'open' });
    const dashClosed = await record(['append', '--dir', dir, '--session', id, '--role', 'user', '--content', '-'], { stdin: 'closed' });
    const protocolOpen = await record(['close', '--dir', dir, '--session', id, '--status', 'accepted', '--mode', 'protocol'], { stdin: 'open' });
    for (const r of [closedStart, openPipe, dashClosed, protocolOpen]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.ms).toBeLessThan(10_000);
    }
    expect((await doc(id)).chat.map((m) => m.content)).toEqual(['typed', '']);
  });
});

describe('where sessions go', () => {
  it("uses <repo>/.vizier/sessions inside a git repository and records its branch; else the vault's recorded folder", async () => {
    const repo = join(base, 'harbor');
    await mkdir(repo, { recursive: true });
    const git = spawnSync('git', ['init', '-q', '-b', 'fix/berths'], { cwd: repo });
    expect(git.status).toBe(0);
    await mkdir(join(repo, 'src'));
    const inRepo = await record(['start', '--mode', 'protocol'], { cwd: join(repo, 'src') });
    const session = JSON.parse(inRepo.stdout).session;
    expect(session.path).toBe(join(repo, '.vizier', 'sessions', session.id, 'session.json'));
    expect(session.branch).toBe('fix/berths');
    expect((await doc(session.id, join(repo, '.vizier', 'sessions'))).repo).toEqual({ root: repo, current_branch: 'fix/berths', head_sha: null });

    const outside = JSON.parse((await record(['start', '--mode', 'protocol'], { cwd: base })).stdout).session;
    expect(outside.path).toBe(join(base, 'data', 'vault', 'recorded', '.vizier', 'sessions', outside.id, 'session.json'));
    const fromEnv = JSON.parse((await record(['start', '--mode', 'protocol'], { env: { SESSION_VAULT_SESSIONS_DIR: join(base, 'env-dir') } })).stdout).session;
    expect(fromEnv.path).toBe(join(base, 'env-dir', fromEnv.id, 'session.json'));
  });
});

describe('session_logging off', () => {
  it('writes nothing, from the environment or the flag, and still lets the script run', async () => {
    const quiet = join(base, 'quiet');
    const env = await record(['start', '--dir', quiet], { env: { SESSION_VAULT_SESSION_LOGGING: 'off' } });
    expect(env.code).toBe(0);
    expect(env.stderr).toContain('Session logging is off: nothing was recorded.');
    const id = env.stdout.trim();
    const flag = await record(['append', '--dir', quiet, '--session', id, '--no-session-logging', '--mode', 'protocol', '--role', 'user', '--content', 'x']);
    expect(JSON.parse(flag.stdout).session).toMatchObject({ id, path: null, logging: 'off' });
    expect(existsSync(quiet)).toBe(false);
  });
});

describe('redaction on the command line', () => {
  it('keeps every planted secret out of every file in the sessions folder', async () => {
    const secretDir = join(base, 'secret-sessions');
    const env = { ...PLANTED_ENV };
    const attachment = join(base, 'leak.log');
    await writeFile(attachment, PLANTED_TEXT);
    const id = (await record(['start', '--dir', secretDir, '--set', `api.key=${SECRETS.openai}`], { env })).stdout.trim();
    expect(
      (await record(['append', '--dir', secretDir, '--session', id, '--role', 'user', '--content', '-', '--attach', attachment], { env, stdin: PLANTED_TEXT }))
        .code,
    ).toBe(0);
    const detail = JSON.stringify({ aws_secret_access_key: SECRETS.awsSecretKey, token: SECRETS.anthropic });
    expect((await record(['op', '--dir', secretDir, '--session', id, '--type', 'test_run', '--detail-json', detail], { env })).code).toBe(0);
    expect((await record(['close', '--dir', secretDir, '--session', id, '--status', 'accepted', '--summary', `used ${SECRETS.github}`], { env })).code).toBe(0);

    const { files, found } = await secretsOnDisk(secretDir);
    expect(files).toBe(2);
    expect(found).toEqual([]);
    expect((await doc(id, secretDir)).chat[0]?.annotations).toEqual({ artifacts: ['artifacts/leak.log'] });
  });
});

describe('two writers at once', () => {
  it('refuses a step while another process holds the session, naming that process', async () => {
    const id = await start();
    const holder = spawn(process.execPath, [RACER, dir, id, '3000', 'holder'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((ready) => holder.stdout.once('data', () => ready()));
    const r = await record(['append', '--dir', dir, '--session', id, '--role', 'user', '--content', 'blocked']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`is being written by process ${holder.pid} on `);
    await new Promise((done) => holder.on('close', done));
    expect((await doc(id)).chat.map((m) => m.content)).toEqual(['written by holder']);
  });
});
