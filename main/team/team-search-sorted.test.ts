// Team search with words in a sort: order (tokens, size, cost, created, date): the same sessions as by relevance, in exactly the order asked for, page by page, however few sessions are checked one by one before the indexes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import type { TeamConnection } from './team-connection.ts';
import { searchTeam } from './team-search.ts';
import { CHUNK_CHARS } from './team-text.ts';
import { STORE_KINDS, storeHolding } from './test-store-kinds.ts';

const filler = (n: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);
const day = (d: number, hour = 9) => `2026-02-${String(d).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

/** A session with these tokens (null: none recorded), cost, creation day and last update day. */
function session(id: string, tokens: number | null, usd: number | null, created: number, updated: number | null, over: Partial<Session>): Session {
  return makeSession(id, {
    title: `Untitled ${id}`,
    sourceFiles: [],
    createdAt: day(created),
    updatedAt: updated === null ? null : day(updated, 10),
    usage: tokens === null ? null : { input: tokens, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    cost: usd === null ? null : { usd, estimated: false },
    ...over,
  });
}

// Ties on purpose (tokens, cost, creation), sessions with none, and one holding the word in many chunks.
const sessions: Session[] = [
  session('alpha', 500, 1.5, 1, 1, { title: 'Heron colony count' }),
  session('bravo', 500, null, 3, 4, { messages: [textMessage('user', 'count each heron by the pond')] }),
  session('charlie', null, 0.2, 2, null, { messages: [textMessage('assistant', 'a heron stood still; an egret too')] }),
  session('delta', 9000, 3, 5, 9, { messages: [textMessage('assistant', 'the heron, far from any egret near the pond')] }),
  session('echo', 100, 0.2, 4, 4, { messages: [textMessage('assistant', 'moved src/heronwatch/tally.py into place')] }),
  session('foxtrot', 20000, 9, 6, 6, { messages: [textMessage('assistant', 'only gulls here')] }),
  session('golf', 7000, 1.5, 2, 3, {
    messages: Array.from({ length: 5 }, () => textMessage('assistant', `heron ${filler(CHUNK_CHARS - 10)}`)),
  }),
  session('hotel', null, null, 7, 8, { messages: [textMessage('user', 'the heron stood by the egret at the pond')] }),
  session('india', 300, 0.5, 8, 8, { messages: [textMessage('user', 'an egret alone at the pond')] }),
];

interface Row {
  key: string;
  created_at: Date | null;
  activity: Date | null;
  size_bytes: number;
  total_tokens: string | null;
  cost_usd: number | null;
}

/** Descending with nulls last, then by key (one machine): the order each `sort:` asks for. */
const descending = (value: (r: Row) => number | null) => (a: Row, b: Row) => {
  const x = value(a);
  const y = value(b);
  if (x !== y) {
    if (x === null) return 1;
    if (y === null) return -1;
    return y - x;
  }
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
};
const time = (d: Date | null) => (d ? d.getTime() : null);
const ORDERS: Record<string, (a: Row, b: Row) => number> = {
  tokens: descending((r) => (r.total_tokens === null ? null : Number(r.total_tokens))),
  size: descending((r) => r.size_bytes),
  cost: descending((r) => r.cost_usd),
  created: descending((r) => time(r.created_at)),
  date: descending((r) => time(r.activity)),
  updated: descending((r) => time(r.activity)),
};

const QUERIES = [
  'heron',
  'heron egret',
  'heron -egret',
  '"heron stood"',
  'heronwatch',
  'heron*',
  'pond -"heron stood"',
  'machine:marsh heron',
  'heron after:2026-02-04',
];

describeWithPostgres('team search in a sort: order with words', (pgs) => {
  for (const kind of STORE_KINDS)
    describe(`on a store ${kind.name}`, () => {
      let owner: TeamConnection;
      let rows: Row[];

      beforeAll(async () => {
        ({ owner } = await storeHolding(pgs, kind, 'marsh', sessions));
        rows = (
          await owner.client.query<Row>(
            `SELECT key, created_at, coalesce(updated_at, created_at) AS activity, size_bytes, total_tokens, cost_usd FROM session_vault.sessions`,
          )
        ).rows;
      }, 30_000);

      afterAll(async () => {
        await owner?.close();
      });

      const keys = (hits: Array<{ key: string }>) => hits.map((h) => h.key.slice('vizier:'.length));

      it('lists the sessions relevance finds, in exactly the order asked for, each with its relevance score', async () => {
        for (const q of QUERIES) {
          const relevant = await searchTeam(owner.client, q, { countUpTo: null });
          expect(relevant.hits.length, q).toBeGreaterThan(0);
          const scores = new Map(relevant.hits.map((h) => [h.key, h.score]));
          for (const [sort, order] of Object.entries(ORDERS)) {
            const found = await searchTeam(owner.client, `${q} sort:${sort}`);
            const expected = rows.filter((r) => scores.has(r.key)).sort(order);
            expect(
              found.hits.map((h) => h.key),
              `${q} sort:${sort}`,
            ).toEqual(expected.map((r) => r.key));
            expect(
              found.hits.map((h) => h.score),
              `${q} sort:${sort} scores`,
            ).toEqual(found.hits.map((h) => scores.get(h.key)));
            expect(found.total, `${q} sort:${sort}`).toBe(relevant.total);
          }
        }
      });

      it('orders as asked with ties broken by key and sessions without the value last', async () => {
        expect(keys((await searchTeam(owner.client, 'heron sort:tokens')).hits)).toEqual(['delta', 'golf', 'alpha', 'bravo', 'echo', 'charlie', 'hotel']);
        expect(keys((await searchTeam(owner.client, 'heron sort:cost')).hits)).toEqual(['delta', 'alpha', 'golf', 'charlie', 'echo', 'bravo', 'hotel']);
        expect(keys((await searchTeam(owner.client, 'egret sort:created')).hits)).toEqual(['india', 'hotel', 'delta', 'charlie']);
      });

      it('finds the same pages when few sessions are checked one by one and the rest come through the indexes, with the count capped', async () => {
        for (const q of QUERIES)
          for (const sort of ['tokens', 'date', 'cost']) {
            const query = `${q} sort:${sort}`;
            const whole = await searchTeam(owner.client, query, { countUpTo: null });
            for (const window of [1, 3])
              for (const [offset, limit] of [
                [0, 50],
                [1, 2],
                [3, 3],
              ] as const) {
                const part = await searchTeam(owner.client, query, { window, offset, limit });
                expect(
                  part.hits.map((h) => [h.key, h.score]),
                  `${query} window ${window} offset ${offset}`,
                ).toEqual(whole.hits.slice(offset, offset + limit).map((h) => [h.key, h.score]));
              }
          }
        // Past the cap the total is a lower bound, and the pages go on in order.
        expect(await searchTeam(owner.client, 'heron sort:tokens', { limit: 2, countUpTo: 3 })).toMatchObject({ total: 3, totalCapped: true });
        expect(await searchTeam(owner.client, 'heron sort:tokens', { limit: 2, countUpTo: 7 })).toMatchObject({ total: 7, totalCapped: false });
        const deep = await searchTeam(owner.client, 'heron sort:tokens', { limit: 2, offset: 4, countUpTo: 3, window: 2 });
        expect(keys(deep.hits)).toEqual(['echo', 'charlie']);
        expect(deep).toMatchObject({ total: 6, totalCapped: true });
      });

      it('finds the same pages whichever way the estimate of the matches steers the read (window or none, negated words read whole or looked up)', async () => {
        const queries = ['heron -egret', 'pond -heron', 'pond -egret -gulls', 'heron -"heron stood"', 'heron -heronwatch', 'heronwatch', 'heron egret'];
        const steers = [
          { share: 1, commonIdent: false, readWhole: [0, 1, 2] },
          { share: 0, commonIdent: false, readWhole: [0, 1, 2] },
          { share: 0, commonIdent: false, readWhole: [] },
          { share: 0, commonIdent: true, readWhole: [1, 2] },
        ];
        for (const q of queries)
          for (const sort of ['', ' sort:tokens', ' sort:date']) {
            const query = `${q}${sort}`;
            const whole = await searchTeam(owner.client, query, { countUpTo: null, estimate: null });
            expect(whole.hits.length, query).toBeGreaterThan(0);
            for (const estimate of steers)
              for (const [offset, limit] of [
                [0, 50],
                [1, 2],
              ] as const) {
                const part = await searchTeam(owner.client, query, { estimate, offset, limit, countUpTo: 3 });
                expect(
                  part.hits.map((h) => [h.key, h.score]),
                  `${query} ${JSON.stringify(estimate)} offset ${offset}`,
                ).toEqual(whole.hits.slice(offset, offset + limit).map((h) => [h.key, h.score]));
              }
          }
      });
    });
});
