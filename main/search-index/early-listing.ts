// The list's first pages straight from the index file, while the catalogue is still being restored from it at start.
import { sep } from 'node:path';
import type { SessionSummary } from '../../shared/session.ts';
import { summaryOf, type Decorate, type ListQuery, type VaultKind } from '../catalogue/catalogue.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import type { SessionIndex } from './index-store.ts';
import { searchIndex } from './index-search.ts';
import type { ParsedQuery } from './query-parser.ts';

export interface EarlyListingContext {
  /** The folders being read now, the vault's included: files the index holds from elsewhere (an earlier run's --root) are not listed. */
  roots: readonly string[];
  /** Where the vault keeps its copies of sessions (VaultStore.sessionsDir). */
  copiesDir: string;
  /** Which paths are the vault's own (VaultService.kindOf). */
  kindOf: (path: string) => VaultKind;
  decorate: Decorate;
}

/** Whether a list query can be answered from the index alone: no text, no vault filters, no changed-keys refresh. */
export function listableEarly(query: ListQuery): boolean {
  return !query.text?.trim() && !query.keys && query.starred === undefined && query.kept === undefined && !query.tag && process.platform !== 'win32';
}

/** [from, to) bounds of the paths below `dir` (paths compare as strings; the separator's successor ends the range). */
function under(dir: string): [string, string] {
  const base = dir.endsWith(sep) ? dir.slice(0, -1) : dir;
  return [base + sep, base + String.fromCharCode(sep.charCodeAt(0) + 1)];
}

interface EarlyView {
  hidden: number[];
  children: number[];
  childCounts: Map<string, number>;
  keptKeys: Set<string>;
}

/** The last view worked out per index, and for which context and state of the index file. */
const views = new WeakMap<SessionIndex, { ctx: EarlyListingContext; generation: string; view: EarlyView }>();

/**
 * What the catalogue's listing view gives (see search-service.ts), worked out in SQL: rows outside the current
 * folders, kept copies whose session is listed otherwise, sub-agents whose parent is listed, and child counts.
 * Copies are few; the scans of `files` run in SQLite, once per change to the index (as the catalogue's view).
 */
function earlyView(index: SessionIndex, ctx: EarlyListingContext): EarlyView {
  const v = index.statement('SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS d').get() as { c: number; d: number };
  const generation = `${v.c}:${v.d}`;
  const cached = views.get(index);
  if (cached?.ctx === ctx && cached.generation === generation) return cached.view;
  const covered = ctx.roots.map(under);
  const inside = covered.map(() => '(path >= ? AND path < ?)').join(' OR ');
  const outside = (index.statement(`SELECT id FROM files WHERE NOT (${inside})`).all(...covered.flat()) as Array<{ id: number }>).map((r) => r.id);
  const [from, to] = under(ctx.copiesDir);
  const copies = index.statement('SELECT id, key FROM files WHERE path >= ? AND path < ? ORDER BY id').all(from, to) as Array<{ id: number; key: string }>;
  const liveHolder = index.statement('SELECT 1 AS x FROM files WHERE key = ? AND NOT (path >= ? AND path < ?) LIMIT 1');
  // A copy is listed only when no other file holds its key; of several copies of one key, the last restored (highest id).
  const lastCopy = new Map<string, number>();
  for (const c of copies) lastCopy.set(c.key, c.id);
  const shadowed = copies.filter((c) => lastCopy.get(c.key) !== c.id || liveHolder.get(c.key, from, to) !== undefined).map((c) => c.id);
  const children = (
    index
      .statement('SELECT c.id AS id FROM files c WHERE c.parent_key IS NOT NULL AND EXISTS (SELECT 1 FROM files p WHERE p.key = c.parent_key)')
      .all() as Array<{ id: number }>
  ).map((r) => r.id);
  const childCounts = new Map<string, number>();
  for (const r of index.statement('SELECT parent_key AS parent, count(*) AS n FROM files WHERE parent_key IS NOT NULL GROUP BY parent_key').all() as Array<{
    parent: string;
    n: number;
  }>) {
    childCounts.set(r.parent, r.n);
  }
  const view = { hidden: [...outside, ...shadowed], children, childCounts, keptKeys: new Set(copies.map((c) => c.key)) };
  views.set(index, { ctx, generation, view });
  return view;
}

/**
 * The list as listFromIndex gives it once the catalogue is restored, read from the index file alone: the same
 * rows in the same order, each summary as stored. Only for queries `listableEarly` accepts.
 */
export function listEarly(index: SessionIndex, query: ListQuery, ctx: EarlyListingContext): { sessions: SessionSummary[]; total: number } {
  const view = earlyView(index, ctx);
  const filters = { tags: [], ...(query.format ? { source: query.format } : {}) };
  const parsed: ParsedQuery = { terms: [], filters, sort: null, problems: [] };
  const excludeIds = query.includeChildren ? view.hidden : [...view.hidden, ...view.children];
  const page = searchIndex(index, parsed, {
    limit: query.limit ?? Number.MAX_SAFE_INTEGER,
    offset: query.offset ?? 0,
    sort: 'updated',
    limits: { excludeIds },
  });
  const facts = new Map<number, { size: number; mtimeMs: number }>();
  if (page.hits.length) {
    const rows = index
      .statement('SELECT id, size, mtime_ms AS mtimeMs FROM files WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(page.hits.map((h) => h.id))) as Array<{ id: number; size: number; mtimeMs: number }>;
    for (const r of rows) facts.set(r.id, r);
  }
  const results = index.storedResults(page.hits.map((h) => h.path));
  const sessions: SessionSummary[] = [];
  for (const hit of page.hits) {
    const result: SummaryResponse | undefined = results.get(hit.path);
    const fact = facts.get(hit.id);
    if (!result || !fact) continue;
    const s = summaryOf(hit.path, fact.size, fact.mtimeMs, result, hit.key);
    const kind = ctx.kindOf(hit.path);
    sessions.push(
      ctx.decorate({
        ...s,
        childCount: Math.max(s.childCount, view.childCounts.get(hit.key) ?? 0),
        kept: kind !== null || view.keptKeys.has(hit.key),
        sourceGone: kind === 'copy',
      }),
    );
  }
  return { sessions, total: page.total };
}
