// Search as the list uses it: every sort order, listing with filters only, paging, and facet counts that match their filters.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session, SessionSummary } from '../../shared/session.ts';
import type { SearchSort } from '../../shared/search-api.ts';
import { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { listWithIndex, searchSessions } from './search-service.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';

let index: SessionIndex;
let catalogue: IndexedCatalogue;
const annotations = new Map<string, { starred: boolean; tags: string[] }>();
const decorate = (s: SessionSummary): SessionSummary => {
  const a = annotations.get(s.key);
  return a ? { ...s, ...a } : s;
};

function add(session: Session, size = 100): void {
  const { result, text } = readResult(session);
  catalogue.put(`/roots/${session.id}.json`, size, 1, result.ok ? { ...result, text } : result);
}

const usage = (total: number) => ({ input: total, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
const search = (query: string, more: { sort?: SearchSort; limit?: number; offset?: number; facets?: boolean } = {}) =>
  searchSessions(
    catalogue,
    { query, limit: more.limit ?? 50, offset: more.offset ?? 0, sort: more.sort, facets: more.facets },
    decorate,
    (key) => annotations.get(key) ?? null,
  );
const keys = (query: string, sort?: SearchSort) => search(query, { sort }).results.map((r) => r.summary.id);

beforeEach(() => {
  index = new SessionIndex(':memory:');
  catalogue = new IndexedCatalogue(index);
  annotations.clear();
  const app = { path: '/home/dev/my app', name: 'my app', headCommit: null };
  add(
    makeSession('a', {
      project: { ...app, branch: 'main' },
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-05T00:00:00Z',
      usage: usage(5000),
      cost: { usd: 2, estimated: false },
      childKeys: ['vizier:d'],
      messages: [textMessage('user', 'merge the parser branch')],
    }),
    300,
  );
  add(
    makeSession('b', {
      format: 'codex',
      key: 'codex:b',
      project: { ...app, branch: 'feature/x' },
      createdAt: '2026-01-02T00:00:00Z',
      updatedAt: '2026-01-04T00:00:00Z',
      model: { provider: 'anthropic', name: 'claude-sonnet-4-5-20250929', parameters: {} },
      cost: { usd: 0.5, estimated: true },
      messages: [textMessage('user', 'merge again')],
    }),
    900,
  );
  add(
    makeSession('c', {
      project: { path: '/work/my app 2', name: 'my app 2', branch: 'main', headCommit: null },
      createdAt: null,
      updatedAt: '2026-01-06T00:00:00Z',
      model: { provider: 'openai', name: 'gpt-5', parameters: {} },
      status: 'active',
      usage: usage(100),
      messages: [textMessage('user', 'write the readme')],
    }),
    100,
  );
  add(makeSession('d', { parentKey: 'vizier:a', updatedAt: '2026-01-07T00:00:00Z', messages: [textMessage('assistant', 'sub-agent merge work')] }), 50);
  add(makeSession('e', { project: { path: null, name: 'orbit', branch: null, headCommit: null }, updatedAt: '2026-01-03T00:00:00Z' }), 200);
  add(makeSession('f', { project: { path: '/x/orbit', name: 'orbit', branch: 'main', headCommit: null }, updatedAt: '2026-01-02T00:00:00Z' }), 400);
  annotations.set('vizier:a', { starred: false, tags: ['UI work', 'bug'] });
  annotations.set('codex:b', { starred: true, tags: ['Bug'] });
});
afterEach(() => index.close());

describe('searchSessions sorting', () => {
  it('sorts by every key, largest or newest first, sessions without the value last', () => {
    expect(keys('', 'date')).toEqual(['c', 'a', 'b', 'e', 'f']);
    expect(keys('', 'updated')).toEqual(['c', 'a', 'b', 'e', 'f']);
    expect(keys('', 'created')).toEqual(['e', 'f', 'b', 'a', 'c']);
    expect(keys('', 'size')).toEqual(['b', 'f', 'a', 'e', 'c']);
    expect(keys('', 'tokens')).toEqual(['a', 'c', 'b', 'e', 'f']);
    expect(keys('', 'cost')).toEqual(['a', 'b', 'c', 'e', 'f']);
  });

  it('takes the order from the query too, and ranks by date when there are no words to rank by', () => {
    expect(keys('sort:size')).toEqual(keys('', 'size'));
    expect(keys('sort:cost merge')).toEqual(['a', 'b', 'd']);
    expect(keys('', 'relevance')).toEqual(keys('', 'date'));
    expect(search('sort:biggest').problems[0]).toContain('sort:size');
  });
});

describe('searchSessions listing', () => {
  it('lists every session the filters allow when there are no words, sub-agents under their parent', () => {
    const all = search('');
    expect(all.total).toBe(5);
    expect(all.results.find((r) => r.summary.id === 'a')?.summary.childCount).toBe(1);
    expect(all.results.every((r) => r.snippet.length === 0)).toBe(true);
    expect(keys('source:codex')).toEqual(['b']);
    expect(search('-readme').total).toBe(4);
    // Words find a sub-agent's own text.
    expect(keys('merge', 'date')).toEqual(['d', 'a', 'b']);
  });

  it('pages without gaps or repeats, with the same total on every page', () => {
    const pages = [0, 2, 4].map((offset) => search('', { sort: 'size', limit: 2, offset }));
    expect(pages.map((p) => p.total)).toEqual([5, 5, 5]);
    expect(pages.flatMap((p) => p.results.map((r) => r.summary.id))).toEqual(keys('', 'size'));
    expect(search('merge', { limit: 1, offset: 1 }).total).toBe(3);
  });

  it('applies what only the vault knows (stars, tags) inside the count', () => {
    expect(search('is:starred').total).toBe(1);
    expect(keys('tag:bug', 'date')).toEqual(['a', 'b']);
    expect(keys('tag:bug merge', 'cost')).toEqual(['a', 'b']);
    expect(search('tag:"ui work"').total).toBe(1);
  });

  it('tells a quoted project, model or branch (the whole value) from a bare one (part of it)', () => {
    expect(keys('project:"my app"', 'date')).toEqual(['a', 'b']);
    expect(keys('project:"/home/dev/my app"', 'date')).toEqual(['a', 'b']);
    expect(keys('project:"my app" merge', 'date')).toEqual(['a', 'b']);
    expect(search('project:app').total).toBe(3);
    expect(keys('model:"claude-sonnet-4-5"', 'date')).toEqual(['a', 'e', 'f']);
    expect(search('model:claude-sonnet-4-5').total).toBe(4);
    expect(keys('branch:"MAIN"', 'date')).toEqual(['c', 'a', 'f']);
  });
});

const RANGES = ['date', 'tokens', 'cost', 'summary'];

describe('searchSessions facets', () => {
  it('counts each facet over every match, most common first, with a filter selecting exactly that many', () => {
    for (const query of ['', 'merge', 'sort:size -readme', 'tag:bug']) {
      const page = search(query, { facets: true, limit: 1 });
      expect(page.facets).toBeDefined();
      for (const [name, values] of Object.entries(page.facets ?? {}) as Array<[string, Array<{ count: number; filter: string }>]>) {
        const counts = values.map((v) => v.count);
        // Ranges keep their own order (the past day, then the past week, …).
        if (!RANGES.includes(name)) expect(counts, name).toEqual([...counts].sort((x, y) => y - x));
        for (const v of values) expect(search(`${query} ${v.filter}`).total, `${query} ${v.filter}`).toBe(v.count);
      }
    }
  });

  it('names projects as people see them and quotes values with spaces', () => {
    const facets = search('', { facets: true }).facets;
    expect(facets?.project).toEqual(
      [
        { value: 'my app', count: 2, filter: 'project:"/home/dev/my app"' },
        { value: 'my app 2', count: 1, filter: 'project:"/work/my app 2"' },
        // Two projects shown as orbit: the one with a path is told apart by it.
        { value: '/x/orbit', count: 1, filter: 'project:"/x/orbit"' },
        // Known only by name, so its filter also finds the other project named orbit.
        { value: 'orbit', count: 2, filter: 'project:"orbit"' },
      ].sort((x, y) => y.count - x.count || x.value.localeCompare(y.value)),
    );
    expect(facets?.source).toEqual([
      { value: 'vizier', count: 4, filter: 'source:vizier' },
      { value: 'codex', count: 1, filter: 'source:codex' },
    ]);
    // Tags compare case-insensitively, so Bug and bug are one value.
    expect(facets?.tag.map((v) => [v.value.toLowerCase(), v.count, v.filter.toLowerCase()])).toEqual([
      ['bug', 2, 'tag:bug'],
      ['ui work', 1, 'tag:"ui work"'],
    ]);
    expect(facets?.model.map((v) => [v.value, v.count])).toEqual([
      ['claude-sonnet-4-5', 3],
      ['claude-sonnet-4-5-20250929', 1],
      ['gpt-5', 1],
    ]);
    expect(search('').facets).toBeUndefined();
  });

  it('offers ranges of date, tokens and cost, and summarized sessions, each counted as its filter finds them', () => {
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    add(
      makeSession('recent', { updatedAt: ago(2), usage: usage(250_000), cost: { usd: 12, estimated: false }, messages: [textMessage('user', 'merge today')] }),
    );
    add(
      makeSession('week', {
        updatedAt: ago(3 * 24),
        usage: usage(20_000),
        outcome: { status: 'accepted', summary: 'Merged.', commitSha: null },
        messages: [textMessage('user', 'merge this week')],
      }),
    );
    add(
      makeSession('month', {
        updatedAt: ago(20 * 24),
        usage: usage(2_000_000),
        cost: { usd: 1.5, estimated: true },
        messages: [textMessage('user', 'merge this month')],
      }),
    );
    const facets = search('merge', { facets: true }).facets;
    const of = (name: 'date' | 'tokens' | 'cost' | 'summary') => facets?.[name].map((v) => [v.value, v.count, v.filter]);
    expect(of('date')?.slice(0, 3)).toEqual([
      ['Past 24 hours', 1, 'after:24h'],
      ['Past 7 days', 2, 'after:7d'],
      ['Past 30 days', 3, 'after:30d'],
    ]);
    // The past year also holds the fixture's January 2026 sessions for as long as they are less than a year old.
    expect(of('date')?.[3]?.slice(0, 1)).toEqual(['Past year']);
    expect(of('tokens')).toEqual([
      ['10k+', 3, 'tokens>=10k'],
      ['100k+', 2, 'tokens>=100k'],
      ['1M+', 1, 'tokens>=1m'],
    ]);
    expect(of('cost')).toEqual([
      ['$1+', 3, 'cost>=1'],
      ['$10+', 1, 'cost>=10'],
    ]);
    expect(of('summary')).toEqual([['Has a summary', 1, 'has:summary']]);
    for (const name of RANGES) for (const v of facets?.[name as 'date'] ?? []) expect(search(`merge ${v.filter}`).total, v.filter).toBe(v.count);
  });
});

describe('listSessions', () => {
  const list = (query: Parameters<typeof listWithIndex>[1]) => listWithIndex(catalogue, query, decorate, (key) => annotations.get(key) ?? null);

  it('lists newest first with sub-agents under their parent, and every row when asked for children', () => {
    expect(list({}).sessions.map((s) => s.id)).toEqual(['c', 'a', 'b', 'e', 'f']);
    expect(list({ includeChildren: true }).sessions.map((s) => s.id)).toEqual(['d', 'c', 'a', 'b', 'e', 'f']);
    expect(list({ limit: 2 })).toMatchObject({ total: 5, sessions: [{ id: 'c' }, { id: 'a', childCount: 1, tags: ['UI work', 'bug'] }] });
    expect(list({ starred: true }).sessions.map((s) => s.id)).toEqual(['b']);
  });

  it('with keys, gives back only those rows and the parent a changed sub-agent is listed under', () => {
    expect(list({ keys: ['vizier:d'] }).sessions.map((s) => s.id)).toEqual(['a']);
    expect(list({ keys: ['vizier:d'], includeChildren: true }).sessions.map((s) => s.id)).toEqual(['d', 'a']);
    expect(list({ keys: ['vizier:c', 'codex:b'] }).sessions.map((s) => s.id)).toEqual(['c', 'b']);
    // The other filters still apply: a changed session that no longer passes them comes back absent.
    expect(list({ keys: ['vizier:c', 'codex:b'], starred: true }).sessions.map((s) => s.id)).toEqual(['b']);
    expect(list({ keys: ['vizier:gone'] }).sessions).toEqual([]);
  });
});
