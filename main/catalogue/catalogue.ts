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
  /** When it was written, in the catalogue's own count of writes (see `writes`). */
  written: number;
}

export interface ListQuery {
  text?: string | undefined;
  format?: SourceFormat | undefined;
  limit?: number | undefined;
  includeChildren?: boolean | undefined;
  starred?: boolean | undefined;
  kept?: boolean | undefined;
  tag?: string | undefined;
}

/** copy: a kept copy of a session that may also exist live; owned: a session only the vault has (a fork). */
export type VaultKind = 'copy' | 'owned' | null;

/** Adds what the catalogue does not know itself (annotations) before filtering. */
export type Decorate = (summary: SessionSummary) => SessionSummary;

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
    kept: false,
    sourceGone: false,
    starred: false,
    tags: [],
    hasNote: false,
    primaryPath: path,
    size,
    mtimeMs,
    unreadable: reason,
  };
}

export class Catalogue {
  private readonly byPath = new Map<string, CatalogueEntry>();
  private readonly pathByKey = new Map<string, string>();
  /** Kept copies by their session's key: listed only while no live file holds that key. */
  private readonly copyByKey = new Map<string, string>();
  private readonly vaultKind: (path: string) => VaultKind;
  private readonly annotationText: (key: string) => string;
  private readonly copyKeyOf: (path: string) => string | null;

  /**
   * `annotationText`: the user's own words about a session (its note), searched like its title.
   * `copyKeyOf`: the key a vault copy was kept under (an import `--as-copy` gets `<key>~copy-N`, unlike its reader's key).
   */
  constructor(vaultKind: (path: string) => VaultKind = () => null, annotationText: (key: string) => string = () => '', copyKeyOf: (path: string) => string | null = () => null) {
    this.vaultKind = vaultKind;
    this.annotationText = annotationText;
    this.copyKeyOf = copyKeyOf;
  }
  private readonly ownersByCompanion = new Map<string, Set<string>>();
  private writeCount = 0;

  get size(): number {
    return this.byPath.size;
  }

  /** How many entries have been written so far: a scan notes it at its start to know what came in meanwhile. */
  get writes(): number {
    return this.writeCount;
  }

  /** Records a read result; returns the entry's key (suffixed with a path hash if the id is taken). */
  put(path: string, size: number, mtimeMs: number, result: SummaryResponse): string {
    const base = result.ok
      ? { ...result.summary, primaryPath: path }
      : unreadableSummary(path, result.format ?? 'vault', result.unreadable, size, mtimeMs);
    const previous = this.byPath.get(path);
    if (previous) {
      this.forgetKey(previous);
      this.forgetCompanions(previous);
    }
    const companions = result.ok ? result.companions : [];
    const written = ++this.writeCount;
    if (this.vaultKind(path) === 'copy') {
      // A kept copy shares its session's key with the live file; it never takes a suffixed key of its own.
      const key = result.ok ? (this.copyKeyOf(path) ?? base.key) : base.key;
      this.byPath.set(path, { path, size, mtimeMs, summary: { ...base, key }, companions: [], written });
      this.copyByKey.set(key, path);
      return key;
    }
    let key = base.key;
    const holder = this.pathByKey.get(key);
    if (holder !== undefined && holder !== path) key = `${base.key}~${pathHash(path)}`;
    const summary = { ...base, key };
    this.byPath.set(path, { path, size, mtimeMs, summary, companions, written });
    this.pathByKey.set(key, path);
    for (const c of companions) {
      const owners = this.ownersByCompanion.get(c) ?? new Set<string>();
      owners.add(path);
      this.ownersByCompanion.set(c, owners);
    }
    return key;
  }

  private forgetKey(entry: CatalogueEntry): void {
    if (this.copyByKey.get(entry.summary.key) === entry.path) this.copyByKey.delete(entry.summary.key);
    if (this.pathByKey.get(entry.summary.key) === entry.path) this.pathByKey.delete(entry.summary.key);
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
    this.forgetKey(entry);
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

  /**
   * After a scan of `dir`: removes the entries it did not see, and returns their keys. An entry written
   * after the scan began (write number above `since`) stays: a watch event put it there, for a file
   * that appeared after the scan's walk had passed its folder.
   */
  removeUnseen(dir: string, seen: ReadonlySet<string>, since: number): string[] {
    const removed: string[] = [];
    for (const entry of [...this.byPath.values()]) {
      if (entry.written > since || seen.has(entry.path) || !isWithin(dir, entry.path)) continue;
      const key = this.remove(entry.path);
      if (key) removed.push(key);
    }
    return removed;
  }

  /** The live file for a key, or the vault's copy once the live file is gone. */
  byKey(key: string): CatalogueEntry | undefined {
    const path = this.pathByKey.get(key) ?? this.copyByKey.get(key);
    return path === undefined ? undefined : this.byPath.get(path);
  }

  /** The vault's copy of a session, if it has one. */
  keptCopy(key: string): CatalogueEntry | undefined {
    const path = this.copyByKey.get(key);
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

  list(query: ListQuery, decorate: Decorate = (s) => s): { sessions: SessionSummary[]; total: number } {
    const needle = query.text?.trim().toLowerCase() ?? '';
    const childCounts = new Map<string, number>();
    for (const { summary } of this.byPath.values()) {
      if (summary.parentKey) childCounts.set(summary.parentKey, (childCounts.get(summary.parentKey) ?? 0) + 1);
    }
    const matches: SessionSummary[] = [];
    for (const { path, summary } of this.byPath.values()) {
      const kind = this.vaultKind(path);
      // A kept session is listed once: live while its source exists, from the vault once it is gone.
      if (kind === 'copy' && this.pathByKey.has(summary.key)) continue;
      // A sub-agent is listed under its parent; one whose parent file is gone stays visible at top level.
      if (!query.includeChildren && summary.parentKey && (this.pathByKey.has(summary.parentKey) || this.copyByKey.has(summary.parentKey))) continue;
      const s = decorate({
        ...summary,
        childCount: Math.max(summary.childCount, childCounts.get(summary.key) ?? 0),
        kept: kind !== null || this.copyByKey.has(summary.key),
        sourceGone: kind === 'copy',
      });
      if (query.format && s.format !== query.format) continue;
      if (query.starred !== undefined && s.starred !== query.starred) continue;
      if (query.kept !== undefined && s.kept !== query.kept) continue;
      if (query.tag && !s.tags.includes(query.tag)) continue;
      if (needle) {
        const hay = [s.title, s.id, s.projectPath, s.projectName, s.branch, s.outcomeSummary, s.model, s.format, ...s.tags, this.annotationText(s.key)]
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
