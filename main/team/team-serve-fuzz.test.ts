// Every contract method called as `serve --team` answers it (a team store opened read-only, as a viewer and as a member), with inputs made from its schema and the team's keys: an answer the contract allows, or a clear error, never an internal one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { methodNames, type MethodName } from '../../shared/api.ts';
import type { Session } from '../../shared/session.ts';
import type { Pools } from '../../shared/test-support/schema-arbitrary.ts';
import { checkMethod } from '../test-support/contract-property.ts';
import { createDispatch } from '../transport/dispatch.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import type { TeamConnection } from './team-connection.ts';
import { resolveTeamTarget } from './team-credentials.ts';
import { teamKey } from './team-reader.ts';
import { openTeamServices, type TeamServices } from './team-services.ts';
import { accountConnection, connectUrl, fixtureSessions, memoryLoader } from './test-team.ts';

/** Formats whose fixtures are pushed: transcripts with tools, sub-agents, thinking and images, and a tree of turns. */
const FORMATS = ['claude-code', 'codex', 'gemini', 'vizier'];

describeWithPostgres('the contract under odd inputs, as serve --team answers it', (pgs) => {
  let owner: TeamConnection;
  const served: Array<{ role: string; team: TeamServices }> = [];
  let pools: Pools;
  let dataDir: string;

  beforeAll(async () => {
    const ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    const alice = await accountConnection(owner, ownerUrl, 'alice', 'member');
    const vera = await accountConnection(owner, ownerUrl, 'vera', 'viewer');
    const sessions: Session[] = await fixtureSessions(FORMATS);
    const report = await pushSessions({
      client: alice.conn.client,
      machine: 'alice-laptop',
      keys: sessions.map((s) => s.key),
      loader: memoryLoader(sessions),
      env: {},
    });
    expect(report.pushed.length).toBeGreaterThan(10);
    await alice.conn.close();
    await vera.conn.close();
    dataDir = mkdtempSync(join(tmpdir(), 'sv-team-serve-fuzz-'));
    for (const [role, url] of [
      ['viewer', vera.url],
      ['member', alice.url],
    ] as const)
      served.push({ role, team: await openTeamServices(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: url }), join(dataDir, role), {}) });
    const keys = report.pushed.map((k) => teamKey('alice-laptop', k));
    pools = {
      strings: [
        ...keys,
        ...report.pushed,
        teamKey('nobody', report.pushed[0] ?? 'x'),
        // PostgreSQL's text holds no NUL: a key or filter with one must match nothing, not fail.
        teamKey('alice-laptop', `${report.pushed[0] ?? 'x'}\u0000`),
        'alice-laptop/\u0000',
        'machine:alice-laptop',
        'machine:"alice\u0000laptop"',
        'user:alice',
        '-machine:alice-laptop',
        'alice-laptop',
      ],
      numbers: [3, 20, 100],
    };
  }, 120_000);

  afterAll(async () => {
    for (const { team } of served) await team.close();
    await owner?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every method with a value its contract allows, or an error other than an internal one', async () => {
    const failures: string[] = [];
    /** Per method, the calls answered with a value: the team's reads must have answered some. */
    const answered = new Map<MethodName, number>();
    for (const { role, team } of served) {
      const dispatch = createDispatch(team.methods, { log: () => undefined });
      for (const method of methodNames) await checkMethod(method, { dispatch, pools, runs: 8, failures, label: role, answered });
    }
    expect([...new Set(failures)]).toEqual([]);
    for (const method of ['listSessions', 'searchSessions', 'getSession', 'getTeamStatus'] as const) expect(answered.get(method), method).toBeGreaterThan(0);
    if (process.env.SV_CONTRACT_RUNS) console.log(Object.fromEntries(answered));
  }, 300_000);
});
