// "Share list…" offers what the list shows: the search's results (every page of them), not the sessions whose titles match the words.
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../../shared/search-api.ts';
import type { AppClient } from '../../transport/client.ts';
import { shareListKeys, shownCount, type ShareListState } from './share-list-keys.ts';
import { summary } from '../../test-fixtures.ts';

const result = (key: string, title = 'A session'): SearchResult => ({ summary: summary({ key, title }), snippet: [], messageIndex: null, score: 0 });

function state(over: Partial<ShareListState>): ShareListState {
  return {
    sessions: [],
    filter: '',
    listSort: 'updated',
    search: null,
    listFilters: { kept: false, starred: false, tag: null },
    searchSort: 'relevance',
    ...over,
  };
}

describe('shareListKeys', () => {
  it('takes every result of the search, fetching the pages not yet loaded, and leaves unreadable files out', async () => {
    const loaded = Array.from({ length: 100 }, (_, i) => result(`codex:${i}`));
    const rest = Array.from({ length: 50 }, (_, i) => result(`codex:${100 + i}`));
    const asked: Array<{ offset?: number; limit?: number }> = [];
    const client = {
      searchSessions: async (input: { offset?: number; limit?: number }) => {
        asked.push(input);
        return { results: rest, total: 150, tookMs: 1, problems: [] };
      },
    } as unknown as AppClient;
    // Titles hold "the" in none of them: a title filter would have offered nothing.
    const s = state({
      sessions: [summary({ key: 'vizier:x', title: 'the unrelated one', unreadable: null })],
      filter: 'deadlock',
      search: { text: 'deadlock', results: loaded, total: 150, tookMs: 1, problems: [], loading: false, loadingMore: false, error: null },
    });
    expect(shownCount(s)).toBe(150);
    const keys = await shareListKeys(client, s);
    expect(keys).toHaveLength(150);
    expect(keys).not.toContain('vizier:x');
    expect(asked.map((a) => [a.offset, a.limit])).toEqual([[100, 1000]]);
  });

  it('takes every readable session when the box is empty', async () => {
    const s = state({ sessions: [summary({ key: 'a:1' }), summary({ key: 'a:2', unreadable: { code: 'empty_file', message: 'File is empty.' } })] });
    expect(shownCount(s)).toBe(1);
    expect(await shareListKeys({} as AppClient, s)).toEqual(['a:1']);
  });
});
