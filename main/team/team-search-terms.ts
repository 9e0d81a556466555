// How each term of a team search is found: its tsqueries (as typed, and its words in any order), its identifier substring pattern, and the conditions over search documents, chunks and session rows that hold it.
import type { Term } from '../search-index/query-parser.ts';
import { SEARCH_DOCS } from './search-docs.ts';
import { qualified } from './team-names.ts';
import type { TermMatch } from './team-ranked.ts';

/** A LIKE pattern matching `value` literally (backslash escapes). */
export const literalLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The words of a prefix term, the last one a prefix, as a tsquery: `deploy scr*` → `deploy <-> scr:*`. Null without letters or digits. */
function prefixQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words) return null;
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' <-> ');
}

/** The tsquery of a term (made with `param`), or null for one with no letters or digits. */
export function termTsquery(term: Term, param: (value: unknown) => string): string | null {
  if (term.kind === 'phrase') return /[\p{L}\p{N}]/u.test(term.text) ? `phraseto_tsquery('simple', ${param(term.text)})` : null;
  if (term.kind === 'prefix') {
    const q = prefixQuery(term.text);
    return q === null ? null : `to_tsquery('simple', ${param(q)})`;
  }
  return /[\p{L}\p{N}]/u.test(term.text) ? `plainto_tsquery('simple', ${param(term.text)})` : null;
}

/**
 * The words a term's sessions must hold, whatever their order, as a tsquery over the position-less search
 * documents: a phrase's words, and a prefix term's words (the last a prefix) joined with AND.
 */
export function unorderedTsquery(term: Term, param: (value: unknown) => string): string | null {
  if (term.kind === 'phrase') return `plainto_tsquery('simple', ${param(term.text)})`;
  const q = prefixQuery(term.text);
  return q === null ? null : `to_tsquery('simple', ${param(q.replaceAll(' <-> ', ' & '))})`;
}

/** The LIKE pattern that finds a word or prefix term as a substring of an identifier or path (three characters or more), or null. */
export const identPattern = (term: Term): string | null => (term.kind !== 'phrase' && [...term.text].length >= 3 ? `%${literalLike(term.text)}%` : null);

/** The tsquery of the words a term's sessions must hold in some search document, whatever their order (its own for a word), or null. */
export const termWordsTsquery = (term: Term, param: (value: unknown) => string): string | null =>
  needsPositions(term) ? unorderedTsquery(term, param) : termTsquery(term, param);

/** Whether a term's words must follow each other (a phrase, or a prefix term of several words): checked on the chunks, which keep positions. */
export const needsPositions = (term: Term) => term.kind === 'phrase' || (term.kind === 'prefix' && (prefixQuery(term.text) ?? '').includes(' <-> '));

/** How each term is found, for the ranked read (team-ranked.ts); null for a term with nothing to search for. */
export function termMatch(term: Term, param: (value: unknown) => string): TermMatch | null {
  const tsq = termTsquery(term, param);
  const found = identPattern(term);
  const pattern = found === null ? null : param(found);
  if (!tsq && !pattern) return null;
  const ident = pattern ? (row: string) => `${row}.idents ILIKE ${pattern}` : null;
  if (tsq && needsPositions(term)) {
    // The document holds the words (its GIN index, no recheck), then its chunk holds them in order: its tsvector, read
    // by key (OFFSET 0 keeps it a look-up per document: pulled up into a join, the planner could check every chunk).
    const unordered = unorderedTsquery(term, param);
    const words = (doc: string) => `${doc}.words @@ ${unordered}`;
    const chunk = (doc: string) =>
      `${words(doc)} AND EXISTS (SELECT 1 FROM ${qualified('session_texts')} t WHERE t.machine = ${doc}.machine AND t.key = ${doc}.key
         AND t.weight = ${doc}.weight AND t.seq = ${doc}.seq AND t.tsv @@ ${tsq} OFFSET 0)`;
    return { chunk, words, positional: true, text: (t: string) => `${t}.tsv @@ ${tsq}`, ident };
  }
  const words = tsq ? (doc: string) => `${doc}.words @@ ${tsq}` : null;
  return { chunk: words, words, positional: false, text: tsq ? (t: string) => `${t}.tsv @@ ${tsq}` : null, ident };
}

/** A word or prefix's sessions through its indexes (its documents' words, its identifier substring), to be left out whole. */
export function excludedSet(match: TermMatch): string {
  const ways: string[] = [];
  if (match.words) ways.push(`SELECT d.machine, d.key FROM ${SEARCH_DOCS} d WHERE ${match.words('d')}`);
  if (match.ident) ways.push(`SELECT i.machine, i.key FROM ${qualified('sessions')} i WHERE ${match.ident('i')}`);
  return ways.join(' UNION ');
}
