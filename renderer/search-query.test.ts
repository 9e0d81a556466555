// The search box's text: vault chips in query syntax, facet filters toggled in and out, and the words to mark.
import { describe, expect, it } from 'vitest';
import { hasFilter, highlightTerms, searchQueryFor, toggleFilter } from './search-query.ts';

describe('search query', () => {
  it('adds the vault chips to the typed text, quoting a tag with spaces', () => {
    expect(searchQueryFor('  flaky test ', { starred: true, kept: true, tag: 'needs review' })).toBe('flaky test is:starred is:kept tag:"needs review"');
    expect(searchQueryFor('', { starred: false, kept: false, tag: 'release' })).toBe('tag:release');
  });

  it('toggles a facet filter in and out without touching the rest, quoted values included', () => {
    expect(toggleFilter('flaky', 'source:codex')).toBe('flaky source:codex');
    expect(toggleFilter('flaky source:codex "exact words"', 'source:codex')).toBe('flaky "exact words"');
    expect(toggleFilter('x project:"my app"', 'project:"my app"')).toBe('x');
    expect(toggleFilter('', 'branch:main')).toBe('branch:main');
    expect(hasFilter('x SOURCE:codex', 'source:codex')).toBe(true);
    expect(hasFilter('source:codexx', 'source:codex')).toBe(false);
  });

  it('marks what the snippet matched and the query words, never its filters or exclusions', () => {
    const terms = highlightTerms('refact* "merge order" -draft source:codex tokens>100', [
      { text: '… the ', hit: false },
      { text: 'Refactoring', hit: true },
    ]);
    expect(terms).toEqual(['refactoring', 'refact', 'merge order']);
  });
});
