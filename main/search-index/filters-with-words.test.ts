// Filters combined with words: `model:opus deadlock` finds the Opus sessions that mention a deadlock, however the page is ranked.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionIndex } from './index-store.ts';
import { searchIndex } from './index-search.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';

const index = new SessionIndex(':memory:');
afterAll(() => index.close());

function add(id: string, model: string, text: string): void {
  const session = makeSession(id, { model: { provider: 'anthropic', name: model, parameters: {} }, messages: [textMessage('user', text)] });
  const { result, text: indexText } = readResult(session);
  index.put(`/roots/${id}.json`, 100, 1, session.key, result, indexText);
}

add('opus-lock', 'claude-opus-4-7', 'the writer thread hit a deadlock on close');
add('opus-other', 'claude-opus-4-1-20250805', 'renamed the parser module');
add('sonnet-lock', 'claude-sonnet-4-5-20250929', 'a deadlock between two workers');
add('codex-lock', 'gpt-5-codex', 'deadlock again');

const keys = (query: string, fullRankLimit?: number) =>
  searchIndex(index, query, { limit: 50, ...(fullRankLimit === undefined ? {} : { fullRankLimit }) })
    .hits.map((h) => h.key)
    .sort();

describe('a model filter with words', () => {
  it('matches any part of the model name, as model:opus means claude-opus-4-7', () => {
    expect(keys('model:opus')).toEqual(['vizier:opus-lock', 'vizier:opus-other']);
    expect(keys('model:OPUS')).toEqual(['vizier:opus-lock', 'vizier:opus-other']);
    expect(keys('model:sonnet-4')).toEqual(['vizier:sonnet-lock']);
    expect(keys('model:gpt-5')).toEqual(['vizier:codex-lock']);
  });

  it('combines with words: only the sessions of that model holding the word', () => {
    expect(keys('model:opus deadlock')).toEqual(['vizier:opus-lock']);
    expect(keys('deadlock model:opus')).toEqual(['vizier:opus-lock']);
    expect(keys('model:opus -deadlock')).toEqual(['vizier:opus-other']);
    // Past the full-ranking limit (titles and metadata ranked, the rest newest first) the filter holds as well.
    expect(keys('model:opus deadlock', 1)).toEqual(['vizier:opus-lock']);
  });

  it('passes over a stray mark with nothing to look up (`deadlock -`, `x = 2`), instead of finding nothing', () => {
    expect(keys('model:opus deadlock -')).toEqual(['vizier:opus-lock']);
    expect(keys('deadlock = between')).toEqual(['vizier:sonnet-lock']);
    expect(keys('"=>" deadlock again')).toEqual(['vizier:codex-lock']);
  });

  it('keeps a quoted name exact', () => {
    expect(keys('model:"claude-opus-4-7" deadlock')).toEqual(['vizier:opus-lock']);
    expect(keys('model:"opus" deadlock')).toEqual([]);
  });
});
