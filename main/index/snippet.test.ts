// Snippets point at the message with the best match and mark every hit as plain-text pieces.
import { describe, expect, it } from 'vitest';
import { locateMatch } from './snippet.ts';
import { MESSAGE_SEPARATOR } from './index-text.ts';
import { parseQuery } from './query-parser.ts';

const body = ['hello there', 'the merge failed on main', 'merge conflict; rerun the merge with tie break rules'].join(MESSAGE_SEPARATOR);

describe('locateMatch', () => {
  it('names the message with the most distinct terms and marks the hits', () => {
    const where = locateMatch({ title: 't', body, meta: '' }, parseQuery('merge "tie break"').terms);
    expect(where.messageIndex).toBe(2);
    expect(where.snippet.filter((p) => p.hit).map((p) => p.text)).toEqual(['merge', 'merge', 'tie break']);
    expect(where.snippet.map((p) => p.text).join('')).toContain('conflict; rerun');
  });

  it('finds substrings inside identifiers, whatever the case', () => {
    const where = locateMatch({ title: 't', body: `a${MESSAGE_SEPARATOR}called parseVizierDocument(x)`, meta: '' }, parseQuery('vizierdoc').terms);
    expect(where.messageIndex).toBe(1);
    expect(where.snippet.find((p) => p.hit)?.text).toBe('VizierDoc');
  });

  it('falls back to the title or metadata with no message index', () => {
    const where = locateMatch({ title: 'Fix the orbit build', body: 'nothing here', meta: '/home/dev/orbit' }, parseQuery('orbit').terms);
    expect(where.messageIndex).toBeNull();
    expect(where.snippet).toContainEqual({ text: 'orbit', hit: true });
  });

  it('cuts long text around the match', () => {
    const long = `${'word '.repeat(500)}needle ${'tail '.repeat(500)}`;
    const where = locateMatch({ title: '', body: long, meta: '' }, parseQuery('needle').terms);
    const text = where.snippet.map((p) => p.text).join('');
    expect(text.length).toBeLessThan(300);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
  });
});
