// Distinct words: the word index finds the same words in them as in the text, each once.
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { distinctWords } from './distinct-words.ts';

/** The terms FTS5's tokenizer (as the index uses it) makes of a text, with how often each occurs. */
function terms(text: string): Map<string, number> {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row');");
    db.prepare('INSERT INTO t (body) VALUES (?)').run(text);
    return new Map((db.prepare('SELECT term, cnt FROM v').all() as Array<{ term: string; cnt: number }>).map((r) => [r.term, r.cnt]));
  } finally {
    db.close();
  }
}

const pieces = [
  'export function parseLedger(entry_id: string) { return CACHE[entry_id] ?? null; }',
  'The Café’s naïve résumé — «quoted» 日本語 テスト, snake_case_name and camelCaseName.\nParseLedger again, PARSELEDGER once more',
  "https://example.com/a/b?c=d#e 1.2.3 v2 x86_64 don't stop",
];

describe('distinctWords', () => {
  it('gives the word index the same words as the text, each once', () => {
    const whole = terms(pieces.join('\n'));
    const once = terms(distinctWords(pieces));
    expect([...once.keys()].sort()).toEqual([...whole.keys()].sort());
    expect([...once.values()].every((n) => n === 1)).toBe(true);
    expect(whole.get('parseledger')).toBe(3);
  });

  it('keeps the first spelling of a word met in different cases', () => {
    expect(distinctWords(['Deadlock deadlock DEADLOCK', 'deadLock'])).toBe('Deadlock');
  });
});
