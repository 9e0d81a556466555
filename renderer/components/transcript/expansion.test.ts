// Opened cards survive their row scrolling away, switching tabs, and coming back to a session.
import { describe, expect, it } from 'vitest';
import { createExpansion, expansionFor } from './expansion.ts';

describe('expansion', () => {
  it('toggles per id and tells only that id’s listeners', () => {
    const e = createExpansion();
    const heard: string[] = [];
    e.subscribe('a', () => heard.push('a'));
    e.subscribe('b', () => heard.push('b'));
    e.toggle('a');
    e.set('a', true);
    expect(e.isOpen('a')).toBe(true);
    expect(e.isOpen('b')).toBe(false);
    expect(heard).toEqual(['a']);
  });

  it('keeps one expansion per session view for the recent sessions', () => {
    const first = expansionFor('conversation:s1');
    first.set('card', true);
    expect(expansionFor('conversation:s1').isOpen('card')).toBe(true);
    expect(expansionFor('operations:s1')).not.toBe(first);
    for (let i = 0; i < 25; i++) expansionFor(`conversation:other-${i}`);
    expect(expansionFor('conversation:s1').isOpen('card')).toBe(false);
  });
});
