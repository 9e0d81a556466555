// The echo key: two texts share it exactly when they are the same once each run of whitespace is one space and the ends are trimmed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spokenKey } from './spoken-key.ts';

/** The normalisation the key stands for, as the reader did it before with a regular expression. */
const normalized = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Every character `\s` matches, a few that it does not (zero-width space, NUL, NEL), letters, an emoji's halves. */
const SPACES = [' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
const OTHERS = ['a', 'b', 'Z', '0', '\u200b', '\u0000', '\u0085', 'é', '\ud83d', '\ude00', '"'];
const text = fc.array(fc.constantFrom(...SPACES, ...OTHERS), { maxLength: 12 }).map((chars) => chars.join(''));

describe('spokenKey', () => {
  it('is the same for two texts exactly when they read the same with their whitespace collapsed', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(spokenKey('user', 'text', a) === spokenKey('user', 'text', b)).toBe(normalized(a) === normalized(b));
      }),
      { numRuns: 5000, seed: 2026 },
    );
  });

  it('treats every whitespace character the regular expression knows as a space, and no other', () => {
    for (const space of SPACES) expect(spokenKey('user', 'text', `a${space}${space}b `)).toBe(spokenKey('user', 'text', ' a b'));
    for (const other of ['\u200b', '\u0000', '\u0085']) expect(spokenKey('user', 'text', `a${other}b`)).not.toBe(spokenKey('user', 'text', 'a b'));
  });

  it('keeps role and kind apart, and long texts that differ in one character', () => {
    expect(spokenKey('user', 'text', 'same')).not.toBe(spokenKey('assistant', 'text', 'same'));
    expect(spokenKey('assistant', 'text', 'same')).not.toBe(spokenKey('assistant', 'thinking', 'same'));
    const long = 'word '.repeat(200_000);
    expect(spokenKey('assistant', 'text', `${long}x`)).not.toBe(spokenKey('assistant', 'text', `${long}y`));
    expect(spokenKey('assistant', 'text', `${long}x`)).toBe(spokenKey('assistant', 'text', `${long.replaceAll(' ', '\n\n')}x`));
  });
});
