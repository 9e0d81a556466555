// Every contract method but resumeInTerminal called with inputs made from its schema while the app is signed in to a real team store (the team's keys, its filters and the store's URL among them): an answer the contract allows, or a clear error, never an internal one.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { methodNames, type MethodName } from '../../shared/api.ts';
import { createServices, type Services } from '../app/services.ts';
import type { Pools } from '../../shared/test-support/schema-arbitrary.ts';
import { checkMethod } from '../test-support/contract-property.ts';
import { samplesDir } from '../test-support/samples.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import type { TeamConnection } from './team-connection.ts';
import { accountConnection, connectUrl } from './test-team.ts';

const MACHINE = 'fuzz-box';

/** Called last, in this order: each can sign the app out of the store (a new URL, a wrong token) for the calls after it. */
const LAST: readonly MethodName[] = ['setTeamSettings'];

/** Left out: it opens a terminal window. */
const LEFT_OUT: readonly MethodName[] = ['resumeInTerminal'];

describeWithPostgres('the contract under odd inputs, signed in to a team store', (pgs) => {
  let owner: TeamConnection;
  let alice: { conn: TeamConnection; token: string; url: string };
  let services: Services;
  let pools: Pools;
  let base: string;

  beforeAll(async () => {
    const ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    alice = await accountConnection(owner, ownerUrl, 'alice', 'member');
    const store = new URL(alice.url);
    store.password = '';
    base = mkdtempSync(join(tmpdir(), 'sv-team-contract-fuzz-'));
    const root = join(base, 'samples');
    cpSync(samplesDir, root, { recursive: true });
    services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
    await services.start();
    await services.whenScanned();
    const status = await services.client.setTeamSettings({ store: store.href, token: alice.token, machine: MACHINE });
    expect(status.error).toBeNull();
    // One session of every format pushed, so the team's list, search and opening have something to answer with.
    const { sessions } = await services.client.listSessions({ limit: 500 });
    const chosen = [...new Map(sessions.filter((s) => !s.unreadable).map((s) => [s.format, s])).values()];
    const pushed = await services.client.pushToTeam({ keys: chosen.map((s) => s.key), confirm: true, keep: [] });
    expect(pushed.pushed.length).toBeGreaterThan(5);
    pools = {
      strings: [
        ...chosen.map((s) => s.key),
        ...pushed.pushed.map((k) => `${MACHINE}/${k}`),
        ...chosen.flatMap((s) => (s.projectName ? [s.projectName] : [])),
        `machine:${MACHINE}`,
        'machine:nobody',
        'user:alice',
        `user:alice machine:${MACHINE} source:codex`,
        store.href,
        MACHINE,
      ],
      numbers: [3, 20, 100],
    };
  }, 120_000);

  afterAll(async () => {
    await services?.close();
    await alice?.conn.close();
    await owner?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('answers every method with a value its contract allows, or an error other than an internal one', async () => {
    const failures: string[] = [];
    /** Per method, how many calls answered with a value: the team's must have, or the store was never really used. */
    const answered = new Map<MethodName, number>();
    const order = [...methodNames.filter((m) => !LAST.includes(m) && !LEFT_OUT.includes(m)), ...LAST];
    for (const method of order) await checkMethod(method, { dispatch: services.dispatch, pools, runs: 12, failures, answered });
    expect([...new Set(failures)]).toEqual([]);
    for (const method of ['getTeamStatus', 'listTeamSessions', 'pushToTeam', 'setTeamSettings'] as const)
      expect(answered.get(method), method).toBeGreaterThan(0);
    if (process.env.SV_CONTRACT_RUNS) console.log(Object.fromEntries(answered));
  }, 300_000);
});
