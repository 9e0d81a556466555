// Damaged copies of every agent's samples (each number past any count, or one value replaced by an odd one) scanned beside the samples into the index: the list, search, every usage report and the dashboard, keeping and opening answer as the contract allows, in plain JSON.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, type MethodName } from '../../shared/api.ts';
import { createServices } from '../app/services.ts';
import { writeDamagedSamples } from '../test-support/damaged-sessions.ts';
import { testTempDir } from '../test-support/temp-dir.ts';

/** The calls checked: every list, search and usage answer a user of these sessions can ask for. */
const CALLS: Array<[MethodName, Record<string, unknown>]> = [
  ['listSessions', { includeChildren: true, limit: 2000 }],
  ['searchSessions', { query: 'the', limit: 200, offset: 0 }],
  ['searchSessions', { query: 'sort:tokens', limit: 200, offset: 0 }],
  ['searchSessions', { query: 'sort:cost tokens>1000', limit: 200, offset: 0 }],
  ...(['daily', 'weekly', 'monthly', 'session'] as const).flatMap((period): Array<[MethodName, Record<string, unknown>]> => [
    ['usageReport', { period, timezone: 'UTC' }],
    ['usageReport', { period, timezone: 'UTC', breakdown: 'model' }],
  ]),
  ['usageBlocks', { timezone: 'UTC', query: '' }],
  ['usageDashboard', { timezone: 'UTC' }],
  ['usageDashboard', { timezone: 'UTC', breakdown: 'project' }],
];

describe('damaged sessions in the index', () => {
  it('are listed, searched, counted in every usage report and the dashboard, kept and opened, each answer as the contract allows in plain JSON', async () => {
    const base = testTempDir('sv-damaged-index-');
    const root = join(base, 'samples');
    expect(writeDamagedSamples(root)).toBeGreaterThan(60);
    const services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
    const faults: string[] = [];
    /** One call, its answer checked as serve sends it: JSON, where Infinity and NaN become null. */
    const check = async (method: MethodName, input: Record<string, unknown>) => {
      const result = await services.dispatch(method, input);
      const call = `${method}(${JSON.stringify(input)})`;
      if (!result.ok) return void faults.push(`${call}: ${result.error.code} ${result.error.message.slice(0, 300)}`);
      const checked = api[method].output.safeParse(JSON.parse(JSON.stringify(result.value)));
      if (!checked.success) faults.push(`${call}: ${checked.error.message.slice(0, 400)}`);
    };
    try {
      await services.start();
      await services.whenScanned();
      for (const [method, input] of CALLS) await check(method, input);
      // Forty readable ones, spread over the list, kept in the vault, then opened (a keep rescans the vault: ~80 ms each).
      const readable = (await services.client.listSessions({ includeChildren: true, limit: 2000 })).sessions.filter((x) => !x.unreadable);
      const step = Math.max(1, Math.ceil(readable.length / 40));
      for (const s of readable.filter((_, i) => i % step === 0)) {
        await check('keepSession', { key: s.key });
        await check('getSession', { key: s.key, messageLimit: 50 });
      }
    } finally {
      await services.close();
    }
    expect(faults).toEqual([]);
  }, 240_000);
});
