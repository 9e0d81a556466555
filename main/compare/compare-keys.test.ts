// The compareSessions service end to end: keys through dispatch, the work done by the session worker, clear errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Comparison } from '../../shared/compare/comparison.ts';
import { createServices, type Services } from '../app/services.ts';
import { CLAUDE_KEY, CODEX_KEY, COMPARE_FIXTURES } from './fixture-paths.ts';

let base: string;
let services: Services;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-compare-'));
  services = createServices({
    dataDir: join(base, 'data'),
    shell: 'cli',
    extraRoots: [COMPARE_FIXTURES],
    discoverDefaults: false,
    watch: false,
    env: { HOME: join(base, 'home') },
  });
  await services.start();
  await services.whenScanned();
});
afterAll(async () => {
  await services.close();
  await rm(base, { recursive: true, force: true });
});

describe('compareSessions (service)', () => {
  it('compares two listed sessions by key', async () => {
    const result = await services.dispatch('compareSessions', { a: CLAUDE_KEY, b: CODEX_KEY });
    expect(result.ok).toBe(true);
    const c = (result as { value: Comparison }).value;
    expect([c.a.key, c.b.key]).toEqual([CLAUDE_KEY, CODEX_KEY]);
    expect(c.stats).toEqual({ same: 2, changed: 2, inserted: 1, deleted: 1 });
  });

  it('names the side whose key is unknown', async () => {
    const result = await services.dispatch('compareSessions', { a: CLAUDE_KEY, b: 'codex:gone' });
    expect(result).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', field: 'b' } });
  });

  it('refuses input that is not two keys', async () => {
    const result = await services.dispatch('compareSessions', { a: CLAUDE_KEY });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'b' } });
  });
});
