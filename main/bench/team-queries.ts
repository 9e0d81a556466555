// The team bench's fixed query set: the app's search syntax over the generated corpus's words (common to rare), identifiers, phrases, prefixes, filters.
import type { Corpus } from './corpus.ts';

/**
 * Words are picked by rank in the corpus's Zipf-like vocabulary (rank 0 is in most sessions, rank 5,000 in a few),
 * so the set has queries matching nearly every session as well as a handful; identifiers are matched whole and by
 * a piece of their middle (the trigram path).
 */
export function teamQueries(corpus: Corpus, machine: string): string[] {
  const w = (rank: number) => corpus.vocabulary[rank] ?? 'missing';
  const id = (i: number) => corpus.identifiers[i] ?? 'missingIdentifier';
  return [
    '',
    w(0),
    w(1),
    w(5),
    w(100),
    w(300),
    w(3000),
    w(5000),
    `${w(2)} ${w(50)}`,
    `${w(10)} ${w(400)}`,
    `"${w(0)} ${w(1)}"`,
    `"${w(3)} ${w(40)}"`,
    `"${w(1)} ${w(2)} ${w(3)}"`,
    `"${w(100)} ${w(2)}"`,
    `${w(20).slice(0, 4)}*`,
    `${w(700).slice(0, 3)}*`,
    id(0),
    id(500),
    id(3).slice(3, 12),
    `${w(3)} -${w(4)}`,
    `machine:${machine} ${w(30)}`,
    `-machine:somebody-else ${w(25)}`,
    `user:bench ${w(200)}`,
    `project:${w(7)}`,
    `source:codex ${w(15)}`,
    `branch:main ${w(60)}`,
    `after:2025-06-01 ${w(8)}`,
    `sort:tokens ${w(9)}`,
  ];
}
