// The library API as a tool uses it: record, checkpoint, close write-once, resume with provenance locks, stay small.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, openSession, StoreError, type RecordingSession } from './index.ts';
import { SessionDocument } from './session-schema.ts';
import { parseMicros } from './timestamps.ts';

const repo = { root: '/home/dev/harbor', current_branch: 'fix/berths', head_sha: '4be1c09d2f7a83e5b6c0d1f9a2e4b7c8d3f6a015' };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-writer-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

function open(extra: Partial<Parameters<typeof openSession>[0]> = {}): Promise<RecordingSession> {
  return openSession({ sessionsDir: dir, env: {}, repo, ...extra });
}

async function failure(promise: Promise<unknown>): Promise<StoreError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreError);
  return err as StoreError;
}

describe('recording a session', () => {
  it('writes <dir>/<id>/session.json that validates and holds every message, operation and the outcome', async () => {
    const s = await open({ model: { provider: 'openai', name: 'gpt-5', temperature: 0.1, thinking_level: 'medium' }, workflowType: 'chat', mode: 'protocol' });
    expect(s.path).toBe(join(dir, s.id, 'session.json'));
    expect(SessionDocument.parse(JSON.parse(await readFile(s.path as string, 'utf8'))).outcome.status).toBe('open');

    await s.append({ role: 'user', content: 'Bookings after 23:00 land on the wrong day.' });
    await s.append({ role: 'assistant', content: 'Patch proposed.', annotations: { tool_calls: [{ name: 'read_file' }] } });
    await s.recordOperation({ type: 'gate_open', detail: 'commit gate opened', vcs: { staged: { M: ['src/booking.ts'], R: [['src/tz.ts', 'src/oslo.ts']] } } });
    await s.recordOperation({ type: 'apply_diff', detail: { patch: 'fix-1.patch' }, vcs: { applied_sha: '7d1e2f0a9c8b' } });
    await s.close({ status: 'accepted', summary: 'Bookings bucketed by Oslo day.', commit_sha: '7d1e2f0a9c8b' });

    const doc = await load(dir, s.id);
    expect(doc.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(doc.repo).toEqual(repo);
    expect(doc.workflow_type).toBe('chat');
    expect(doc.mode).toBe('protocol');
    expect(doc.model).toEqual({ provider: 'openai', name: 'gpt-5', temperature: 0.1, thinking_level: 'medium' });
    expect(doc.chat.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Bookings after 23:00 land on the wrong day.'],
      ['assistant', 'Patch proposed.'],
    ]);
    expect(doc.operations.map((o) => o.type)).toEqual(['gate_open', 'apply_diff']);
    expect(doc.operations[0]?.vcs.staged).toEqual({ A: [], M: ['src/booking.ts'], D: [], R: [['src/tz.ts', 'src/oslo.ts']] });
    expect(doc.operations[1]?.vcs.applied_sha).toBe('7d1e2f0a9c8b');
    expect(doc.outcome).toEqual({ status: 'accepted', summary: 'Bookings bucketed by Oslo day.', commit_sha: '7d1e2f0a9c8b' });
    expect(doc.created_at).toMatch(/[+-]\d{2}:\d{2}$/);
    // Nothing is left behind: no temp file, no lock.
    expect((await readdir(join(dir, s.id))).sort()).toEqual(['session.json']);
  });

  it('moves updated_at forward on every checkpoint, even when the clock stands still', async () => {
    const s = await open({ now: () => Date.parse('2026-02-03T10:15:00.250Z'), autoCheckpoint: false });
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      await s.append({ role: 'user', content: `step ${i}` });
      await s.checkpoint();
      seen.push(parseMicros((await load(dir, s.id)).updated_at) as number);
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] as number);
    await s.release();
  });

  it('keeps a resumed session strictly later than what is on disk, across processes with the same clock', async () => {
    const frozen = () => Date.parse('2026-02-03T10:15:00.250Z');
    const first = await open({ now: frozen });
    await first.append({ role: 'user', content: 'one' });
    await first.release();
    const before = parseMicros((await load(dir, first.id)).updated_at) as number;
    const again = await open({ id: first.id, now: frozen });
    await again.append({ role: 'user', content: 'two' });
    expect(parseMicros((await load(dir, first.id)).updated_at)).toBeGreaterThan(before);
    await again.release();
  });
});

describe('write-once', () => {
  it('refuses to reopen a closed session and leaves its bytes untouched', async () => {
    const s = await open();
    await s.append({ role: 'user', content: 'hi' });
    await s.close({ status: 'rejected', summary: 'not wanted' });
    const bytes = await readFile(s.path as string);
    const info = await stat(s.path as string);

    const err = await failure(open({ id: s.id }));
    expect(err.reason).toBe('session_closed');
    expect(err.message).toContain(`Session ${s.id} is closed (outcome: rejected)`);
    expect((await failure(s.append({ role: 'user', content: 'more' }))).reason).toBe('session_closed');
    expect((await failure(s.close({ status: 'accepted' }))).reason).toBe('session_closed');

    expect((await readFile(s.path as string)).equals(bytes)).toBe(true);
    expect((await stat(s.path as string)).mtimeMs).toBe(info.mtimeMs);
  });

  it('never closes a session as "open", and a bad operation changes nothing', async () => {
    const s = await open();
    const bytes = await readFile(s.path as string);
    expect((await failure(s.close({ status: 'open' as never }))).reason).toBe('invalid_input');
    expect((await failure(s.recordOperation({ type: 'deploy' as never }))).message).toMatch(/Invalid operation: type/);
    expect((await failure(s.recordOperation({ type: 'apply_diff', vcs: { applied_sha: 'not-a-sha' } }))).message).toContain('hexadecimal');
    expect((await readFile(s.path as string)).equals(bytes)).toBe(true);
    await s.release();
  });
});

describe('one writer per session', () => {
  it('lets only one writer hold a session; the second gets a clear error until the first lets go', async () => {
    const first = await open();
    const err = await failure(open({ id: first.id }));
    expect(err.reason).toBe('session_locked');
    expect(err.message).toContain(`is being written by process ${process.pid}`);
    await first.release();
    const second = await open({ id: first.id });
    await second.append({ role: 'user', content: 'after the first writer left' });
    await second.release();
    expect((await load(dir, first.id)).chat).toHaveLength(1);
  });
});

describe('resume', () => {
  it('reloads chat and config, and refuses to change a key set on the command line', async () => {
    const s = await open({
      config: { 'model.name': { value: 'gpt-5', provenance: 'CLI' }, 'ui.theme': { value: 'dark', provenance: 'profile' } },
      model: { name: 'gpt-5' },
    });
    await s.append({ role: 'user', content: 'first turn' });
    await s.release();

    const err = await failure(open({ id: s.id, config: { 'model.name': { value: 'o3', provenance: 'CLI' } } }));
    expect(err.reason).toBe('config_locked');
    expect(err.field).toBe('model.name');
    expect(err.message).toContain('Config key "model.name" was set on the command line');

    // The refused resume released its lock and wrote nothing.
    const resumed = await open({
      id: s.id,
      config: { 'model.name': { value: 'gpt-5', provenance: 'CLI' }, 'ui.theme': { value: 'light', provenance: 'CLI' } },
    });
    expect(resumed.resumed).toBe(true);
    const doc = resumed.snapshot();
    expect(doc?.chat.map((m) => m.content)).toEqual(['first turn']);
    expect(doc?.config_effective['model.name']).toEqual({ value: 'gpt-5', provenance: 'CLI' });
    expect(doc?.config_effective['ui.theme']).toEqual({ value: 'light', provenance: 'CLI' });
    expect(doc?.operations.at(-1)).toMatchObject({ type: 'config_change', detail: { key: 'ui.theme', from: 'dark', to: 'light', provenance: 'CLI' } });

    expect((await failure(resumed.setConfig('model.name', 'o3'))).reason).toBe('config_locked');
    await resumed.setConfig('model.temperature', 0.4);
    expect(resumed.snapshot()?.model.temperature).toBe(0.4);
    await resumed.release();
  });

  it('keeps the recorded settings when a later run only has defaults or profile values', async () => {
    const s = await open({ overrides: { redact: ['secrets'] } });
    await s.release();
    const again = await open({ id: s.id, env: { SESSION_VAULT_REDACT: 'env' } });
    expect(again.snapshot()?.config_effective.redact).toEqual({ value: ['secrets'], provenance: 'CLI' });
    await again.release();
  });

  it('names what is missing when the id is unknown or not an id', async () => {
    expect((await failure(open({ id: '0195c2d4-7a10-7c3e-9f21-5b8e0d4a6c13' }))).reason).toBe('session_not_found');
    expect((await failure(open({ id: '../../etc' }))).message).toContain('is not a session id');
  });
});

describe('size bounds', () => {
  it('moves a payload over 256 KB to an artifact file and references it', async () => {
    const s = await open();
    const big = `start ${'x'.repeat(300 * 1024)} end`;
    await s.append({ role: 'tool', content: big });
    await s.recordOperation({ type: 'test_run', detail: { log: 'y'.repeat(300 * 1024) } });
    const doc = await load(dir, s.id);
    const message = doc.chat[0];
    expect(message?.annotations?.content_artifact).toBe('artifacts/chat-0000.txt');
    expect(message?.content).toContain('saved as artifacts/chat-0000.txt');
    expect(await readFile(join(dir, s.id, 'artifacts/chat-0000.txt'), 'utf8')).toBe(big);
    expect(doc.operations[0]?.detail).toMatchObject({ artifact: 'artifacts/op-0000-detail.json' });
    expect(doc.artifacts).toEqual(['artifacts/chat-0000.txt', 'artifacts/op-0000-detail.json']);
    expect((await stat(s.path as string)).size).toBeLessThan(16 * 1024);
    await s.release();
  });

  it('keeps session.json under the file limit by moving the largest inline payloads out', async () => {
    const s = await open({ limits: { fileBytes: 64 * 1024 } });
    for (let i = 0; i < 12; i++) await s.append({ role: 'assistant', content: `${i} ${'z'.repeat(10 * 1024)}` });
    expect((await stat(s.path as string)).size).toBeLessThan(64 * 1024);
    const doc = await load(dir, s.id);
    expect(doc.chat).toHaveLength(12);
    expect(doc.artifacts.length).toBeGreaterThan(0);
    for (const rel of doc.artifacts) expect(existsSync(join(dir, s.id, rel))).toBe(true);
    await s.release();
  });
});

describe('session_logging: off', () => {
  it('writes nothing at all, whether off comes from the environment, the config file or a flag', async () => {
    const sessionsDir = join(dir, 'sessions');
    for (const options of [{ env: { SESSION_VAULT_SESSION_LOGGING: 'off' } }, { overrides: { session_logging: 'off' as const } }]) {
      const s = await openSession({ sessionsDir, repo, ...options });
      await s.append({ role: 'user', content: 'private' });
      await s.recordOperation({ type: 'proposal' });
      await s.close({ status: 'aborted' });
      expect(s.enabled).toBe(false);
      expect(s.path).toBeNull();
    }
    expect(existsSync(sessionsDir)).toBe(false);

    await writeFile(join(dir, 'session-logging.conf'), '# mine\nsession_logging: off\n');
    const fromFile = await openSession({ sessionsDir: dir, env: {}, repo });
    await fromFile.append({ role: 'user', content: 'private' });
    expect(await readdir(dir)).toEqual(['session-logging.conf']);
  });

  it('lets a flag turn logging back on over the environment, recorded with provenance CLI', async () => {
    const s = await openSession({ sessionsDir: dir, repo, env: { SESSION_VAULT_SESSION_LOGGING: 'off' }, overrides: { session_logging: 'on' } });
    expect(s.enabled).toBe(true);
    expect(s.snapshot()?.config_effective.session_logging).toEqual({ value: 'on', provenance: 'CLI' });
    await s.release();
  });
});

describe('system prompt', () => {
  it('records the prompt path relative to the repo, its SHA-256, and a copy as an artifact', async () => {
    const s = await open({ systemPrompt: { path: '/home/dev/harbor/.vizier/prompts/system.md', text: 'You are careful.\n' } });
    const doc = await load(dir, s.id);
    expect(doc.system_prompt_path).toBe('.vizier/prompts/system.md');
    expect(doc.system_prompt_hash).toBe(createHash('sha256').update('You are careful.\n').digest('hex'));
    expect(doc.artifacts).toEqual(['artifacts/system-prompt.md']);
    expect(await readFile(join(dir, s.id, 'artifacts/system-prompt.md'), 'utf8')).toBe('You are careful.\n');
    await s.release();
  });
});
