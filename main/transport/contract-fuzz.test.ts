// Every contract method called with inputs made from its own schema (odd strings and numbers, real session keys and folder ids): an answer the contract allows, or a clear error, never an internal one.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { methodNames, type MethodName } from '../../shared/api.ts';
import { createServices, type Services } from '../app/services.ts';
import type { Pools } from '../../shared/test-support/schema-arbitrary.ts';
import { checkMethod } from '../test-support/contract-property.ts';
import { samplesDir } from '../test-support/samples.ts';
import { testTempDir } from '../test-support/temp-dir.ts';

/** Methods left out, and why: each reaches outside this process's temporary folders (the team's are called signed in to a store by team/team-contract-fuzz.test.ts). */
const LEFT_OUT: Partial<Record<MethodName, string>> = {
  resumeInTerminal: 'opens a terminal window',
  setTeamSettings: 'connects to a team store',
  pushToTeam: 'connects to a team store',
  listTeamSessions: 'connects to a team store',
};

/** Services over a copy of the samples, scanned, and the names they hold to draw inputs from. */
async function servicesOverSamples(): Promise<{ services: Services; pools: Pools }> {
  const base = testTempDir('sv-contract-fuzz-');
  const root = join(base, 'samples');
  cpSync(samplesDir, root, { recursive: true });
  const services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
  await services.start();
  await services.whenScanned();
  const { sessions } = await services.client.listSessions({ includeChildren: true, limit: 500 });
  const roots = await services.client.listRoots({});
  // A few sessions of every format, their projects and folders, and the roots' ids.
  const perFormat = new Map<string, number>();
  const chosen = sessions.filter((s) => {
    const n = perFormat.get(s.format) ?? 0;
    perFormat.set(s.format, n + 1);
    return n < 2;
  });
  const pools = {
    strings: [...chosen.map((s) => s.key), ...chosen.flatMap((s) => (s.projectName ? [s.projectName] : [])), ...roots.map((r) => r.id), root],
    numbers: [3, 20, 100],
  };
  return { services, pools };
}

describe('the contract under odd inputs', () => {
  it('answers every method with a value its contract allows, or an error other than an internal one', async () => {
    const { services, pools } = await servicesOverSamples();
    const failures: string[] = [];
    try {
      for (const method of methodNames) if (!LEFT_OUT[method]) await checkMethod(method, { dispatch: services.dispatch, pools, runs: 12, failures });
    } finally {
      await services.close();
    }
    expect([...new Set(failures)]).toEqual([]);
  }, 300_000);
});
