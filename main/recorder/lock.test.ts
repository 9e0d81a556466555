// One writer per session across processes: a race has one winner, stale locks are recovered, a lost lock writes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { acquireLock, LOCK_FILE } from './lock.ts';
import { load, openSession, StoreError } from './index.ts';

const RACER = resolve(import.meta.dirname, 'fixtures/race-writer.ts');
const repo = { root: null, current_branch: null, head_sha: null };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-lock-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function newSessionId(): Promise<string> {
  const s = await openSession({ sessionsDir: dir, env: {}, repo });
  await s.release();
  return s.id;
}

function race(id: string, label: string, holdMs: number, startAt: number): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [RACER, dir, id, String(holdMs), label], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, RACE_START_AT: String(startAt) },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => done({ code, out }));
  });
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

async function plantLock(id: string, holder: object, ageMs = 0): Promise<string> {
  const path = join(dir, id, LOCK_FILE);
  await writeFile(path, JSON.stringify(holder));
  if (ageMs) {
    const then = new Date(Date.now() - ageMs);
    await utimes(path, then, then);
  }
  return path;
}

describe('two processes racing on one session', () => {
  it('lets exactly one win each round; the other is told who holds it, and the file stays valid', { timeout: 30_000 }, async () => {
    const id = await newSessionId();
    let wins = 0;
    for (let round = 0; round < 2; round++) {
      // Both try at the same instant and the winner holds on long enough to overlap even a slow start.
      const startAt = Date.now() + 2_000;
      const results = await Promise.all([race(id, `a${round}`, 1_200, startAt), race(id, `b${round}`, 1_200, startAt)]);
      const won = results.filter((r) => r.code === 0);
      const lost = results.filter((r) => r.code === 4);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]?.out).toMatch(/is being written by process \d+ on /);
      wins += won.length;
    }
    const doc = await load(dir, id);
    expect(doc.chat).toHaveLength(wins);
  });
});

describe('stale lock recovery', () => {
  it('takes over a lock whose process is dead on this host', async () => {
    const id = await newSessionId();
    await plantLock(id, { pid: deadPid(), host: hostname(), created_at: '2026-01-01T00:00:00Z', token: 'dead' });
    const s = await openSession({ sessionsDir: dir, id, env: {}, repo });
    await s.append({ role: 'user', content: 'recovered' });
    await s.release();
    expect((await load(dir, id)).chat).toHaveLength(1);
  });

  it('respects a fresh lock from another host, but takes it over once it is older than the bound', async () => {
    const id = await newSessionId();
    const holder = { pid: 4242, host: 'build-agent-7', created_at: '2026-01-01T00:00:00Z', token: 'remote' };
    await plantLock(id, holder);
    const err = await openSession({ sessionsDir: dir, id, env: {}, repo }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toContain('process 4242 on build-agent-7');

    await plantLock(id, holder, 10 * 60_000);
    const s = await openSession({ sessionsDir: dir, id, env: {}, repo });
    expect(JSON.parse(await readFile(join(dir, id, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await s.release();
  });

  it('honours a shorter bound given by the caller, and treats a torn lock file as stale only once it is old', async () => {
    const id = await newSessionId();
    const path = join(dir, id, LOCK_FILE);
    await writeFile(path, '');
    await expect(acquireLock(join(dir, id), id)).rejects.toThrow(/an unreadable lock file/);
    const then = new Date(Date.now() - 6_000);
    await utimes(path, then, then);
    const lock = await acquireLock(join(dir, id), id);
    await lock.release();

    await plantLock(id, { pid: 4242, host: 'elsewhere', created_at: '', token: 'x' }, 2_000);
    const quick = await acquireLock(join(dir, id), id, { staleMs: 1_000 });
    await quick.release();
  });
});

describe('a lock taken away', () => {
  it('stops the old writer before it writes anything', async () => {
    const s = await openSession({ sessionsDir: dir, env: {}, repo });
    const before = await readFile(s.path as string);
    await writeFile(join(dir, s.id, LOCK_FILE), JSON.stringify({ pid: 1, host: 'other', created_at: '', token: 'thief' }));
    const err = await s.append({ role: 'user', content: 'too late' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as StoreError).reason).toBe('lock_lost');
    expect((err as StoreError).message).toContain('now held by process 1 on other');
    expect((await readFile(s.path as string)).equals(before)).toBe(true);
  });
});
