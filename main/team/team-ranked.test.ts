// Team search ranked by relevance, read in rank order: the title first, then prompts, then the rest, each newest first; every word held; the total counted up to a cap ("1,000+"); phrases checked page by page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import type { TeamConnection } from './team-connection.ts';
import { searchTeam } from './team-search.ts';
import { CHUNK_CHARS } from './team-text.ts';
import { STORE_KINDS, storeHolding } from './test-store-kinds.ts';

/** Queries whose pages, read in parts, must be slices of the whole answer: words, a phrase, a prefix, an identifier, a filter. */
const PAGED_QUERIES = [
  'heron',
  'heron egret',
  'grey heron',
  'heron -egret',
  '"the heron"',
  'heron*',
  'heronwatch',
  'machine:marsh heron',
  'heron after:2026-01-06',
  // A pasted sentence: every word a term (the local index once refused five).
  'where does the heron fish and the egret',
];

const filler = (n: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);
/** A session last active on day `day` of January 2026 (a later day is newer). */
const on = (day: number) => ({
  createdAt: `2026-01-${String(day).padStart(2, '0')}T09:00:00.000Z`,
  updatedAt: `2026-01-${String(day).padStart(2, '0')}T10:00:00.000Z`,
});

const sessions: Session[] = [
  makeSession('title-old', { ...on(1), title: 'Heron colony count', sourceFiles: [] }),
  makeSession('title-new', { ...on(5), title: 'Grey heron nests', sourceFiles: [] }),
  makeSession('prompt-old', { ...on(2), title: 'One', sourceFiles: [], messages: [textMessage('user', 'where does the heron fish, and the egret')] }),
  makeSession('prompt-new', { ...on(8), title: 'Two', sourceFiles: [], messages: [textMessage('user', 'count each heron by the pond')] }),
  // The word in every one of its six reply chunks, but older: it ranks after a newer session holding it once.
  makeSession('rest-many', {
    ...on(3),
    title: 'Three',
    sourceFiles: [],
    messages: Array.from({ length: 6 }, () => textMessage('assistant', `heron ${filler(CHUNK_CHARS - 10)}`)),
  }),
  makeSession('rest-new', { ...on(9), title: 'Four', sourceFiles: [], messages: [textMessage('assistant', 'a heron stood still; an egret too')] }),
  makeSession('rest-apart', {
    ...on(7),
    title: 'Five',
    sourceFiles: [],
    messages: [textMessage('assistant', 'the heron, far from any egret near the grey pond')],
  }),
  // Its identifiers alone hold the word (a path): it ranks with the rest.
  makeSession('ident-only', {
    ...on(6),
    title: 'Six',
    sourceFiles: [],
    messages: [textMessage('assistant', 'moved src/heronwatch/tally.py into place')],
  }),
  makeSession('none', { ...on(10), title: 'Seven', sourceFiles: [], messages: [textMessage('assistant', 'only gulls here')] }),
];

describeWithPostgres('team search in rank order', (pgs) => {
  for (const kind of STORE_KINDS)
    describe(`on a store ${kind.name}`, () => {
      let owner: TeamConnection;

      beforeAll(async () => {
        ({ owner } = await storeHolding(pgs, kind, 'marsh', sessions));
      }, 30_000);

      afterAll(async () => {
        await owner?.close();
      });

      const ids = async (q: string, page: Parameters<typeof searchTeam>[2] = {}) =>
        (await searchTeam(owner.client, q, page)).hits.map((h) => h.key.slice('vizier:'.length));

      it('ranks the title first, then prompts, then the rest, each newest first, however often the word repeats', async () => {
        const r = await searchTeam(owner.client, 'heron');
        expect(r.hits.map((h) => [h.key.slice('vizier:'.length), h.score])).toEqual([
          ['title-new', 1],
          ['title-old', 1],
          ['prompt-new', 0.4],
          ['prompt-old', 0.4],
          ['rest-new', 0.1],
          ['rest-apart', 0.1],
          ['ident-only', 0.1],
          ['rest-many', 0.1],
        ]);
        expect(r).toMatchObject({ total: 8, totalCapped: false });
      });

      it('needs every word, and ranks a session by the best place any of them is in', async () => {
        expect(await ids('heron egret')).toEqual(['prompt-old', 'rest-new', 'rest-apart']);
        expect(await ids('grey heron')).toEqual(['title-new', 'rest-apart']);
        expect(await ids('heron -egret')).toEqual(['title-new', 'title-old', 'prompt-new', 'ident-only', 'rest-many']);
      });

      it('counts up to the cap and says more match, exactly below it, and pages past it', async () => {
        expect(await searchTeam(owner.client, 'heron', { offset: 20 })).toMatchObject({ hits: [], total: 8, totalCapped: false });
        expect(await searchTeam(owner.client, 'heron', { limit: 2, countUpTo: 3 })).toMatchObject({ total: 3, totalCapped: true });
        expect(await searchTeam(owner.client, 'heron', { limit: 2, countUpTo: 8 })).toMatchObject({ total: 8, totalCapped: false });
        expect(await searchTeam(owner.client, 'heron', { limit: 2, countUpTo: null })).toMatchObject({ total: 8, totalCapped: false });
        // A page past the cap: its rows, in order, and a total of at least its end.
        const deep = await searchTeam(owner.client, 'heron', { limit: 2, offset: 4, countUpTo: 3 });
        expect(deep.hits.map((h) => h.key.slice('vizier:'.length))).toEqual(['rest-new', 'rest-apart']);
        expect(deep).toMatchObject({ total: 6, totalCapped: true });
        const all = await ids('heron');
        const paged: string[] = [];
        for (let offset = 0; offset < all.length; offset += 3) paged.push(...(await ids('heron', { limit: 3, offset, countUpTo: 2 })));
        expect(paged).toEqual(all);
      });

      it('checks a phrase on the candidates in page order and stops there: the same sessions, page by page', async () => {
        const phrase = '"heron stood"';
        expect(await ids(phrase)).toEqual(['rest-new']);
        expect(await ids('"grey heron"')).toEqual(['title-new']);
        const whole = await searchTeam(owner.client, '"the heron"', { countUpTo: null });
        expect(whole.hits.map((h) => h.key.slice('vizier:'.length))).toEqual(['prompt-old', 'rest-apart']);
        const many = await ids('"lorem ipsum"');
        expect(many).toEqual(['rest-many']);
        const first = await searchTeam(owner.client, '"heron fish"', { limit: 1, countUpTo: 1 });
        expect(first.hits.map((h) => h.key.slice('vizier:'.length))).toEqual(['prompt-old']);
        expect(first).toMatchObject({ total: 1, totalCapped: false });
      });

      /** Each page (from the start, and a short one past the first hit) of `q` read with `options` is that slice of `whole`. */
      async function expectPages(q: string, whole: Awaited<ReturnType<typeof searchTeam>>, options: Parameters<typeof searchTeam>[2], named: string) {
        for (const [offset, limit] of [
          [0, 50],
          [1, 2],
        ] as const) {
          const part = await searchTeam(owner.client, q, { ...options, offset, limit });
          expect(
            part.hits.map((h) => [h.key, h.score]),
            `${named} offset ${offset}`,
          ).toEqual(whole.hits.slice(offset, offset + limit).map((h) => [h.key, h.score]));
          // (A page past the end has the total too on the ranked read; a RUM store's phrase, read as before, says 0 there.)
          if (part.hits.length) expect(part.total, named).toBe(whole.total);
        }
      }

      it('finds the same pages when the newest sessions looked up one by one are few and the rest come through the indexes', async () => {
        for (const q of [...PAGED_QUERIES, '"heron stood"']) {
          const whole = await searchTeam(owner.client, q);
          for (const window of [1, 3]) await expectPages(q, whole, { window }, `${q} window ${window}`);
        }
      });

      it('finds the same pages when only some places look the newest sessions up one by one (the words estimated too rare for the title or the prompts)', async () => {
        // Only the rest looks the window up (an identifier substring would fill it), or the prompts and the rest (titles rare).
        const estimates = [
          { share: 1, wordShare: 0, titleShare: 0, commonIdent: true, readWhole: [] },
          { share: 1, wordShare: 1, titleShare: 0, commonIdent: false, readWhole: [] },
        ];
        for (const q of PAGED_QUERIES) {
          const whole = await searchTeam(owner.client, q, { estimate: null });
          for (const estimate of estimates)
            for (const window of [undefined, 1, 3])
              await expectPages(
                q,
                whole,
                { estimate, ...(window === undefined ? {} : { window }) },
                `${q} titles ${estimate.titleShare} words ${estimate.wordShare} window ${window}`,
              );
        }
      });

      it('keeps other orders and filters as they were', async () => {
        expect(await ids('heron sort:date')).toEqual([
          'rest-new',
          'prompt-new',
          'rest-apart',
          'ident-only',
          'title-new',
          'rest-many',
          'prompt-old',
          'title-old',
        ]);
        expect(await ids('heron after:2026-01-06')).toEqual(['prompt-new', 'rest-new', 'rest-apart', 'ident-only']);
        expect(await ids('machine:marsh heron', { limit: 3 })).toEqual(['title-new', 'title-old', 'prompt-new']);
        expect(await ids('machine:elsewhere heron')).toEqual([]);
      });
    });
});
