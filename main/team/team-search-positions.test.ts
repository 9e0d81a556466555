// A team store its admin gave a positional (RUM) index finds the same sessions, in the same order and with the same totals, as one with GIN only; and the app sees which it has.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { hasPositionalIndex } from './positional-index.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import type { TeamConnection } from './team-connection.ts';
import { searchTeam } from './team-search.ts';
import { searchIndexMethod, serverHasRum, STORE_KINDS, storeHolding } from './test-store-kinds.ts';

const sessions: Session[] = [
  makeSession('title', { title: 'Quay crane roster', sourceFiles: [] }),
  makeSession('prompt', { title: 'One', sourceFiles: [], messages: [textMessage('user', 'check the quay crane roster again')] }),
  makeSession('reply', { title: 'Two', sourceFiles: [], messages: [textMessage('assistant', 'the quay crane waits for the tide')] }),
  makeSession('apart', { title: 'Three', sourceFiles: [], messages: [textMessage('assistant', 'a crane stood on the quay, rosterless')] }),
  makeSession('none', { title: 'Four', sourceFiles: [], messages: [textMessage('assistant', 'nothing about it here')] }),
];

const QUERIES = ['"quay crane"', 'quay crane', 'crane -"quay crane"', '"crane roster"', 'crane', '"the quay"', '"tide quay"', 'roster*', '"quay crane" tide'];

describeWithPostgres('team search with and without a positional index', (pgs) => {
  const stores: Array<{ url: string; conn: TeamConnection }> = [];

  beforeAll(async () => {
    for (const kind of STORE_KINDS) {
      const { url, owner } = await storeHolding(pgs, kind, 'quay-box', sessions);
      stores.push({ url, conn: owner });
    }
  }, 60_000);

  afterAll(async () => {
    for (const s of stores) await s.conn.close();
  });

  it('has GIN in one store and RUM in the other where the server offers RUM (always in CI), and the app tells them apart', async () => {
    const rum = await serverHasRum(pgs.cluster().url);
    if (process.env.CI === 'true') expect(rum).toBe(true);
    const [gin, positional] = stores;
    expect(await searchIndexMethod(gin?.url ?? '')).toEqual(['gin']);
    expect(await searchIndexMethod(positional?.url ?? '')).toEqual([rum ? 'rum' : 'gin']);
    expect(await hasPositionalIndex(gin!.conn.client)).toBe(false);
    expect(await hasPositionalIndex(positional!.conn.client)).toBe(rum);
  });

  it('finds the same sessions in the same order, with the same totals and scores, in both', async () => {
    const seen = [];
    for (const { conn } of stores) {
      const out = [];
      for (const q of QUERIES) {
        const r = await searchTeam(conn.client, q);
        out.push({ q, keys: r.hits.map((h) => h.key), scores: r.hits.map((h) => h.score), total: r.total });
      }
      seen.push(out);
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]?.find((r) => r.q === '"quay crane"')).toMatchObject({ total: 3, keys: ['vizier:title', 'vizier:prompt', 'vizier:reply'] });
    expect(seen[0]?.find((r) => r.q === 'crane -"quay crane"')?.keys).toEqual(['vizier:apart']);
  });
});
