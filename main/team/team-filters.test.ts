// A store of schema 9 upgraded to 10: lists by filters alone (project:, branch:, model:, whole or by substring, with machine: and user:) give the sessions, order and exact totals a reference in JS gives, before and once the project's name and path have a trigram index; new search text is compressed with lz4.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { TEAM_SCHEMA_VERSION } from './migrations.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import type { TeamConnection } from './team-connection.ts';
import { searchTeam } from './team-search.ts';
import { connectUrl, memoryLoader, storeAtVersion } from './test-team.ts';

const PROJECTS = ['harbor-crane', 'Harbor-Docks', 'crane_50%', 'gull'];
const BRANCHES = ['main', 'Main', 'fix/crane', 'feature/harbor', null];
const MODELS = ['claude-sonnet-4-5', 'claude-opus-4-7', 'gpt-5-codex', 'GPT-5'];

/** Forty sessions over four projects (one with LIKE's wildcards in its name), five branches and four models, each an hour apart. */
const sessions: Session[] = Array.from({ length: 40 }, (_, i) => {
  const project = PROJECTS[i % PROJECTS.length] as string;
  return makeSession(`s${String(i).padStart(2, '0')}`, {
    title: `Survey ${i}`,
    sourceFiles: [],
    project: { path: i % 7 === 0 ? null : `/home/dev/${project}`, name: project, branch: BRANCHES[i % BRANCHES.length] ?? null, headCommit: null },
    model: { provider: 'x', name: MODELS[i % MODELS.length] as string, parameters: {} },
    createdAt: new Date(Date.UTC(2026, 0, 1, i)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 1, i, 30)).toISOString(),
  });
});

const lower = (v: string | null | undefined) => (v ?? '').toLowerCase();
const has = (v: string | null | undefined, part: string) => lower(v).includes(part.toLowerCase());

/** Each filter query with the sessions it selects, as the local search reads the filter. */
const CASES: Array<[string, (s: Session) => boolean]> = [
  ['project:harbor', (s) => has(s.project.name, 'harbor') || has(s.project.path, 'harbor')],
  ['project:HARBOR-docks', (s) => has(s.project.name, 'harbor-docks') || has(s.project.path, 'harbor-docks')],
  ['project:"harbor-crane"', (s) => lower(s.project.name) === 'harbor-crane' || lower(s.project.path) === 'harbor-crane'],
  ['project:"/home/dev/gull"', (s) => lower(s.project.path) === '/home/dev/gull'],
  ['project:50%', (s) => has(s.project.name, '50%') || has(s.project.path, '50%')],
  ['project:"crane_50%"', (s) => lower(s.project.name) === 'crane_50%'],
  ['project:crane_5', (s) => has(s.project.name, 'crane_5') || has(s.project.path, 'crane_5')],
  ['project:har*cks', (s) => /har.*cks/i.test(s.project.name ?? '') || /har.*cks/i.test(s.project.path ?? '')],
  ['project:nowhere', () => false],
  ['branch:main', (s) => lower(s.project.branch) === 'main'],
  ['branch:"fix/crane"', (s) => lower(s.project.branch) === 'fix/crane'],
  ['branch:feature/*', (s) => lower(s.project.branch).startsWith('feature/')],
  ['model:claude', (s) => lower(s.model?.name).startsWith('claude')],
  ['model:gpt-5', (s) => lower(s.model?.name).startsWith('gpt-5')],
  ['model:"gpt-5"', (s) => lower(s.model?.name) === 'gpt-5'],
  [
    'project:harbor branch:main model:claude',
    (s) => (has(s.project.name, 'harbor') || has(s.project.path, 'harbor')) && lower(s.project.branch) === 'main' && lower(s.model?.name).startsWith('claude'),
  ],
  ['project:crane machine:docks', (s) => has(s.project.name, 'crane') || has(s.project.path, 'crane')],
  ['project:crane -machine:docks', () => false],
  ['project:crane user:nobody', () => false],
  // Dates before any PostgreSQL can hold (a typo's 99999999 days back): every session is after it, none before it.
  ['after:99999999d', () => true],
  ['before:99999999d', () => false],
  ['project:gull after:99999999d', (s) => has(s.project.name, 'gull') || has(s.project.path, 'gull')],
];

/** The keys a list gives (newest first) and its total, page by page. */
async function listed(client: pg.ClientBase, q: string): Promise<{ keys: string[]; total: number; capped: boolean }> {
  const keys: string[] = [];
  let total = -1;
  let capped = false;
  for (let offset = 0; offset === 0 || offset < total; offset += 7) {
    const r = await searchTeam(client, q, { limit: 7, offset });
    keys.push(...r.hits.map((h) => h.key.slice('vizier:'.length)));
    total = r.total;
    capped = capped || r.totalCapped;
  }
  return { keys, total, capped };
}

const expected = (keep: (s: Session) => boolean) => {
  const keys = sessions
    .filter(keep)
    .sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''))
    .map((s) => s.id);
  return { keys, total: keys.length, capped: false };
};

describeWithPostgres('team lists by filters alone', (pgs) => {
  describe('a store of schema 9, upgraded', () => {
    let url: string;
    let setup: pg.Client;
    let upgraded: TeamConnection;
    const before = new Map<string, Awaited<ReturnType<typeof listed>>>();

    beforeAll(async () => {
      // As the previous app left it: versions 1 to 9, the sessions pushed (a push writes nothing of schema 10).
      url = await pgs.freshDatabase();
      setup = new pg.Client({ connectionString: url });
      await setup.connect();
      await storeAtVersion(setup, 9);
      const report = await pushSessions({
        client: setup,
        machine: 'docks',
        keys: sessions.map((s) => s.key),
        loader: memoryLoader(sessions),
        env: {},
        sources: false,
      });
      if (report.pushed.length !== sessions.length) throw new Error(`pushed ${report.pushed.length} of ${sessions.length}`);
      for (const [q] of CASES) before.set(q, await listed(setup, q));
      upgraded = await connectUrl(url);
    }, 60_000);

    afterAll(async () => {
      await upgraded?.close();
      await setup?.end();
    });

    it('lists what the reference selects, newest first, with exact totals, before the upgrade', () => {
      for (const [q, keep] of CASES) expect(before.get(q), q).toEqual(expected(keep));
    });

    it('is upgraded to the current schema with a trigram index on the project', async () => {
      expect(upgraded.schema).toEqual({ before: 9, after: TEAM_SCHEMA_VERSION });
      const { rows } = await setup.query<{ name: string; def: string }>(
        `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = 'session_vault' AND indexname LIKE '%\\_trgm' ORDER BY 1`,
      );
      expect(rows.map((r) => r.name)).toEqual(['sessions_idents_trgm', 'sessions_project_trgm']);
      for (const r of rows) expect(r.def, r.name).toContain('gin_trgm_ops');
    });

    it('lists the same sessions in the same order with the same totals once upgraded', async () => {
      for (const [q, keep] of CASES) expect(await listed(upgraded.client, q), q).toEqual(expected(keep));
    });

    it('compresses the search text of sessions pushed after the upgrade with lz4 (where the server has it), and finds a phrase in it', async () => {
      const words = Array.from({ length: 900 }, (_, i) => `tern${i % 97} gannet${(i * 7) % 89}`).join(' ');
      const long = (id: string) =>
        makeSession(id, { title: `Colony ${id}`, sourceFiles: [], messages: [textMessage('assistant', `${words} the rare petrel nests ${words}`)] });
      const after = await pushSessions({
        client: upgraded.client,
        machine: 'docks',
        keys: ['vizier:after'],
        loader: memoryLoader([long('after')]),
        env: {},
        sources: false,
      });
      expect(after.pushed).toEqual(['vizier:after']);
      const lz4 = (await setup.query<{ ok: boolean }>(`SELECT 'lz4' = ANY(enumvals) AS ok FROM pg_settings WHERE name = 'default_toast_compression'`)).rows[0]
        ?.ok;
      const { rows } = await setup.query<{ c: string | null }>(
        `SELECT pg_column_compression(tsv) AS c FROM session_vault.session_texts WHERE key = 'vizier:after' AND weight = 'C'`,
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.c).toBe(lz4 ? 'lz4' : 'pglz');
      const found = await searchTeam(upgraded.client, '"rare petrel nests"');
      expect(found.hits.map((h) => h.key).sort()).toEqual(['vizier:after']);
    });

    it('finds a project, by substring or whole, through its trigram index when sequential scans are off', async () => {
      await upgraded.client.query('BEGIN');
      try {
        await upgraded.client.query('SET LOCAL enable_seqscan = off');
        for (const [filter, index] of [
          [`project_name ILIKE '%harbor%' OR project_path ILIKE '%harbor%'`, 'sessions_project_trgm'],
          [`project_name ILIKE 'crane\\_50\\%' OR project_path ILIKE 'crane\\_50\\%'`, 'sessions_project_trgm'],
        ]) {
          const plan = (await upgraded.client.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT count(*) FROM session_vault.sessions WHERE ${filter}`)).rows
            .map((r) => r['QUERY PLAN'])
            .join('\n');
          expect(plan, filter).toContain(index);
        }
      } finally {
        await upgraded.client.query('ROLLBACK');
      }
    });
  });
});
