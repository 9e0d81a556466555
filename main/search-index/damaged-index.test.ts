// Damaged copies of every agent's samples (each number past any count, or one value replaced by an odd one) scanned beside the samples into the index: the list, search and every usage report and the dashboard answer as the contract allows, in plain JSON.
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
  it('are listed, searched and counted in every usage report and the dashboard, each answer as the contract allows in plain JSON', async () => {
    const base = testTempDir('sv-damaged-index-');
    const root = join(base, 'samples');
    expect(writeDamagedSamples(root)).toBeGreaterThan(60);
    const services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
    const faults: string[] = [];
    try {
      await services.start();
      await services.whenScanned();
      for (const [method, input] of CALLS) {
        const result = await services.dispatch(method, input);
        const call = `${method}(${JSON.stringify(input)})`;
        if (!result.ok) {
          faults.push(`${call}: ${result.error.code} ${result.error.message.slice(0, 300)}`);
          continue;
        }
        // As serve sends it: JSON, where Infinity and NaN become null.
        const checked = api[method].output.safeParse(JSON.parse(JSON.stringify(result.value)));
        if (!checked.success) faults.push(`${call}: ${checked.error.message.slice(0, 400)}`);
      }
    } finally {
      await services.close();
    }
    expect(faults).toEqual([]);
  }, 240_000);
});
