// Ranking and paging over the index: ranked matches first, the rest newest first, counts that hold on every page.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { SessionIndex } from './index-store.ts';
import { CHUNK_BYTES } from './body-chunks.ts';
import { searchIndex, type SearchOptions } from './index-search.ts';
import { BIG_BODY_BYTES } from './stored-snippet.ts';
import { locateMatch } from './snippet.ts';
import { parseQuery } from './query-parser.ts';
import { buildMatch } from './search.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';

let index: SessionIndex;

function add(session: Session): void {
  const { result, text } = readResult(session);
  index.put(`/roots/${session.id}.json`, 100, 1, session.key, result, text);
}

const keys = (query: string, options: SearchOptions = {}) => searchIndex(index, query, options).hits.map((h) => h.key.replace('vizier:', ''));

beforeEach(() => {
  index = new SessionIndex(':memory:');
  add(makeSession('titled', { title: 'Merge the parser', updatedAt: '2026-01-01T00:00:00Z', messages: [textMessage('user', 'hello')] }));
  add(makeSession('dense', { title: 'Work', updatedAt: '2026-01-02T00:00:00Z', messages: [textMessage('user', 'merge merge merge, then merge')] }));
  add(
    makeSession('recent', {
      title: 'Other work',
      updatedAt: '2026-01-05T00:00:00Z',
      messages: [textMessage('user', `merge once in a long message ${'about something else entirely '.repeat(40)}`)],
    }),
  );
  add(makeSession('ident', { title: 'Tools', updatedAt: '2026-01-09T00:00:00Z', messages: [textMessage('assistant', 'called autoMergeResolver here')] }));
});
afterEach(() => index.close());

describe('searchIndex ranking', () => {
  it('ranks word matches by bm25, title first, then substring-only matches newest first', () => {
    expect(keys('merge')).toEqual(['titled', 'dense', 'recent', 'ident']);
    const ident = searchIndex(index, 'merge').hits.find((h) => h.key === 'vizier:ident');
    expect(ident?.score).toBeNull();
    expect(ident?.snippet).toContainEqual({ text: 'Merge', hit: true });
  });

  it('ranks only title and metadata matches when the words are in more sessions than the limit, the rest newest first', () => {
    expect(keys('merge', { fullRankLimit: 2 })).toEqual(['titled', 'ident', 'recent', 'dense']);
    expect(keys('merge', { fullRankLimit: 4 })).toEqual(['titled', 'dense', 'recent', 'ident']);
  });

  it('pages across ranked and unranked matches without gaps or repeats, with the total on every page', () => {
    for (const fullRankLimit of [2, 100]) {
      const whole = keys('merge', { fullRankLimit });
      const pages = [0, 1, 2, 3].map((offset) => searchIndex(index, 'merge', { limit: 1, offset, fullRankLimit }));
      expect(pages.map((p) => p.total)).toEqual([4, 4, 4, 4]);
      expect(pages.flatMap((p) => p.hits.map((h) => h.key.replace('vizier:', '')))).toEqual(whole);
    }
    const past = searchIndex(index, 'merge', { limit: 5, offset: 10 });
    expect(past.hits).toEqual([]);
    expect(past.total).toBe(4);
  });

  it('ranks exact phrases in one pass, with exclusions and filters', () => {
    expect(keys('"merge merge"')).toEqual(['dense']);
    expect(keys('"merge the" -hello')).toEqual([]);
    expect(keys('"merge once" before:2026-01-03')).toEqual([]);
    expect(searchIndex(index, '"merge once" after:2026-01-03').total).toBe(1);
  });

  it('points at the message of a hit deep in a long transcript, with the hit marked in its snippet', () => {
    const messages = Array.from({ length: 60 }, (_, i) =>
      textMessage(
        i % 2 ? 'assistant' : 'user',
        `${'filler words to skip over '.repeat(30)} message ${i}${i === 41 ? ' calls the ZebraCorn helper, then zebracorn again' : ''}`,
      ),
    );
    const long = makeSession('long', { title: 'Long one', messages });
    add(long);
    for (const query of ['zebracorn', 'zebra*', 'ebraCor', 'long']) {
      const hit = searchIndex(index, query).hits.find((h) => h.key === 'vizier:long');
      const { text } = readResult(long);
      expect(hit && { messageIndex: hit.messageIndex, snippet: hit.snippet }, query).toEqual(locateMatch(text, parseQuery(query).terms));
    }
    expect(searchIndex(index, 'zebracorn').hits[0]?.messageIndex).toBe(41);
  });

  it("shows a very long transcript's title hit without reading its body, and its body hit otherwise", () => {
    const filler = 'nothing to see in this part of the transcript '.repeat(Math.ceil(BIG_BODY_BYTES / 40));
    add(makeSession('huge', { title: 'Quokka migration', messages: [textMessage('user', filler), textMessage('assistant', 'the quokka and the wombat')] }));
    const byTitle = searchIndex(index, 'quokka').hits.find((h) => h.key === 'vizier:huge');
    expect(byTitle?.messageIndex).toBeNull();
    expect(byTitle?.snippet).toContainEqual({ text: 'Quokka', hit: true });
    const byBody = searchIndex(index, 'wombat').hits.find((h) => h.key === 'vizier:huge');
    expect(byBody?.messageIndex).toBe(1);
    expect(byBody?.snippet).toContainEqual({ text: 'wombat', hit: true });
  });

  it('reads only the pieces of a long transcript around its match, with the snippet the whole body would give', () => {
    const filler = 'nothing to see in this part of the transcript '.repeat(Math.ceil(BIG_BODY_BYTES / 40));
    const session = makeSession('early', {
      title: 'Quagga notes',
      messages: [
        textMessage('user', 'start'),
        textMessage('assistant', 'the okapi appears early'),
        textMessage('user', filler),
        textMessage('assistant', 'okapi again, and the narwhal'),
        textMessage('user', filler),
        textMessage('assistant', 'a late TapirHelper call'),
        textMessage('user', filler),
      ],
    });
    add(session);
    const total = Math.ceil(new TextEncoder().encode(readResult(session).text.body).length / CHUNK_BYTES);
    let piecesRead = 0;
    const statement = index.statement.bind(index);
    index.statement = (text: string) => {
      const st = statement(text);
      if (!text.includes('first_message AS firstMessage')) return st;
      return {
        all: (...args: Parameters<typeof st.all>) => {
          const rows = st.all(...args);
          piecesRead += rows.length;
          return rows;
        },
      } as typeof st;
    };
    const cases: Array<[string, number, number]> = [
      // query, the message it opens at, at most this many pieces read
      ['okapi', 1, 2],
      ['tapirhelp', 5, 3],
      ['okapi narwhal', 3, 3],
    ];
    for (const [query, message, most] of cases) {
      piecesRead = 0;
      const hit = searchIndex(index, query).hits.find((h) => h.key === 'vizier:early');
      expect(hit && { messageIndex: hit.messageIndex, snippet: hit.snippet }, query).toEqual(locateMatch(readResult(session).text, parseQuery(query).terms));
      expect(hit?.messageIndex, query).toBe(message);
      expect(piecesRead, query).toBeLessThanOrEqual(most);
    }
    expect(total).toBeGreaterThan(20);
    // A word that is only in the title reads no piece at all.
    piecesRead = 0;
    expect(searchIndex(index, 'quagga').hits.map((h) => [h.key, h.messageIndex])).toEqual([['vizier:early', null]]);
    expect(piecesRead).toBe(0);
  });

  it('sorts by a field instead of relevance when asked, and reads no text for a listing', () => {
    expect(keys('merge', { sort: 'date' })).toEqual(['ident', 'recent', 'dense', 'titled']);
    const listing = searchIndex(index, 'sort:created');
    expect(listing.total).toBe(4);
    expect(listing.hits.every((h) => h.snippet.length === 0 && h.messageIndex === null)).toBe(true);
  });
});

describe('searchIndex query paths', () => {
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString();

  it('needs every term in each file, each found as a word or inside an identifier, however many files identifiers bring in', () => {
    add(makeSession('both-words', { messages: [textMessage('user', 'the zorp helper, plain and simple')] }));
    add(makeSession('ident-and-word', { messages: [textMessage('user', 'callZorpHelper twice, plain')] }));
    add(makeSession('ident-only', { messages: [textMessage('user', 'callZorpHelper only')] }));
    add(makeSession('word-only', { messages: [textMessage('user', 'plain words')] }));
    const found = (query: string) => new Set(searchIndex(index, query, { limit: 1000 }).hits.map((h) => h.key.replace('vizier:', '')));
    // A few files found through identifiers: each is looked up for the other terms one by one.
    expect(found('zorp plain')).toEqual(new Set(['both-words', 'ident-and-word']));
    expect(found('plain zorp')).toEqual(new Set(['both-words', 'ident-and-word']));
    expect(found('zorp -plain')).toEqual(new Set(['ident-only']));
    // Hundreds of them: each term's files are gathered once instead.
    for (let i = 0; i < 310; i++)
      add(makeSession(`bulk${i}`, { messages: [textMessage('user', `callZorpHelper number ${i}${i % 100 === 0 ? ' plain' : ''}`)] }));
    expect(found('zorp plain')).toEqual(new Set(['both-words', 'ident-and-word', 'bulk0', 'bulk100', 'bulk200', 'bulk300']));
    expect(searchIndex(index, 'zorp plain').total).toBe(6);
  });

  it('finds a session by a sentence of many words (each found as a word or inside an identifier), where 5 words made SQLite refuse the query', () => {
    add(
      makeSession('sentence', {
        messages: [textMessage('user', 'please fix the flaky retry test in the parser, then run the whole build again with callZorpHelper')],
      }),
    );
    const sentence = 'please fix the flaky retry test in the parser then run the whole build again';
    expect(keys(sentence)).toEqual(['sentence']);
    expect(keys(`${sentence} zorp`)).toEqual(['sentence']);
    expect(keys(`${sentence} missing`)).toEqual([]);
    expect(searchIndex(index, sentence, { sort: 'date' }).hits.map((h) => h.key)).toEqual(['vizier:sentence']);
    // Terms found only inside identifiers, a prefix, and exclusions, among many.
    expect(keys('fix flaky retry parser build zorp zorphelp* callzorp -missing1 -missing2 -missing3 -missing4 -missing5 -missing6')).toEqual(['sentence']);
    expect(keys('fix flaky retry parser build zorp -whole')).toEqual([]);
    // Hundreds of files found through an identifier: each term's files are gathered instead of probed one by one.
    for (let i = 0; i < 310; i++)
      add(makeSession(`bulk${i}`, { messages: [textMessage('user', `callZorpHelper ${i % 100 === 0 ? 'fix flaky retry parser build' : 'idle'}`)] }));
    const many = new Set(searchIndex(index, 'fix flaky retry parser build zorp', { limit: 1000 }).hits.map((h) => h.key.replace('vizier:', '')));
    expect(many).toEqual(new Set(['sentence', 'bulk0', 'bulk100', 'bulk200', 'bulk300']));
    expect(searchIndex(index, 'fix flaky retry parser build zorp').total).toBe(5);
  });

  it('never looks a prefix up once per file: its expansion to every word it starts is gathered once', () => {
    // Two common prefixes found through a few identifiers took 472 ms on the bench corpus when each file was
    // looked up in the word index on its own (each lookup expands the prefix again); gathered once, 38 ms.
    const probes = (query: string) =>
      (
        buildMatch(parseQuery(query))
          ?.ctes.join(' ')
          .match(/AND rowid = u\.rid/g) ?? []
      ).length;
    expect(probes('belj* quak*')).toBe(0);
    expect(probes('merge quak*')).toBe(1);
    expect(probes('merge parser')).toBe(2);
    add(makeSession('prefixes', { messages: [textMessage('user', 'quokkaHelper and belvedere')] }));
    expect(keys('belv* quok*')).toEqual(['prefixes']);
    expect(keys('quok* merg*')).toEqual([]);
  });

  it('lists the unranked matches newest first, whether most files match (read along the time index) or few (sorted)', () => {
    for (let i = 0; i < 40; i++) {
      const words = [i < 30 ? 'common' : '', i % 13 === 0 ? 'rare' : ''].join(' ');
      add(makeSession(`s${i}`, { updatedAt: day((i * 7) % 40), messages: [textMessage('user', `text ${words}`)] }));
    }
    for (const [word, count] of [
      ['common', 30],
      ['rare', 4],
    ] as const) {
      // A limit of 0 ranks nothing in the body, and no title has the word: every match is in the newest-first part.
      const all = searchIndex(index, word, { limit: 100, fullRankLimit: 0 });
      expect(all.total).toBe(count);
      const times = all.hits.map((h) => Number(h.key.replace('vizier:s', ''))).map((i) => (i * 7) % 40);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const paged = [0, 1, 2].flatMap((p) => searchIndex(index, word, { limit: 3, offset: p * 3, fullRankLimit: 0 }).hits.map((h) => h.key));
      expect(paged).toEqual(all.hits.slice(0, 9).map((h) => h.key));
    }
  });

  it('ranks a phrase whose words are in more files than the limit by titles and metadata, the other matches newest first', () => {
    add(makeSession('title-phrase', { title: 'Fix the merge conflict', updatedAt: day(1), messages: [textMessage('user', 'hello')] }));
    add(makeSession('older', { updatedAt: day(2), messages: [textMessage('user', 'a merge conflict again')] }));
    add(makeSession('newer', { updatedAt: day(30), messages: [textMessage('user', 'one more merge conflict')] }));
    add(makeSession('apart', { updatedAt: day(40), messages: [textMessage('user', 'merge, then no conflict')] }));
    const past = searchIndex(index, '"merge conflict"', { fullRankLimit: 1 });
    expect(past.hits.map((h) => [h.key.replace('vizier:', ''), h.score === null])).toEqual([
      ['title-phrase', false],
      ['newer', true],
      ['older', true],
    ]);
    expect(past.total).toBe(3);
    const within = searchIndex(index, '"merge conflict"', { fullRankLimit: 100 });
    expect(within.hits.every((h) => h.score !== null)).toBe(true);
    expect(within.hits[0]?.key).toBe('vizier:title-phrase');
    expect(within.total).toBe(3);
  });
});

describe('words of a tool call input', () => {
  it('finds the word after a line break or a tab in a tool input, and keeps an escaped backslash', () => {
    add(
      makeSession('written', {
        title: 'Writes',
        messages: [
          textMessage('assistant', 'writing the notes', [
            { type: 'tool_call', callId: 'w1', name: 'Write', input: { file_path: 'C:\\new\\notes.md', content: 'first line\nsecondword here\ttabbedword' } },
          ]),
        ],
      }),
    );
    expect(keys('secondword')).toEqual(['written']);
    expect(keys('tabbedword')).toEqual(['written']);
    expect(keys('nsecondword')).toEqual([]);
    expect(keys('ttabbedword')).toEqual([]);
    // `C:\new` is a backslash then "new", not a line break then "ew".
    expect(keys('new')).toEqual(['written']);
  });
});
