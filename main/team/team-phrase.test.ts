// Phrase search on the team store, with GIN only and with a positional (RUM) index its admin added: words in order only, found in any chunk of a session (not only its first), ranked by where, and left out with a minus.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import type { TeamConnection } from './team-connection.ts';
import { searchTeam } from './team-search.ts';
import { CHUNK_CHARS } from './team-text.ts';
import { searchIndexMethod, serverHasRum, STORE_KINDS, storeHolding } from './test-store-kinds.ts';

const filler = (n: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);

const sessions: Session[] = [
  makeSession('in-title', { title: 'Harbor crane schedule', sourceFiles: [] }),
  makeSession('in-prompt', { title: 'One', sourceFiles: [], messages: [textMessage('user', 'please fix the harbor crane logs')] }),
  makeSession('in-reply', { title: 'Two', sourceFiles: [], messages: [textMessage('assistant', 'the harbor crane is idle')] }),
  makeSession('apart', { title: 'Three', sourceFiles: [], messages: [textMessage('assistant', 'the crane near the harbor')] }),
  // Its replies fill more than one chunk; the phrase is in the last one only.
  makeSession('late', {
    title: 'Four',
    sourceFiles: [],
    messages: [
      textMessage('assistant', `harbor ${filler(CHUNK_CHARS)} crane`),
      textMessage('assistant', filler(CHUNK_CHARS)),
      textMessage('assistant', 'at last the harbor crane moved'),
    ],
  }),
];

describeWithPostgres('team phrase search', (pgs) => {
  for (const kind of STORE_KINDS)
    describe(`on a store ${kind.name}`, () => {
      let owner: TeamConnection;
      let url: string;

      beforeAll(async () => {
        ({ url, owner } = await storeHolding(pgs, kind, 'docks', sessions));
      }, 30_000);

      afterAll(async () => {
        await owner?.close();
      });

      const ids = async (q: string) => (await searchTeam(owner.client, q)).hits.map((h) => h.key.slice('vizier:'.length));

      it('has the full-text index of its kind', async () => {
        if (process.env.CI === 'true') expect(await serverHasRum(pgs.cluster().url)).toBe(true);
        expect(await searchIndexMethod(url)).toEqual([await kind.expected(pgs)]);
      });

      it('finds the words in order only, in any chunk, the title first, then prompts, then the rest', async () => {
        const found = await ids('"harbor crane"');
        expect(found.slice(0, 2)).toEqual(['in-title', 'in-prompt']);
        expect(found.slice(2).sort()).toEqual(['in-reply', 'late']);
        expect(await ids('harbor crane')).toContain('apart');
        expect((await searchTeam(owner.client, '"harbor crane"')).total).toBe(4);
      });

      it('leaves out the sessions a negated phrase matches, and only those', async () => {
        expect((await ids('crane -"harbor crane"')).sort()).toEqual(['apart']);
      });
    });
});
