// The lock's temp files never outlive a normal run, a contended one or a failed write, and ones a crash left are swept.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { acquireLock } from './lock.ts';
import { openSession } from './open-session.ts';
import type { StoreError } from './store-error.ts';
import type * as FsPromises from 'node:fs/promises';

/** When set, writing a lock temp file fails half-way, as a full disk would (the file exists, the write throws). */
const failing = { lockTemp: false };

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const writeFileFailing: typeof real.writeFile = async (path, data, options) => {
    if (failing.lockTemp && typeof path === 'string' && /^\.lock\..*\.tmp$/.test(basename(path))) {
      await real.writeFile(path, String(data).slice(0, 3), options);
      throw Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC' });
    }
    return real.writeFile(path, data, options);
  };
  return { ...real, default: { ...real, writeFile: writeFileFailing }, writeFile: writeFileFailing };
});

const repo = { root: null, current_branch: null, head_sha: null };
const env = { SESSION_VAULT_REDACT: 'none' };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-lock-temp-'));
});
afterEach(async () => {
  failing.lockTemp = false;
  await rm(dir, { recursive: true, force: true });
});

/** Every `.tmp` file left in any session folder. */
async function strayTemps(): Promise<string[]> {
  const found: string[] = [];
  for (const id of await readdir(dir)) {
    for (const name of await readdir(join(dir, id))) if (name.endsWith('.tmp')) found.push(`${id}/${name}`);
  }
  return found;
}

describe('lock temp files', () => {
  it('leaves none after recording, resuming and two writers contending for one session', async () => {
    const s = await openSession({ sessionsDir: dir, env, repo });
    await s.append({ role: 'user', content: 'hello' });
    await s.release();
    const again = await openSession({ sessionsDir: dir, id: s.id, env, repo });
    const contender = await openSession({ sessionsDir: dir, id: s.id, env, repo }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((contender as StoreError).reason).toBe('session_locked');
    const inProcess = await Promise.allSettled([acquireLock(join(dir, s.id), s.id), acquireLock(join(dir, s.id), s.id)]);
    expect(inProcess.every((r) => r.status === 'rejected')).toBe(true);
    await again.close({ status: 'accepted' });
    expect(await strayTemps()).toEqual([]);
  });

  it('leaves none when writing the lock fails part-way (a full disk), and the session stays free to open', async () => {
    const s = await openSession({ sessionsDir: dir, env, repo });
    await s.release();
    failing.lockTemp = true;
    const err = await openSession({ sessionsDir: dir, id: s.id, env, repo }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(await strayTemps()).toEqual([]);
    failing.lockTemp = false;
    const later = await openSession({ sessionsDir: dir, id: s.id, env, repo });
    await later.release();
  });

  it('sweeps the temp files a writer killed mid-acquire left, but not one a live writer is using right now', async () => {
    const s = await openSession({ sessionsDir: dir, env, repo });
    await s.release();
    const crashed = [join(dir, s.id, '.lock.0badc0ffee01.tmp'), join(dir, s.id, '.lock.break.0badc0ffee02.tmp')];
    const live = join(dir, s.id, '.lock.5eedf00d0003.tmp');
    const then = new Date(Date.now() - 5 * 60_000);
    for (const path of crashed) {
      await writeFile(path, '{"pid":1');
      await utimes(path, then, then);
    }
    await writeFile(live, '{"pid":2}');
    const resumed = await openSession({ sessionsDir: dir, id: s.id, env, repo });
    await resumed.release();
    expect(await strayTemps()).toEqual([`${s.id}/.lock.5eedf00d0003.tmp`]);
  });
});
