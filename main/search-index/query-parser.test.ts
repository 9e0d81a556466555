// The search syntax: what people type becomes the terms and filters they meant.
import { describe, expect, it } from 'vitest';
import { parseQuery } from './query-parser.ts';

describe('parseQuery', () => {
  it('splits words, exact phrases, prefixes and exclusions', () => {
    const q = parseQuery('merge "tie break" pars* -flaky');
    expect(q.terms).toEqual([
      { kind: 'word', text: 'merge', negated: false },
      { kind: 'phrase', text: 'tie break', negated: false },
      { kind: 'prefix', text: 'pars', negated: false },
      { kind: 'word', text: 'flaky', negated: true },
    ]);
    expect(q.filters).toEqual({ tags: [] });
  });

  it('reads every filter', () => {
    const q = parseQuery(
      'source:codex project:orbit branch:fix/* status:closed outcome:accepted model:gpt tag:bug tag:"needs review" is:starred is:kept has:summary after:2026-01 before:2026-02-15 tokens>1000 cost<=2.5',
    );
    expect(q.terms).toEqual([]);
    expect(q.filters).toMatchObject({
      source: 'codex',
      project: 'orbit',
      branch: 'fix/*',
      status: 'closed',
      outcome: 'accepted',
      model: 'gpt',
      tags: ['bug', 'needs review'],
      starred: true,
      kept: true,
      hasSummary: true,
      afterMs: Date.UTC(2026, 0, 1),
      beforeMs: Date.UTC(2026, 1, 16) - 1,
      minTokens: 1001,
      maxCost: 2.5,
    });
    expect(q.problems).toEqual([]);
  });

  it('understands 10k and sort: and keeps unknown prefixes such as URLs as words', () => {
    const q = parseQuery('tokens>=10k sort:date https://example.com/x');
    expect(q.filters.minTokens).toBe(10_000);
    expect(q.sort).toBe('date');
    expect(q.terms).toEqual([{ kind: 'word', text: 'https://example.com/x', negated: false }]);
  });

  it('reads every sort order, and says so when it does not know one', () => {
    for (const key of ['relevance', 'date', 'updated', 'created', 'size', 'tokens', 'cost']) expect(parseQuery(`merge sort:${key}`).sort).toBe(key);
    const q = parseQuery('sort:Size merge');
    expect(q.sort).toBe('size');
    const wrong = parseQuery('sort:newest merge');
    expect(wrong.sort).toBeNull();
    expect(wrong.terms).toEqual([{ kind: 'word', text: 'merge', negated: false }]);
    expect(wrong.problems[0]).toContain('sort:updated');
  });

  it('marks quoted project, branch and model values as whole values', () => {
    const q = parseQuery('project:"my app" branch:main model:"gpt-5"');
    expect(q.filters).toMatchObject({ project: 'my app', branch: 'main', model: 'gpt-5', exact: { project: true, model: true } });
    expect(q.filters.exact?.branch).toBeUndefined();
    // The last one given wins, with its own quoting.
    expect(parseQuery('project:"my app" project:orbit').filters.exact?.project).toBe(false);
  });

  it('says what is wrong with a filter it cannot use', () => {
    // Cursor is an agent the app reads now: an editor it does not read stands in for an unknown source.
    const q = parseQuery('source:notepad after:yesterdayish is:pinned');
    expect(q.problems).toHaveLength(3);
    expect(q.problems[0]).toContain('notepad');
    expect(q.filters.source).toBeUndefined();
  });

  it('reads a span back from now as a date: after:7d is the past week, before:24h older than a day', () => {
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    const q = parseQuery('after:7d before:24h merge', now);
    expect(q.filters.afterMs).toBe(now - 7 * 86_400_000);
    expect(q.filters.beforeMs).toBe(now - 86_400_000);
    expect(parseQuery('after:2W', now).filters.afterMs).toBe(now - 14 * 86_400_000);
    expect(q.terms).toEqual([{ kind: 'word', text: 'merge', negated: false }]);
    const wrong = parseQuery('after:7y', now);
    expect(wrong.filters.afterMs).toBeUndefined();
    expect(wrong.problems[0]).toContain('7d');
  });

  it('says which filter does not exist, and still searches its text', () => {
    const q = parseQuery('frobnicate:yes flaky');
    expect(q.problems).toEqual([expect.stringContaining('"frobnicate:" is not a filter, so frobnicate:yes was searched as text (filters: source:')]);
    expect(q.terms.map((t) => t.text)).toEqual(['frobnicate:yes', 'flaky']);
    expect(parseQuery('color:"dark blue"').problems[0]).toContain('"color:" is not a filter');
  });

  it('says a comparison needs a number, and drops it instead of searching it', () => {
    const q = parseQuery('tokens>lots cost<= bug');
    expect(q.problems).toEqual([
      '"tokens>lots": "lots" is not a number (for example tokens>100000 or tokens>50k).',
      '"cost<=": a number must follow (for example cost>2.5).',
    ]);
    expect(q.terms.map((t) => t.text)).toEqual(['bug']);
    expect(q.filters.minTokens).toBeUndefined();
  });

  it('leaves colons that are no filter alone: URLs, C++ scopes, Windows drives', () => {
    expect(parseQuery('https://example.com/x std::vector C:\\temp').problems).toEqual([]);
  });

  it('says a filter cannot be excluded instead of searching "-model:opus" as text', () => {
    const q = parseQuery('deadlock -model:opus -project:"my app" -source:codex -tokens>10k -has:summary');
    expect(q.terms).toEqual([{ kind: 'word', text: 'deadlock', negated: false }]);
    expect(q.filters).toEqual({ tags: [], hasSummary: false });
    expect(q.problems).toEqual([
      '"-model:opus": a filter cannot be excluded (only -has:summary), so it was left out of the search.',
      '"-project:"my app"": a filter cannot be excluded (only -has:summary), so it was left out of the search.',
      '"-source:codex": a filter cannot be excluded (only -has:summary), so it was left out of the search.',
      '"-tokens>10k": a filter cannot be excluded (only -has:summary), so it was left out of the search.',
    ]);
    // A minus before a colon that is no filter still excludes the text.
    expect(parseQuery('-std::vector').terms).toEqual([{ kind: 'word', text: 'std::vector', negated: true }]);
  });

  it('reads NOT as the minus before the next term, and says there is no OR instead of matching both words', () => {
    const not = parseQuery('deadlock NOT café AND "lock order"');
    expect(not.terms).toEqual([
      { kind: 'word', text: 'deadlock', negated: false },
      { kind: 'word', text: 'café', negated: true },
      { kind: 'phrase', text: 'lock order', negated: false },
    ]);
    expect(not.problems).toEqual([]);
    const or = parseQuery('deadlock OR livelock');
    expect(or.terms.map((t) => t.text)).toEqual(['deadlock', 'livelock']);
    expect(or.problems).toEqual(['"OR": there is no OR, every word must appear; search for each word on its own.']);
  });

  it('leaves out a term with no letter or digit too short to look up, and says so (a lone minus, being typed, silently)', () => {
    const q = parseQuery('fix - deadlock = "=>" ===');
    expect(q.terms.map((t) => t.text)).toEqual(['fix', 'deadlock', '===']);
    expect(q.problems).toEqual([
      '"=" has no letter or digit to search for, so it was left out.',
      '"=>" has no letter or digit to search for, so it was left out.',
    ]);
    // With no word beside them they stay, and match nothing.
    expect(parseQuery('->').terms).toEqual([{ kind: 'word', text: '->', negated: false }]);
  });

  it('treats an unclosed quote as a phrase to the end', () => {
    expect(parseQuery('"unclosed phrase').terms).toEqual([{ kind: 'phrase', text: 'unclosed phrase', negated: false }]);
  });
});
