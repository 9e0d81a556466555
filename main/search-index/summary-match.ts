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

/** The sessions whose summary holds every positive term and no excluded one; empty for a query without words. */
export function summaryMatches(summaries: VaultSummaryTexts | undefined, parsed: ParsedQuery): string[] {
  if (!summaries || !parsed.terms.some((t) => !t.negated)) return [];
  const keys: string[] = [];
  for (const [key, text] of summaries.texts()) {
    const lower = text.toLowerCase();
    const split = words(lower);
    if (parsed.terms.every((t) => holds(lower, split, t) !== t.negated)) keys.push(key);
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
