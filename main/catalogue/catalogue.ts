// The in-memory catalogue: one summary per session file, unique keys, and the list query over them.
import { createHash } from 'node:crypto';
import { basename, dirname, extname } from 'node:path';
import type { SessionSummary, SourceFormat, Unreadable } from '../../shared/session.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import { isWithin } from '../roots/paths.ts';

export interface CatalogueEntry {
  path: string;
  size: number;
  mtimeMs: number;
  summary: SessionSummary;
  /** Other files the session was read from; a change to one of them re-reads this entry. */
  companions: string[];
}

export interface ListQuery {
  text?: string | undefined;
  format?: SourceFormat | undefined;
  limit?: number | undefined;
  includeChildren?: boolean | undefined;
}

function pathHash(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 8);
}

/** The id an unreadable file gets: its name, or its folder's for `session.json`-style layouts. */
function idFromPath(path: string): string {
  const name = basename(path);
  if (name === 'session.json') return basename(dirname(path));
  return name.slice(0, name.length - extname(name).length) || name;
}

function unreadableSummary(path: string, format: SourceFormat, reason: Unreadable, size: number, mtimeMs: number): SessionSummary {
  const id = idFromPath(path);
  return {
    key: `${format}:${id}`,
    id,
    format,
    title: basename(path),
    projectPath: null,
    projectName: null,
    branch: null,
    createdAt: null,
    updatedAt: new Date(mtimeMs).toISOString(),
    status: 'unknown',
    outcomeStatus: null,
    outcomeSummary: null,
    model: null,
    messageCount: 0,
    toolCallCount: 0,
    totalTokens: null,
    costUsd: null,
    parentKey: null,
    childCount: 0,
    warningCount: 0,
    primaryPath: path,
    size,
    mtimeMs,
    unreadable: reason,
  };
}

export class Catalogue {
  private readonly byPath = new Map<string, CatalogueEntry>();
  private readonly pathByKey = new Map<string, string>();
  private readonly ownersByCompanion = new Map<string, Set<string>>();

  get size(): number {
    return this.byPath.size;
  }

  /** Records a read result; returns the entry's key (suffixed with a path hash if the id is taken). */
  put(path: string, size: number, mtimeMs: number, result: SummaryResponse): string {
    const base = result.ok
      ? { ...result.summary, primaryPath: path }
      : unreadableSummary(path, result.format ?? 'vault', result.unreadable, size, mtimeMs);
    const previous = this.byPath.get(path);
    if (previous) {
      this.pathByKey.delete(previous.summary.key);
      this.forgetCompanions(previous);
    }
    const companions = result.ok ? result.companions : [];
    let key = base.key;
    const holder = this.pathByKey.get(key);
    if (holder !== undefined && holder !== path) key = `${base.key}~${pathHash(path)}`;
    const summary = { ...base, key };
    this.byPath.set(path, { path, size, mtimeMs, summary, companions });
    this.pathByKey.set(key, path);
    for (const c of companions) {
      const owners = this.ownersByCompanion.get(c) ?? new Set<string>();
      owners.add(path);
      this.ownersByCompanion.set(c, owners);
    }
    return key;
  }

  /** Forces the next freshness check to fail, so the file is read again although it did not change. */
  markStale(path: string): void {
    const entry = this.byPath.get(path);
    if (entry) entry.mtimeMs = -1;
  }

  /** Session files that were read together with this companion file. */
  ownersOf(companion: string): string[] {
    return [...(this.ownersByCompanion.get(companion) ?? [])];
  }

  private forgetCompanions(entry: CatalogueEntry): void {
    for (const c of entry.companions) {
      const owners = this.ownersByCompanion.get(c);
      owners?.delete(entry.path);
      if (owners && !owners.size) this.ownersByCompanion.delete(c);
    }
  }

  /** True when the file is unchanged since it was read, so a rescan can skip it. */
  isFresh(path: string, size: number, mtimeMs: number): boolean {
    const entry = this.byPath.get(path);
    return entry !== undefined && entry.size === size && entry.mtimeMs === mtimeMs;
  }

  remove(path: string): string | null {
    const entry = this.byPath.get(path);
    if (!entry) return null;
    this.forgetCompanions(entry);
    this.byPath.delete(path);
    this.pathByKey.delete(entry.summary.key);
    return entry.summary.key;
  }

  /** Removes every entry below a folder (a root was removed, or a session folder was deleted). */
  removeUnder(dir: string): string[] {
    const removed: string[] = [];
    for (const path of [...this.byPath.keys()]) {
      if (isWithin(dir, path)) {
        const key = this.remove(path);
        if (key) removed.push(key);
      }
    }
    return removed;
  }

  byKey(key: string): CatalogueEntry | undefined {
    const path = this.pathByKey.get(key);
    return path === undefined ? undefined : this.byPath.get(path);
  }

  entries(): IterableIterator<CatalogueEntry> {
    return this.byPath.values();
  }

  /** Keys of the sessions that name `key` as their parent (sub-agents), whatever their own file. */
  childrenOf(key: string): string[] {
    const keys: string[] = [];
    for (const { summary } of this.byPath.values()) if (summary.parentKey === key) keys.push(summary.key);
    return keys.sort();
  }

  list(query: ListQuery): { sessions: SessionSummary[]; total: number } {
    const needle = query.text?.trim().toLowerCase() ?? '';
    const childCounts = new Map<string, number>();
    for (const { summary } of this.byPath.values()) {
      if (summary.parentKey) childCounts.set(summary.parentKey, (childCounts.get(summary.parentKey) ?? 0) + 1);
    }
    const matches: SessionSummary[] = [];
    for (const { summary } of this.byPath.values()) {
      // A sub-agent is listed under its parent; one whose parent file is gone stays visible at top level.
      if (!query.includeChildren && summary.parentKey && this.pathByKey.has(summary.parentKey)) continue;
      const s = { ...summary, childCount: Math.max(summary.childCount, childCounts.get(summary.key) ?? 0) };
      if (query.format && s.format !== query.format) continue;
      if (needle) {
        const hay = [s.title, s.id, s.projectPath, s.projectName, s.branch, s.outcomeSummary, s.model, s.format]
          .filter(Boolean)
          .join('\n')
          .toLowerCase();
        if (!hay.includes(needle)) continue;
      }
      matches.push(s);
    }
    matches.sort((a, b) => sortTime(b) - sortTime(a) || a.key.localeCompare(b.key));
    const limit = query.limit ?? matches.length;
    return { sessions: matches.slice(0, limit), total: matches.length };
  }
}

function sortTime(s: SessionSummary): number {
  const t = Date.parse(s.updatedAt ?? s.createdAt ?? '');
  return Number.isNaN(t) ? s.mtimeMs : t;
}
