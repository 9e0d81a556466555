// The team store's search documents: a store of schema 5 upgraded in place finds, ranks and counts as one pushed with this app does, and a push makes a session's documents again.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { TEAM_SCHEMA_VERSION } from './migrations.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import { SEARCH_DOCS } from './search-docs.ts';
import type { TeamConnection } from './team-connection.ts';
import { searchTeam } from './team-search.ts';
import { CHUNK_CHARS } from './team-text.ts';
import { accountConnection, connectUrl, memoryLoader, storeAtVersion, writeAsBefore } from './test-team.ts';

const filler = (n: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);

const sessions: Session[] = [
  makeSession('title', { title: 'Osprey nesting survey', sourceFiles: [] }),
  makeSession('prompt', { title: 'One', sourceFiles: [], messages: [textMessage('user', 'count the osprey nests on the cliff')] }),
  makeSession('reply', {
    title: 'Two',
    sourceFiles: [],
    messages: [
      textMessage('user', 'what did you see'),
      textMessage('assistant', `an osprey and two gulls near the nests; ${Array.from({ length: 60 }, (_, i) => `src/colony_${i}/nest_count.py`).join(' ')}`),
      textMessage('assistant', 'logged in src/osprey_tracker.py'),
    ],
  }),
  // Replies of six chunks, osprey in each; kittiwake only in the sixth.
  makeSession('long', {
    title: 'Three',
    sourceFiles: [],
    messages: [
      ...Array.from({ length: 5 }, () => textMessage('assistant', `osprey ${filler(CHUNK_CHARS - 10)}`)),
      textMessage('assistant', 'at the end a kittiwake and an osprey'),
    ],
  }),
  makeSession('none', { title: 'Four', sourceFiles: [], messages: [textMessage('assistant', 'gulls only')] }),
];

// Identifier substrings (found through the session rows' trigrams, with their activity): one late in a long list, one left out.
const QUERIES = [
  'osprey',
  'nests',
  'osp*',
  '"osprey nests"',
  'osprey -nests',
  'kittiwake',
  'gulls osprey',
  'machine:field-box osprey',
  '',
  'colony_59/nest',
  'rey_track',
  'osprey -rey_track',
];

/** What a search finds: each hit's score by key (the order among equal scores goes by activity, which the stores keep differently), and the total. */
async function found(client: pg.ClientBase, q: string): Promise<{ q: string; scores: Record<string, number | null>; total: number }> {
  const r = await searchTeam(client, q);
  return { q, scores: Object.fromEntries(r.hits.map((h) => [h.key.slice('vizier:'.length), h.score])), total: r.total };
}

describeWithPostgres('team search documents', (pgs) => {
  describe('a store of schema 5', () => {
    let upgraded: TeamConnection;
    let pushed: TeamConnection;

    beforeAll(async () => {
      // As the previous app left it: versions 1 to 5, the sessions as its push wrote them.
      const oldUrl = await pgs.freshDatabase();
      const setup = new pg.Client({ connectionString: oldUrl });
      await setup.connect();
      try {
        await storeAtVersion(setup, 5);
        await writeAsBefore(setup, 'field-box', (await setup.query<{ u: string }>('SELECT current_user AS u')).rows[0]?.u ?? '', sessions);
      } finally {
        await setup.end();
      }
      upgraded = await connectUrl(oldUrl);
      pushed = await connectUrl(await pgs.freshDatabase());
      await pushSessions({
        client: pushed.client,
        machine: 'field-box',
        keys: sessions.map((s) => s.key),
        loader: memoryLoader(sessions),
        env: {},
        sources: false,
      });
    }, 60_000);

    afterAll(async () => {
      await upgraded?.close();
      await pushed?.close();
    });

    it('is upgraded in place on the first connect, each session given its documents', async () => {
      expect(upgraded.schema).toEqual({ before: 5, after: TEAM_SCHEMA_VERSION });
      const docs = await upgraded.client.query<{ weight: string; seq: number }>(
        `SELECT weight, seq FROM ${SEARCH_DOCS} WHERE key = 'vizier:long' ORDER BY weight, seq`,
      );
      expect(docs.rows.map((r) => `${r.weight}${r.seq}`)).toEqual(['A0', 'C0', 'C1', 'C2', 'C3', 'C4', 'C5']);
    });

    it('finds, ranks and counts every query as a store pushed with this app', async () => {
      const before = [];
      const after = [];
      for (const q of QUERIES) {
        before.push(await found(upgraded.client, q));
        after.push(await found(pushed.client, q));
      }
      expect(before).toEqual(after);
      expect(after.find((r) => r.q === 'osprey')).toEqual({ q: 'osprey', scores: { title: 1, prompt: 0.4, reply: 0.1, long: 0.1 }, total: 4 });
      expect(after.find((r) => r.q === 'kittiwake')?.scores).toEqual({ long: 0.1 });
      expect(after.find((r) => r.q === '"osprey nests"')?.scores).toEqual({ prompt: 0.4 });
      expect(after.find((r) => r.q === '')?.total).toBe(sessions.length);
      expect(after.find((r) => r.q === 'colony_59/nest')?.scores).toEqual({ reply: 0.1 });
      expect(after.find((r) => r.q === 'osprey -rey_track')?.scores).toEqual({ title: 1, prompt: 0.4, long: 0.1 });
    });
  });

  it('makes a session’s documents again at each push: words it lost are not found, new ones are, newest first by its new time', async () => {
    const url = await pgs.freshDatabase();
    const owner = await connectUrl(url);
    const { conn: member } = await accountConnection(owner, url, 'rita', 'member');
    try {
      const first = makeSession('tern', { title: 'Tern colony', sourceFiles: [], messages: [textMessage('user', 'ring the albatross chicks')] });
      const other = makeSession('skua', { title: 'Skua colony watch', sourceFiles: [], updatedAt: '2026-03-01T10:00:00.000Z' });
      const push = (list: Session[]) =>
        pushSessions({ client: member.client, machine: 'rita-box', keys: list.map((s) => s.key), loader: memoryLoader(list), env: {}, sources: false });
      await push([first, other]);
      expect((await searchTeam(member.client, 'albatross')).hits.map((h) => h.key)).toEqual([first.key]);
      expect((await searchTeam(member.client, '')).hits.map((h) => h.key)).toEqual([other.key, first.key]);
      // Both titles say colony: equal scores, the most recent first.
      expect((await searchTeam(member.client, 'colony')).hits.map((h) => h.key)).toEqual([other.key, first.key]);

      const grown = { ...first, updatedAt: '2026-04-01T10:00:00.000Z', messages: [textMessage('user', 'ring the pelican chicks')] };
      await push([grown]);
      expect(await searchTeam(member.client, 'albatross')).toMatchObject({ hits: [], total: 0 });
      expect((await searchTeam(member.client, 'pelican')).hits.map((h) => h.key)).toEqual([first.key]);
      expect((await searchTeam(member.client, '')).hits.map((h) => h.key)).toEqual([first.key, other.key]);
      // Its title's chunk was kept as it was (same hash), and its document took the session's new time.
      expect((await searchTeam(member.client, 'colony')).hits.map((h) => h.key)).toEqual([first.key, other.key]);
    } finally {
      await member.close();
      await owner.close();
    }
  });
});
