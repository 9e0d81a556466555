// How a query meets the vault's summaries: -has:summary parses, terms match words, prefixes and phrases, exclusions hold, snippets mark hits.
import { describe, expect, it } from 'vitest';
import { parseQuery } from './query-parser.ts';
import { summaryMatches, summarySnippet, withSummaryKeys, type VaultSummaryTexts } from './summary-match.ts';

const summaries = (texts: Record<string, string>): VaultSummaryTexts => ({
  keys: () => Object.keys(texts),
  texts: () => Object.entries(texts),
});

const vault = summaries({
  'codex:a': 'Moved the index to SQLite.\nUse FTS5 triggers\nsearch',
  'claude-code:b': 'Fixed the login form.\nKeep cookies httpOnly\nauth',
});

describe('summary matching', () => {
  it('reads has:summary and -has:summary, and adds the summarized keys only when asked', () => {
    expect(parseQuery('has:summary').filters.hasSummary).toBe(true);
    const without = parseQuery('-has:summary login');
    expect(without.filters.hasSummary).toBe(false);
    expect(without.terms).toEqual([{ kind: 'word', text: 'login', negated: false }]);
    expect(withSummaryKeys(without, vault).filters.summarizedKeys).toEqual(['codex:a', 'claude-code:b']);
    expect(withSummaryKeys(parseQuery('login'), vault).filters.summarizedKeys).toBeUndefined();
  });

  it('finds sessions whose summary holds every word, prefix and phrase, case-insensitively, and none it excludes', () => {
    expect(summaryMatches(vault, parseQuery('sqlite'))).toEqual(['codex:a']);
    expect(summaryMatches(vault, parseQuery('FTS5 index'))).toEqual(['codex:a']);
    expect(summaryMatches(vault, parseQuery('cook*'))).toEqual(['claude-code:b']);
    expect(summaryMatches(vault, parseQuery('"login form"'))).toEqual(['claude-code:b']);
    expect(summaryMatches(vault, parseQuery('"form login"'))).toEqual([]);
    expect(summaryMatches(vault, parseQuery('the -auth'))).toEqual(['codex:a']);
    // Filters alone (no words) leave summaries to the filters.
    expect(summaryMatches(vault, parseQuery('source:codex'))).toEqual([]);
    expect(summaryMatches(undefined, parseQuery('sqlite'))).toEqual([]);
  });

  it('makes a snippet from the summary with the hits marked', () => {
    const snippet = summarySnippet(vault, 'codex:a', parseQuery('sqlite').terms);
    expect(snippet?.[0]).toEqual({ text: 'Summary: ', hit: false });
    expect(snippet?.filter((p) => p.hit).map((p) => p.text)).toEqual(['SQLite']);
    expect(summarySnippet(vault, 'codex:a', parseQuery('cookies').terms)).toBeNull();
  });
});
