// Snippets for a page of team search results: the matched words in their context, shaped as the local search's (text pieces, hits marked, "…" where cut).
import type { ClientBase } from 'pg';
import type { SnippetPart } from '../../shared/search-api.ts';
import type { Term } from '../search-index/query-parser.ts';
import { termPattern } from '../search-index/snippet.ts';
import { qualified } from './team-names.ts';

/** Characters of context before the match, and of the window read from the store, as the local snippet's (60 before, 120 after). */
const BEFORE = 70;
const WINDOW = 260;

/**
 * What a snippet's window is looked for by, best first, lower-cased: each phrase as written (its words one space
 * apart), then the positive terms' words, longest first (the rarer).
 */
function needlesOf(terms: Term[]): string[] {
  const positive = terms.filter((t) => !t.negated);
  const phrases = positive.filter((t) => t.kind === 'phrase').map((t) => t.text.toLowerCase().trim().replace(/\s+/g, ' '));
  const words = positive.flatMap((t) => t.text.toLowerCase().match(/[\p{L}\p{N}_][\p{L}\p{N}_.\-/]*/gu) ?? []).sort((a, b) => b.length - a.length);
  return [...new Set([...phrases.filter((p) => p.includes(' ')), ...words])].slice(0, 4);
}

/** Marks the terms' matches in `text` and cuts it to whole words; `cutBefore`/`cutAfter` say whether the text goes on past its edges. */
export function snippetParts(text: string, pattern: RegExp | null, cutBefore: boolean, cutAfter: boolean): SnippetPart[] {
  let slice = text;
  // Whole words at the edges: a word the window cut in two is left out.
  if (cutBefore) slice = slice.replace(/^\S*\s+/u, '');
  if (cutAfter) slice = slice.replace(/\s+\S*$/u, '');
  const parts: SnippetPart[] = [];
  if (cutBefore) parts.push({ text: '…', hit: false });
  let last = 0;
  if (pattern)
    for (const m of slice.matchAll(new RegExp(pattern.source, 'giu'))) {
      if (!m[0]) continue;
      if (m.index > last) parts.push({ text: slice.slice(last, m.index).replace(/\s+/g, ' '), hit: false });
      parts.push({ text: m[0], hit: true });
      last = m.index + m[0].length;
    }
  if (last < slice.length) parts.push({ text: slice.slice(last).replace(/\s+/g, ' '), hit: false });
  if (cutAfter) parts.push({ text: '…', hit: false });
  return parts;
}

interface WindowRow {
  machine: string;
  key: string;
  text: string;
  cut_before: boolean;
  cut_after: boolean;
  /** Where the window's match is in its chunk (1-based, code points; 0 when no needle was found there). */
  at: number;
  /** The chunk's message starts and their message indexes (null for a chunk pushed before the store kept them). */
  starts: number[] | null;
  indexes: Array<number | null> | null;
}

/** A hit's snippet, and the message its match is in (null when unknown: a title match, a filter or identifier only, or text pushed before starts were kept). */
export interface TeamSnippet {
  parts: SnippetPart[];
  messageIndex: number | null;
}

/** The message a match at `at` (1-based, in code points) is in: that of the last start at or before it. */
function messageAt(at: number, starts: readonly number[] | null, indexes: ReadonlyArray<number | null> | null): number | null {
  if (at < 1 || !starts || !indexes) return null;
  let found: number | null = null;
  for (let i = 0; i < starts.length && (starts[i] as number) <= at - 1; i++) found = indexes[i] ?? null;
  return found;
}

/**
 * For each session of a page (by machine and key), a snippet around the first place its text holds the query's
 * words, and the message that place is in: one statement reads, per session, its first chunk holding one of them
 * (prompts and replies before the title, as the local search names a message first), looks there for each
 * phrase as written, then for the words, and only a window of it and the chunk's message starts cross the
 * network. A session matched by an identifier alone, or by filters alone, shows its title, its matches marked.
 */
export async function teamSnippets(
  client: ClientBase,
  terms: Term[],
  hits: Array<{ machine: string; key: string; title: string }>,
): Promise<Map<string, TeamSnippet>> {
  const out = new Map<string, TeamSnippet>();
  const pattern = termPattern(terms);
  const id = (machine: string, key: string) => `${machine}\n${key}`;
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const needles = needlesOf(terms);
  if (hits.length && needles.length) {
    // Where in the chosen chunk each needle is first found (the window goes around the best one found).
    const found = needles.map((n) => `strpos(l.text, ${param(n)})`);
    // Per session, its first chunk (prompts and replies before the title) holding the best needle, else any; in the
    // primary key's order so the scan stops there; bodies only are read
    // (checking each chunk's tsvector as well cost as much again: a snippet is a place to show, not a match to prove).
    // The three tries are one UNION ALL under LIMIT 1: PostgreSQL runs its branches in order and stops at the first row.
    const likes = needles.map((n) => `%${n.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const best = param(likes.slice(0, 1));
    const any = param(likes);
    const first = (weights: string, patterns: string) =>
      `(SELECT t.body, t.message_starts, t.message_indexes FROM ${qualified('session_texts')} t
         WHERE t.machine = h.machine AND t.key = h.key AND ${weights} AND lower(t.body) LIKE ANY (${patterns}::text[]) ORDER BY t.weight, t.seq LIMIT 1)`;
    const { rows } = await client.query<WindowRow>(
      `SELECT h.machine, h.key, substr(c.body, greatest(1, w.at - ${BEFORE}), ${WINDOW}) AS text,
              w.at - ${BEFORE} > 1 AS cut_before, greatest(1, w.at - ${BEFORE}) + ${WINDOW} <= length(c.body) AS cut_after,
              w.at, c.message_starts AS starts, c.message_indexes AS indexes
         FROM unnest(${param(hits.map((h) => h.machine))}::text[], ${param(hits.map((h) => h.key))}::text[]) AS h(machine, key)
        CROSS JOIN LATERAL (SELECT * FROM (${first("t.weight > 'A'", best)} UNION ALL ${first("t.weight > 'A'", any)} UNION ALL ${first("t.weight = 'A'", any)}) u LIMIT 1) c
        CROSS JOIN LATERAL (SELECT lower(c.body) AS text OFFSET 0) l
        CROSS JOIN LATERAL (SELECT coalesce((SELECT p FROM unnest(ARRAY[${found.join(', ')}]) WITH ORDINALITY AS u(p, i) WHERE p > 0 ORDER BY i LIMIT 1), 0) AS at) w`,
      values,
    );
    for (const r of rows)
      out.set(id(r.machine, r.key), { parts: snippetParts(r.text, pattern, r.cut_before, r.cut_after), messageIndex: messageAt(r.at, r.starts, r.indexes) });
  }
  for (const h of hits)
    if (!out.has(id(h.machine, h.key))) out.set(id(h.machine, h.key), { parts: snippetParts(h.title, pattern, false, false), messageIndex: null });
  return out;
}
