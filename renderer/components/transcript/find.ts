// Find in session: what each transcript row can be found by, every occurrence of the query, and stepping through them.
import { prettyArguments } from './tool-summary.ts';
import type { Item, Row } from './transcript.ts';

export interface FindMatch {
  /** Index into the transcript rows. */
  row: number;
  /** The n-th occurrence within that row, in the order the row shows its text. */
  occurrence: number;
}

/** The searchable text of one item, or null when it has none. */
export function itemText(item: Item): string | null {
  switch (item.kind) {
    case 'text':
    case 'thinking':
      return item.text;
    case 'tool':
      return [item.call?.name ?? '', item.call ? prettyArguments(item.call.input) : '', item.result?.output ?? ''].join('\n');
    case 'compaction':
      return item.part.summary;
    default:
      return null;
  }
}

/** Lower-cased text per row, built once per transcript and only when find is first used. */
export function buildFindIndex(rows: readonly Row[]): string[] {
  return rows.map((row) => {
    if (row.kind === 'agent') return `${row.agentId}\n${row.label ?? ''}`.toLowerCase();
    const texts: string[] = [];
    for (const item of row.items) {
      const t = itemText(item);
      if (t) texts.push(t);
    }
    return texts.join('\n').toLowerCase();
  });
}

export function countOccurrences(haystack: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Case-insensitive, in row order; capped so a one-letter query on a huge session stays responsive. */
export function findMatches(index: readonly string[], query: string, cap = 10_000): FindMatch[] {
  const needle = query.toLowerCase();
  if (!needle.trim()) return [];
  const out: FindMatch[] = [];
  for (let row = 0; row < index.length && out.length < cap; row++) {
    const count = countOccurrences(index[row] ?? '', needle);
    for (let occurrence = 0; occurrence < count && out.length < cap; occurrence++) out.push({ row, occurrence });
  }
  return out;
}

/** Next (+1) or previous (-1) match, wrapping around; -1 when there is none. */
export function stepMatch(current: number, total: number, delta: 1 | -1): number {
  if (total === 0) return -1;
  if (current < 0) return delta > 0 ? 0 : total - 1;
  return (current + delta + total) % total;
}

/** The match find has stepped to, for the query it was stepped in. */
export interface FindStep {
  query: string;
  index: number;
}

/** The match shown for `query` (the query the matches were found for): the step's, or the first. -1 with no matches. */
export function currentMatch(step: FindStep, query: string, total: number): number {
  if (total === 0) return -1;
  return step.query === query ? Math.min(step.index, total - 1) : 0;
}

/**
 * Enter / Shift+Enter: the step for what is typed. The shown matches may still be for an earlier prefix (they are
 * found in a deferred render while typing goes on); a step taken against those was lost once they caught up, so
 * the typed query's own matches are counted here.
 */
export function stepFind(step: FindStep, typed: string, matchesOf: (query: string) => number, delta: 1 | -1): FindStep {
  const total = matchesOf(typed);
  return { query: typed, index: stepMatch(currentMatch(step, typed, total), total, delta) };
}

/** "3 of 17", "No results", or "10000+ …" when the cap was reached. */
export function findCountLabel(current: number, total: number, cap = 10_000): string {
  if (total === 0) return 'No results';
  const of = total >= cap ? `${cap}+` : String(total);
  return `${current < 0 ? 0 : current + 1} of ${of}`;
}

/**
 * Several words in one query string, for marking a search's words in the message it opened at. The
 * separator is a character nobody types into the find box, so find's own queries stay one needle.
 */
export const TERM_SEPARATOR = '\u0000';

export function anyOf(terms: readonly string[]): string {
  return terms.filter(Boolean).join(TERM_SEPARATOR);
}

function needlesOf(query: string): string[] {
  return query.toLowerCase().split(TERM_SEPARATOR).filter(Boolean);
}

/** Whether text holds the query (or, for `anyOf` terms, any of them), ignoring case. */
export function hasMatch(text: string, query: string): boolean {
  const lower = text.toLowerCase();
  return needlesOf(query).some((n) => lower.includes(n));
}

/** Earliest occurrence of any needle at or after `from`, the longest one when several start there. */
function nextOf(lower: string, needles: readonly string[], from: number): { at: number; length: number } | null {
  let best: { at: number; length: number } | null = null;
  for (const n of needles) {
    const at = lower.indexOf(n, from);
    if (at !== -1 && (!best || at < best.at || (at === best.at && n.length > best.length))) best = { at, length: n.length };
  }
  return best;
}

/** Splits text around case-insensitive occurrences of query (odd indexes are the matches). */
export function splitMatches(text: string, query: string): string[] {
  if (query.includes(TERM_SEPARATOR)) return splitAny(text, needlesOf(query));
  const needle = query.toLowerCase();
  if (!needle) return [text];
  const lower = text.toLowerCase();
  // Lower-casing can change length for a few scripts; fall back to no marks rather than misplaced ones.
  if (lower.length !== text.length) return [text];
  const out: string[] = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + needle.length)) {
    out.push(text.slice(from, at), text.slice(at, at + needle.length));
    from = at + needle.length;
  }
  out.push(text.slice(from));
  return out;
}

function splitAny(text: string, needles: readonly string[]): string[] {
  const lower = text.toLowerCase();
  if (needles.length === 0 || lower.length !== text.length) return [text];
  const out: string[] = [];
  let from = 0;
  for (let m = nextOf(lower, needles, 0); m; m = nextOf(lower, needles, m.at + m.length)) {
    out.push(text.slice(from, m.at), text.slice(m.at, m.at + m.length));
    from = m.at + m.length;
  }
  out.push(text.slice(from));
  return out;
}
