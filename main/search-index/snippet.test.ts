// Snippets point at the message with the best match and mark every hit as plain-text pieces.
import { describe, expect, it } from 'vitest';
import { locateMatch, settledInPart } from './snippet.ts';
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

describe('settledInPart', () => {
  it('from any stretch starting before the answer, gives exactly what the whole body gives, or asks for more', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const vocabulary = ['plain', 'words', 'filler', 'more', 'text', 'okapi', 'narwhal', 'Okapi-helper'];
    const messages = Array.from({ length: 120 }, (_, i) => {
      // Early messages hold no term, so the answers sit well inside the body.
      const pool = i < 30 ? 5 : vocabulary.length;
      const words = Array.from({ length: 5 + Math.floor(next() * 60) }, () => vocabulary[Math.floor(next() * pool)] as string);
      return `m${i} ${words.join(' ')}`;
    });
    const body = messages.join(MESSAGE_SEPARATOR);
    const starts = messages.map((_, i) => messages.slice(0, i).reduce((n, m) => n + m.length + 1, 0));
    const messageAt = (offset: number) => starts.filter((s) => s <= offset).length - 1;
    let settled = 0;
    let asked = 0;
    for (const query of ['okapi', 'narwhal okapi', 'helper', '"okapi narwhal"']) {
      const terms = parseQuery(query).terms;
      const whole = locateMatch({ title: '', body, meta: '' }, terms);
      expect(whole.messageIndex, query).not.toBeNull();
      const answerStart = starts[whole.messageIndex as number] as number;
      for (let k = 0; k < 150; k++) {
        const from = Math.floor(next() * answerStart);
        const to = Math.min(body.length, answerStart + Math.floor(next() * 3000));
        const part = { text: body.slice(from, to), firstMessage: messageAt(from), atStart: from === 0, atEnd: to === body.length };
        const answer = settledInPart(part, terms);
        if (answer) {
          expect(answer, `${query} ${from}-${to}`).toEqual(whole);
          settled++;
        } else asked++;
      }
    }
    // Both ways happen: stretches that hold the answer with room around it, and stretches cut too short.
    expect(settled).toBeGreaterThan(100);
    expect(asked).toBeGreaterThan(20);
  });
});
