// The fixed 50 queries timed on the realistic corpus: words common to rare, AND, phrases, prefixes, identifier substrings, filters.
import { Prng } from './prng.ts';
import type { TextSource } from './realistic-corpus/text-source.ts';

/** `words`: the recall words, rarest first (search-recall.ts). */
export function fixedQueries(words: readonly string[], text: TextSource, projects: readonly string[]): string[] {
  const rng = new Prng(50);
  const w = (i: number) => words[Math.min(words.length - 1, Math.max(0, i))] as string;
  const n = words.length;
  const q: string[] = [];
  // 15 words, every frequency.
  for (let i = 0; i < 15; i++) q.push(w(Math.round((i * (n - 1)) / 14)));
  // 8 pairs: common with rare, common with common.
  for (const [a, b] of [
    [n - 1, 0],
    [n - 2, 3],
    [n - 1, n - 2],
    [n - 3, 8],
    [5, 6],
    [n - 1, 10],
    [2, n - 4],
    [12, n - 5],
  ] as const)
    q.push(`${w(a)} ${w(b)}`);
  // 6 phrases: two adjacent words of the text the corpus is made of.
  while (q.length < 29) {
    const pair = /\b([a-z]{4,}) ([a-z]{4,})\b/.exec(text.line(rng, 200).toLowerCase());
    if (pair) q.push(`"${pair[1]} ${pair[2]}"`);
  }
  // 6 prefixes.
  for (let i = 0; i < 6; i++) q.push(`${w(Math.round((i * (n - 1)) / 5)).slice(0, 4)}*`);
  // 8 identifier substrings: the middle of camelCase names from the source files.
  const idents = new Set<string>();
  while (idents.size < 8) {
    const file = text.sourceFile(rng);
    const name = (file.text.match(/\b[a-z]+[A-Z][A-Za-z]{6,}\b/g) ?? [])[rng.int(0, 5)];
    if (name) idents.add(name.slice(2, 12));
  }
  q.push(...idents);
  // 7 with filters.
  q.push(
    `source:codex ${w(n - 3)}`,
    `branch:main ${w(n - 6)}`,
    `model:opus ${w(n - 2)}`,
    `after:2026-01-01 ${w(n - 4)}`,
    `project:${projects[0] ?? 'app'} ${w(n - 1)}`,
    `tokens>50000 ${w(n - 5)}`,
    'source:claude-code sort:date',
  );
  return q;
}
