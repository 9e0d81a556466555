// Parses the search box's syntax: words, "exact phrases", prefix*, and filters such as project: or tokens>N.
import type { SourceFormat } from '../../shared/session.ts';
import type { SearchSort } from '../../shared/search-api.ts';
import { oneOf, SEARCH_SORTS } from '../../shared/contract-values.ts';
import { SOURCE_FORMATS } from '../../shared/source-formats.ts';

export type Term =
  { kind: 'word'; text: string; negated: boolean } | { kind: 'prefix'; text: string; negated: boolean } | { kind: 'phrase'; text: string; negated: boolean };

export interface Filters {
  source?: SourceFormat;
  project?: string;
  branch?: string;
  status?: string;
  outcome?: string;
  model?: string;
  tags: string[];
  starred?: boolean;
  kept?: boolean;
  /** has:summary (true) or -has:summary (false): a summary in the session's own file, or in the vault (summarizedKeys). */
  hasSummary?: boolean;
  /** The sessions the vault holds a summary for, filled in by the caller that knows them (summary-match.ts). */
  summarizedKeys?: readonly string[];
  /** Milliseconds since the epoch, inclusive bounds on the session's last activity. */
  afterMs?: number;
  beforeMs?: number;
  minTokens?: number;
  maxTokens?: number;
  minCost?: number;
  maxCost?: number;
  /** Filters whose value was quoted: the whole value, case-insensitive (`project:"my app"`), instead of a substring, prefix or pattern. */
  exact?: { project?: boolean; branch?: boolean; model?: boolean };
}

export interface ParsedQuery {
  terms: Term[];
  filters: Filters;
  sort: SearchSort | null;
  /** Parts that looked like filters but could not be used, said plainly for the UI. */
  problems: string[];
}

/** A leading minus excludes only before a word or a quote, so `->` stays a word. */
const TOKEN = /(-(?=[\p{L}\p{N}"]))?(?:([a-zA-Z]+):"([^"]*)"?|"([^"]*)"?|(\S+))/gu;

const UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * `2026-01-31`, `2026-01`, `2026`, or any date Date.parse understands; `before:` a day means before it ends. A span
 * back from now (`24h`, `7d`, `2w`) means that long ago: `after:7d` is the past week, `before:30d` older than a month.
 */
function parseDate(value: string, endOfRange: boolean, now: number): number | null {
  const span = /^(\d+)([hdw])$/i.exec(value);
  if (span) return now - Number(span[1]) * (UNIT_MS[(span[2] as string).toLowerCase()] as number);
  const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(value);
  if (m) {
    const year = Number(m[1]);
    const month = m[2] ? Number(m[2]) - 1 : null;
    const day = m[3] ? Number(m[3]) : null;
    if (!endOfRange) return Date.UTC(year, month ?? 0, day ?? 1);
    if (day !== null) return Date.UTC(year, month ?? 0, day + 1) - 1;
    if (month !== null) return Date.UTC(year, month + 1, 1) - 1;
    return Date.UTC(year + 1, 0, 1) - 1;
  }
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

const COMPARISON = /^(tokens|cost)(>=|<=|>|<|=)(\d+(?:\.\d+)?)(k|m)?$/i;
/** tokens or cost with a comparison but no number it can read: `tokens>lots` (`tokens=x` may be code, searched as text). */
const BAD_COMPARISON = /^(tokens|cost)(>=|<=|>|<)(.*)$/i;

const FILTER_NAMES = 'source:, project:, branch:, status:, outcome:, model:, tag:, is:, has:, after:, before:, sort:';

/**
 * `frobnicate:yes` reads as a filter the app does not have. Left alone: URLs (`http://…`), `std::vector` and a Windows
 * drive (`C:\dir`), which hold a colon without being meant as filters.
 */
function unknownFilter(name: string, value: string): boolean {
  return name.length > 1 && !/^[/:\\]/.test(value) && !/^(https?|file|ftp|mailto|ssh|git)$/i.test(name);
}

function unknownFilterProblem(name: string, text: string): string {
  return `"${name}:" is not a filter, so ${text} was searched as text (filters: ${FILTER_NAMES}).`;
}

/** The filters' names (with `format:`, `source:`'s other name, and the comparisons' `tokens`, `cost`): a minus cannot exclude them. */
const FILTER_NAME = /^(source|format|project|branch|status|outcome|model|tag|is|has|after|before|sort|tokens|cost)$/i;

/**
 * Only `-has:summary` excludes. Any other minus before a filter (`-model:opus`, `-tokens>10k`) is left out with a
 * problem saying so: searched as text, it excluded nothing and the results looked filtered when they were not.
 */
function unexcludable(name: string, value: string, text: string, problems: string[]): boolean {
  if (!FILTER_NAME.test(name) || (name.toLowerCase() === 'has' && value === 'summary')) return false;
  problems.push(`"-${text}": a filter cannot be excluded (only -has:summary), so it was left out of the search.`);
  return true;
}

function applyFilter(filters: Filters, name: string, value: string, problems: string[], negated: boolean, now: number, quoted = false): boolean {
  const lower = name.toLowerCase();
  if (negated && lower === 'has' && value === 'summary') {
    filters.hasSummary = false;
    return true;
  }
  if (negated) return false;
  switch (lower) {
    case 'source':
    case 'format': {
      const format: SourceFormat | undefined = oneOf(SOURCE_FORMATS, value.toLowerCase());
      if (format) filters.source = format;
      else problems.push(`Unknown source "${value}" (one of ${SOURCE_FORMATS.join(', ')}).`);
      return true;
    }
    case 'project':
    case 'branch':
    case 'model':
      filters[lower] = value;
      if (quoted) filters.exact = { ...filters.exact, [lower]: true };
      else if (filters.exact?.[lower]) filters.exact = { ...filters.exact, [lower]: false };
      return true;
    case 'status':
    case 'outcome':
      filters[lower] = value;
      return true;
    case 'tag':
      filters.tags.push(value);
      return true;
    case 'is':
      if (value === 'starred') filters.starred = true;
      else if (value === 'kept') filters.kept = true;
      else problems.push(`"is:${value}" is not a filter (is:starred, is:kept).`);
      return true;
    case 'has':
      if (value === 'summary') filters.hasSummary = true;
      else problems.push(`"has:${value}" is not a filter (has:summary).`);
      return true;
    case 'after':
    case 'before': {
      const t = parseDate(value, lower === 'before', now);
      if (t === null) problems.push(`"${value}" is not a date (use 2026-01-31, or 7d for the past 7 days).`);
      else if (lower === 'after') filters.afterMs = t;
      else filters.beforeMs = t;
      return true;
    }
    case 'sort':
      return false;
    default:
      return false;
  }
}

function applyComparison(filters: Filters, text: string): boolean {
  const m = COMPARISON.exec(text);
  if (!m) return false;
  const scale = m[4]?.toLowerCase() === 'k' ? 1e3 : m[4]?.toLowerCase() === 'm' ? 1e6 : 1;
  const n = Number(m[3]) * scale;
  const field = (m[1] ?? '').toLowerCase() === 'tokens' ? 'Tokens' : 'Cost';
  const op = m[2];
  // Whole numbers: tokens>N means at least N+1; costs are compared as given.
  const step = field === 'Tokens' ? 1 : 0;
  if (op === '>' || op === '>=') filters[`min${field}`] = op === '>' ? n + step : n;
  else if (op === '<' || op === '<=') filters[`max${field}`] = op === '<' ? n - step : n;
  else {
    filters[`min${field}`] = n;
    filters[`max${field}`] = n;
  }
  return true;
}

/**
 * Whether a term can be looked up: by its letters or digits in the word index, or, a word of three characters or more,
 * as a substring of identifiers (search.ts). One that cannot (`-`, `=`, `"=>"`) would make the query match nothing.
 */
function searchable(term: Term): boolean {
  return /[\p{L}\p{N}]/u.test(term.text) || (term.kind !== 'phrase' && [...term.text].length >= 3);
}

/** `now` is what spans back from now (`after:7d`) are measured from. */
export function parseQuery(input: string, now = Date.now()): ParsedQuery {
  const terms: Term[] = [];
  const filters: Filters = { tags: [] };
  const problems: string[] = [];
  let sort: ParsedQuery['sort'] = null;
  // Terms with nothing to look up, left out beside words; a query of nothing else keeps them and matches nothing.
  const unsearchable: Term[] = [];
  const addTerm = (term: Term) => (searchable(term) ? terms : unsearchable).push(term);
  // `NOT x` is `-x`: the word before a term excludes it.
  let notNext = false;
  for (const m of input.matchAll(TOKEN)) {
    const negated = m[1] === '-' || notNext;
    notNext = m[5] === 'NOT';
    const [, , filterName, filterQuoted, phrase, bare] = m;
    if (filterName !== undefined && filterQuoted !== undefined) {
      if (negated && unexcludable(filterName, filterQuoted, `${filterName}:"${filterQuoted}"`, problems)) continue;
      if (!applyFilter(filters, filterName, filterQuoted, problems, negated, now, true)) {
        terms.push({ kind: 'phrase', text: `${filterName}:${filterQuoted}`, negated });
        if (!negated && unknownFilter(filterName, filterQuoted)) problems.push(unknownFilterProblem(filterName, `${filterName}:"${filterQuoted}"`));
      }
      continue;
    }
    if (phrase !== undefined) {
      if (phrase.trim()) addTerm({ kind: 'phrase', text: phrase.trim(), negated });
      continue;
    }
    const text = bare ?? '';
    if (!text) continue;
    if (negated && COMPARISON.test(text)) {
      unexcludable(/^[a-z]+/i.exec(text)?.[0] ?? '', '', text, problems);
      continue;
    }
    if (!negated && applyComparison(filters, text)) continue;
    const bad = negated ? null : BAD_COMPARISON.exec(text);
    if (bad) {
      const example = (bad[1] as string).toLowerCase() === 'tokens' ? 'tokens>100000 or tokens>50k' : 'cost>2.5';
      problems.push(`"${text}": ${bad[3] ? `"${bad[3]}" is not a number` : 'a number must follow'} (for example ${example}).`);
      continue;
    }
    const colon = /^([a-zA-Z]+):(.+)$/.exec(text);
    if (colon?.[1] && colon[2]) {
      if (colon[1].toLowerCase() === 'sort' && !negated) {
        const key: SearchSort | undefined = oneOf(SEARCH_SORTS, colon[2].toLowerCase());
        if (key) sort = key;
        else problems.push(`"sort:${colon[2]}" is not an order (sort:${SEARCH_SORTS.join(', sort:')}).`);
        continue;
      }
      if (negated && unexcludable(colon[1], colon[2], text, problems)) continue;
      if (applyFilter(filters, colon[1], colon[2], problems, negated, now)) continue;
      if (!negated && unknownFilter(colon[1], colon[2])) {
        problems.push(unknownFilterProblem(colon[1], text));
      }
    }
    if (text === 'OR') problems.push('"OR": there is no OR, every word must appear; search for each word on its own.');
    if (text === 'OR' || text === 'AND' || text === 'NOT') continue;
    if (text.length > 1 && text.endsWith('*')) addTerm({ kind: 'prefix', text: text.slice(0, -1), negated });
    else addTerm({ kind: 'word', text, negated });
  }
  if (!terms.length) terms.push(...unsearchable);
  // A lone minus is an exclusion still being typed: left out without a word.
  else for (const t of unsearchable) if (t.text !== '-') problems.push(`"${t.text}" has no letter or digit to search for, so it was left out.`);
  return { terms, filters, sort, problems };
}
