// Find in session: counting, stepping and marking matches the way the find bar shows them.
import { describe, expect, it } from 'vitest';
import { anyOf, buildFindIndex, currentMatch, findCountLabel, findMatches, hasMatch, splitMatches, stepFind, stepMatch } from './find.ts';
import { call, msg, result, text } from '../../test-sessions.ts';
import { buildTranscript } from './transcript.ts';

describe('find in session', () => {
  const { rows } = buildTranscript([
    msg('user', [text('Retry the request; retry again')]),
    msg('assistant', [call('c1', 'Bash', { command: 'npm test -- RETRY' })]),
    msg('user', [result('c1', 'no retry needed')]),
    msg('assistant', [text('All good')]),
  ]);
  const index = buildFindIndex(rows);

  it('finds text, arguments and outputs case-insensitively, in row order', () => {
    expect(findMatches(index, 'retry')).toEqual([
      { row: 0, occurrence: 0 },
      { row: 0, occurrence: 1 },
      { row: 1, occurrence: 0 },
      { row: 1, occurrence: 1 },
    ]);
    expect(findMatches(index, 'bash')).toEqual([{ row: 1, occurrence: 0 }]);
    expect(findMatches(index, '   ')).toEqual([]);
  });

  it('caps the number of matches and says so', () => {
    expect(findMatches(index, 'e', 3)).toHaveLength(3);
    expect(findCountLabel(0, 10_000)).toBe('1 of 10000+');
    expect(findCountLabel(2, 17)).toBe('3 of 17');
    expect(findCountLabel(-1, 0)).toBe('No results');
  });

  it('steps forward and back with wrap-around', () => {
    expect(stepMatch(-1, 5, 1)).toBe(0);
    expect(stepMatch(-1, 5, -1)).toBe(4);
    expect(stepMatch(4, 5, 1)).toBe(0);
    expect(stepMatch(0, 5, -1)).toBe(4);
    expect(stepMatch(0, 0, 1)).toBe(-1);
  });

  it('splits text around matches keeping the original case', () => {
    expect(splitMatches('Retry and RETRY', 'retry')).toEqual(['', 'Retry', ' and ', 'RETRY', '']);
    expect(splitMatches('nothing', 'zz')).toEqual(['nothing']);
  });

  it('marks every word of a search at once, the longer word where two start together', () => {
    const words = anyOf(['quokka', 'merge', 'merge order']);
    expect(splitMatches('Merge order for the QUOKKA merge', words)).toEqual(['', 'Merge order', ' for the ', 'QUOKKA', ' ', 'merge', '']);
    expect(hasMatch('a Quokka here', words)).toBe(true);
    expect(hasMatch('nothing here', words)).toBe(false);
  });
});

describe('stepping while the shown matches lag behind the typed query', () => {
  const counts: Record<string, number> = { th: 5, the: 3 };
  const matchesOf = (q: string) => counts[q] ?? 0;

  it('an Enter right after typing steps within the typed query, not the prefix still shown', () => {
    // "the" is typed; the deferred render still shows the matches of "th" when Enter is pressed.
    const step = stepFind({ query: '', index: 0 }, 'the', matchesOf, 1);
    expect(currentMatch(step, 'th', 5)).toBe(0);
    // Once the matches of "the" are shown, the step is there: 2 of 3 (it used to fall back to 1 of 3).
    expect(currentMatch(step, 'the', 3)).toBe(1);
  });

  it('steps on from the step already taken for the typed query, wrapping both ways', () => {
    let step = stepFind({ query: '', index: 0 }, 'the', matchesOf, 1);
    step = stepFind(step, 'the', matchesOf, 1);
    expect(currentMatch(step, 'the', 3)).toBe(2);
    step = stepFind(step, 'the', matchesOf, 1);
    expect(currentMatch(step, 'the', 3)).toBe(0);
    expect(currentMatch(stepFind({ query: '', index: 0 }, 'the', matchesOf, -1), 'the', 3)).toBe(2);
  });

  it('shows no match when the query has none', () => {
    expect(currentMatch(stepFind({ query: '', index: 0 }, 'zzz', matchesOf, 1), 'zzz', 0)).toBe(-1);
  });
});
