// The start-up sweep removes our own stale temp files and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepTempFiles } from './sweep-temp.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-sweep-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('sweepTempFiles', () => {
  it('removes *.tmp older than a minute, keeps fresh ones, other files and anything inside kept sources', async () => {
    const old = new Date(Date.now() - 5 * 60_000);
    const stale = join(dir, 'recorded', '.vizier', 'sessions', 'a', 'session.json.tmp');
    const fresh = join(dir, 'recorded', '.vizier', 'sessions', 'b', 'session.json.tmp');
    const keptSource = join(dir, 'sessions', 'k', 'source', 'home', 'u', 'x.json.tmp');
    const real = join(dir, 'recorded', '.vizier', 'sessions', 'a', 'session.json');
    for (const f of [stale, fresh, keptSource, real]) {
      await mkdir(join(f, '..'), { recursive: true });
      await writeFile(f, '{}');
    }
    for (const f of [stale, keptSource, real]) await utimes(f, old, old);
    expect(await sweepTempFiles([dir])).toBe(1);
    expect([stale, fresh, keptSource, real].map((f) => existsSync(f))).toEqual([false, true, true, true]);
  });
});
