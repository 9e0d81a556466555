// The search box's text: vault chips in query syntax, facet filters toggled in and out, and the words to mark.
import { describe, expect, it } from 'vitest';
import { dateOf, hasFilter, highlightTerms, searchQueryFor, toggleFilter, withDate } from './search-query.ts';

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

  it('replaces a filter the query can hold only one of, and adds tags and vault filters up', () => {
    // Two sources would leave the parser with the last one while both chips looked pressed.
    expect(toggleFilter('flaky source:codex', 'source:gemini')).toBe('flaky source:gemini');
    expect(toggleFilter('x after:7d before:2026-02-01', 'after:30d')).toBe('x before:2026-02-01 after:30d');
    // A least number of tokens replaces the least, not the most.
    expect(toggleFilter('tokens>=10k tokens<5m', 'tokens>=100k')).toBe('tokens<5m tokens>=100k');
    expect(toggleFilter('tag:bug is:kept', 'tag:release')).toBe('tag:bug is:kept tag:release');
    expect(toggleFilter('tag:bug', 'is:starred')).toBe('tag:bug is:starred');
    // An excluded word that looks like a filter is the user's own, left alone.
    expect(toggleFilter('-source:x', 'source:codex')).toBe('-source:x source:codex');
  });

  it('sets, reads and clears the date range the way the date fields show it', () => {
    expect(withDate('merge after:7d', 'after', '2026-01-31')).toBe('merge after:2026-01-31');
    expect(withDate('merge after:2026-01-31', 'before', '2026-03-01')).toBe('merge after:2026-01-31 before:2026-03-01');
    expect(withDate('merge before:2026-03-01', 'before', '')).toBe('merge');
    expect(dateOf('merge after:2026-01-31', 'after')).toBe('2026-01-31');
    // A span back from now has no one day to show.
    expect(dateOf('merge after:7d', 'after')).toBe('');
    expect(dateOf('merge', 'before')).toBe('');
  });

  it('marks what the snippet matched and the query words, never its filters or exclusions', () => {
    const terms = highlightTerms('refact* "merge order" -draft source:codex tokens>100', [
      { text: '… the ', hit: false },
      { text: 'Refactoring', hit: true },
    ]);
    expect(terms).toEqual(['refactoring', 'refact', 'merge order']);
  });
});
