// Word-level diffs read like an editor's: whole words replaced, spaces between changes folded in, both texts recoverable.
import { describe, expect, it } from 'vitest';
import { sideText, textSimilarity, wordDiff } from './word-diff.ts';

describe('wordDiff', () => {
  it('replaces whole words, not letters', () => {
    expect(wordDiff('the quick brown fox', 'the slow brown fox')).toEqual([
      { op: 'eq', text: 'the ' },
      { op: 'del', text: 'quick' },
      { op: 'ins', text: 'slow' },
      { op: 'eq', text: ' brown fox' },
    ]);
  });

  it('folds the spaces between neighbouring changes into one replacement', () => {
    expect(wordDiff('use a fixed delay here', 'use an exponential backoff here')).toEqual([
      { op: 'eq', text: 'use ' },
      { op: 'del', text: 'a fixed delay' },
      { op: 'ins', text: 'an exponential backoff' },
      { op: 'eq', text: ' here' },
    ]);
  });

  it('rebuilds both texts from the segments, including line breaks and punctuation', () => {
    const a = 'Run `npm test`.\nThen commit:\n- fix(retry): backoff';
    const b = 'Run `npm test -- --run`.\nThen push:\n- fix(retry): exponential backoff!';
    const d = wordDiff(a, b);
    expect(sideText(d, 'a')).toBe(a);
    expect(sideText(d, 'b')).toBe(b);
  });

  it('returns one equal segment for equal texts and pure insertions from empty', () => {
    expect(wordDiff('same', 'same')).toEqual([{ op: 'eq', text: 'same' }]);
    expect(wordDiff('', 'new words')).toEqual([{ op: 'ins', text: 'new words' }]);
  });

  it('bounds the search on long texts with the same words in a different order', () => {
    const vocabulary = ['retry', 'backoff', 'the', 'webhook', 'delay', 'attempt', 'test', 'fails'];
    const text = (seed: number) => Array.from({ length: 6000 }, (_, i) => vocabulary[(i * seed + (i >> 3)) % vocabulary.length]).join(' ');
    const t0 = performance.now();
    const d = wordDiff(text(3), text(5));
    expect(performance.now() - t0).toBeLessThan(1000);
    expect([sideText(d, 'a'), sideText(d, 'b')]).toEqual([text(3), text(5)]);
  });

  it('stays fast on long, unrelated texts', () => {
    const words = (seed: string, n: number) => Array.from({ length: n }, (_, i) => `${seed}${(i * 7919) % 1000}`).join(' ');
    const t0 = performance.now();
    const d = wordDiff(words('a', 20_000), words('b', 20_000));
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(sideText(d, 'b')).toBe(words('b', 20_000));
  });
});

describe('textSimilarity', () => {
  it('is 1 for the same words in any case, 0 for none shared', () => {
    expect(textSimilarity('Run the tests', 'run THE tests')).toBe(1);
    expect(textSimilarity('alpha beta', 'gamma delta')).toBe(0);
    expect(textSimilarity('run the tests', 'run the tests please')).toBeCloseTo(6 / 7);
  });
});
