// The palette's fuzzy matching: letters in order, closer matches first, recent first among equals, and a bounded amount of work.
import { defaultFilter } from 'cmdk';
import { describe, expect, it } from 'vitest';
import { hasLettersInOrder, rankFuzzy } from './palette-match.ts';

const titles = ['Fix the flaky login test', 'Refactor config loader', 'flaky', 'Add dark mode', 'Write release notes'];

describe('rankFuzzy', () => {
  it('finds a title from a few of its letters in order, the closest match first', () => {
    expect(rankFuzzy(titles, 'flky', (t) => t, defaultFilter, 5)).toEqual(['flaky', 'Fix the flaky login test']);
    expect(rankFuzzy(titles, 'rcl', (t) => t, defaultFilter, 5)).toContain('Refactor config loader');
    expect(rankFuzzy(titles, 'zzz', (t) => t, defaultFilter, 5)).toEqual([]);
  });

  it('keeps the list order without a query, and caps what it returns', () => {
    expect(rankFuzzy(titles, '  ', (t) => t, defaultFilter, 2)).toEqual(titles.slice(0, 2));
    expect(rankFuzzy(titles, 'e', (t) => t, defaultFilter, 2)).toHaveLength(2);
  });

  it('scores at most the first candidates it is allowed, in list order', () => {
    let scored = 0;
    const many = Array.from({ length: 10_000 }, (_, i) => `session ${i}`);
    const found = rankFuzzy(
      many,
      's',
      (t) => t,
      (v, s) => (scored++, defaultFilter(v, s)),
      20,
      500,
    );
    expect(scored).toBe(500);
    expect(found).toHaveLength(20);
  });
});

describe('hasLettersInOrder', () => {
  it('needs every letter, in order, ignoring spaces', () => {
    expect(hasLettersInOrder('refactor config', 'rf cf')).toBe(true);
    expect(hasLettersInOrder('refactor config', 'cfr')).toBe(false);
  });
});
