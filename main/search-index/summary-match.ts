// What the vault's session summaries add to a search: `has:summary` counts them, and their words and tags find their sessions.
import type { ParsedQuery, Term } from './query-parser.ts';
import { locateMatch, type SnippetPart } from './snippet.ts';

/** The vault's summaries as a search reads them: which sessions have one, and each one's text. */
export interface VaultSummaryTexts {
  keys(): readonly string[];
  texts(): Iterable<[key: string, text: string]>;
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * Whether a summary's text holds a term, as the index would find it: a word or prefix anywhere inside a word
 * (identifiers are searched by substring too), a phrase as its words in a row.
 */
function holds(text: string, summaryWords: readonly string[], term: Term): boolean {
  if (term.kind !== 'phrase') return text.includes(term.text.toLowerCase());
  const wanted = words(term.text);
  if (!wanted.length) return false;
  for (let i = 0; i + wanted.length <= summaryWords.length; i++) {
    if (wanted.every((w, j) => summaryWords[i + j] === w)) return true;
  }
  return false;
}

/** Whether the session `key`'s indexed text holds every one of `terms` (all positive), as the index would find them. */
export type IndexHolds = (key: string, terms: Term[]) => boolean;

/**
 * The sessions the query finds through their summary: every positive term is in the summary, or (with `indexHolds`)
 * in the summary or the session's own text (a summary's word with a transcript's word), and no excluded term is in
 * the summary (the index leaves out those its text holds). Empty for a query without words.
 */
export function summaryMatches(summaries: VaultSummaryTexts | undefined, parsed: ParsedQuery, indexHolds?: IndexHolds): string[] {
  const positive = parsed.terms.filter((t) => !t.negated);
  if (!summaries || !positive.length) return [];
  const negated = parsed.terms.filter((t) => t.negated);
  const keys: string[] = [];
  for (const [key, text] of summaries.texts()) {
    const lower = text.toLowerCase();
    const split = words(lower);
    if (negated.some((t) => holds(lower, split, t))) continue;
    const rest = positive.filter((t) => !holds(lower, split, t));
    if (!rest.length) keys.push(key);
    // Only a session whose summary holds some of the words is looked up in the index for the rest.
    else if (rest.length < positive.length && indexHolds?.(key, rest)) keys.push(key);
  }
  return keys;
}

/** `has:summary` and `-has:summary` also count the sessions the vault holds a summary for. */
export function withSummaryKeys(parsed: ParsedQuery, summaries: VaultSummaryTexts | undefined): ParsedQuery {
  if (parsed.filters.hasSummary === undefined || !summaries) return parsed;
  return { ...parsed, filters: { ...parsed.filters, summarizedKeys: summaries.keys() } };
}

/** A snippet from a summary's text, its hits marked (for a session found through its summary only). */
export function summarySnippet(summaries: VaultSummaryTexts | undefined, key: string, terms: Term[]): SnippetPart[] | null {
  if (!summaries) return null;
  for (const [k, text] of summaries.texts()) {
    if (k !== key) continue;
    const found = locateMatch({ title: '', body: '', meta: text.replaceAll('\n', ' · ') }, terms);
    return found.snippet.some((p) => p.hit) ? [{ text: 'Summary: ', hit: false }, ...found.snippet] : null;
  }
  return null;
}
