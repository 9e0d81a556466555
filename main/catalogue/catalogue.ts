// The in-memory catalogue: one summary per session file, unique keys, and the list query over them.
import type { SessionSummary, SourceFormat } from '../../shared/session.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import { isWithin } from '../roots/paths.ts';
import { pathHash, summaryOf } from './catalogue-summary.ts';
export { summaryOf } from './catalogue-summary.ts';
import { Entry, factsOf, type CatalogueEntry, type EntryFacts } from './catalogue-entry.ts';
export type { CatalogueEntry, EntryFacts } from './catalogue-entry.ts';
import { HiddenPathBookkeeping } from './hidden-path-bookkeeping.ts';
import type { HiddenPaths } from './hidden-paths.ts';

export interface ListQuery {
  text?: string | undefined;
  format?: SourceFormat | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  includeChildren?: boolean | undefined;
  starred?: boolean | undefined;
  kept?: boolean | undefined;
  tag?: string | undefined;
  keys?: string[] | undefined;
}

/** copy: a kept copy of a session that may also exist live; owned: a session only the vault has (a fork). */
export type VaultKind = 'copy' | 'owned' | null;

/** Adds what the catalogue does not know itself (annotations) before filtering. */
export type Decorate = (summary: SessionSummary) => SessionSummary;

/** The path hash a key carries when another file holds its session's plain key, or its file lies outside its tool's folders. */
export const PATH_SUFFIX = /~[0-9a-f]{8}$/;

export class Catalogue {
  private readonly byPath = new Map<string, Entry>();
  private readonly pathByKey = new Map<string, string>();
  /** Kept copies by their session's key: listed only while no live file holds that key. */
  private readonly copyByKey = new Map<string, string>();
  private readonly vaultKind: (path: string) => VaultKind;
  private readonly annotationText: (key: string) => string;
  private readonly copyKeyOf: (path: string) => string | null;
  protected readonly outsideLayout: (path: string, key: string) => boolean;

  /**
   * `annotationText`: the user's own words about a session (its note), searched like its title.
   * `copyKeyOf`: the key a vault copy was kept under (an import `--as-copy` gets `<key>~copy-N`, unlike its reader's key).
   * `outsideLayout`: the file lies outside its tool's own folders (outside-layout.ts): it is keyed by its path too.
   */
  constructor(
    vaultKind: (path: string) => VaultKind = () => null,
    annotationText: (key: string) => string = () => '',
    copyKeyOf: (path: string) => string | null = () => null,
    outsideLayout: (path: string, key: string) => boolean = () => false,
  ) {
    this.vaultKind = vaultKind;
    this.annotationText = annotationText;
    this.copyKeyOf = copyKeyOf;
    this.outsideLayout = outsideLayout;
  }
  private readonly ownersByCompanion = new Map<string, Set<string>>();
  /** Contained sessions' paths by their store: what a store's listing is compared with. */
  private readonly byStore = new Map<string, Set<string>>();
  /** Kept copies and sub-agents by parent, and what the list hides, kept until a put or remove can change it. */
  private readonly hidden = new HiddenPathBookkeeping({
    keyAt: (path) => (this.byPath.get(path) as Entry).key,
    listedPath: (key) => this.pathByKey.get(key) ?? this.copyByKey.get(key),
    hasCopy: (key) => this.copyByKey.has(key),
  });
  private writeCount = 0;
  private removalCount = 0;

  get size(): number {
    return this.byPath.size;
  }

  /** How many entries have been written so far: a scan notes it at its start to know what came in meanwhile. */
  get writes(): number {
    return this.writeCount;
  }

  /**
   * How many removals have been asked for so far (of any path, listed or not): a read notes it at its start, and
   * only when it moved meanwhile can the file read have been seen to go (library-sync.ts, goneWhileRead).
   */
  get removals(): number {
    return this.removalCount;
  }

  /** Records a read result; returns the entry's key (suffixed with a path hash if the id is taken). */
  put(path: string, size: number, mtimeMs: number, result: SummaryResponse): string {
    const kind = this.vaultKind(path);
    const companions = result.ok && kind !== 'copy' ? result.companions : [];
    const base = summaryOf(path, size, mtimeMs, result);
    const key = this.assignKey(path, base.key, result.ok && kind === 'copy' ? this.copyKeyOf(path) : null, kind);
    const summary = { ...base, key };
    this.add(new Entry(path, size, mtimeMs, factsOf(summary), companions, ++this.writeCount, summary, this.loader), kind);
    return key;
  }

  /**
   * Records an entry from what was stored about it earlier, without its summary (the loader brings that when asked).
   * The stored key is kept: it was unique when it was given. `checkLayout`: the key may predate the rule for files
   * outside their tool's folders, so it is given again by it (asks the readers about the path: ~4.5 µs a file).
   */
  protected putStored(path: string, size: number, mtimeMs: number, facts: EntryFacts, companions: string[], checkLayout = true): string {
    const kind = this.vaultKind(path);
    const key = this.assignKey(path, facts.key, null, kind, checkLayout);
    this.add(
      new Entry(
        path,
        size,
        mtimeMs,
        { key, parentKey: facts.parentKey, unreadable: facts.unreadable, closed: facts.closed },
        kind === 'copy' ? [] : companions,
        ++this.writeCount,
        null,
        this.loader,
      ),
      kind,
    );
    return key;
  }

  /** How an entry whose summary is not held gets it back; only an indexed catalogue lets go of summaries. */
  protected loadSummary(entry: CatalogueEntry): SessionSummary {
    throw new Error(`The summary of ${entry.path} is not held in memory.`);
  }

  private readonly loader = (entry: Entry): SessionSummary => this.loadSummary(entry);

  /** Lets go of the summary an entry holds (it can be loaded again); false when it held none. */
  protected dropHeld(path: string): boolean {
    const entry = this.byPath.get(path);
    if (!entry?.held) return false;
    entry.held = null;
    return true;
  }

  private assignKey(path: string, wanted: string, copyKey: string | null, kind: VaultKind, checkLayout = true): string {
    const previous = this.byPath.get(path);
    if (previous) {
      this.forgetKey(previous);
      this.forgetCompanions(previous);
    }
    // A kept copy shares its session's key with the live file; it never takes a suffixed key of its own.
    if (kind === 'copy') return copyKey ?? wanted;
    // A file outside its tool's folders (a loose copy) is always keyed by its path too: the tool's own file of the
    // same session keeps the plain key, its sub-agents stay linked to it, whichever file a scan happened to read first.
    const suffixed = () => `${wanted.replace(PATH_SUFFIX, '')}~${pathHash(path)}`;
    if (kind === null && checkLayout && this.outsideLayout(path, wanted)) return suffixed();
    const holder = this.pathByKey.get(wanted);
    if (holder !== undefined && holder !== path) return suffixed();
    return wanted;
  }

  /**
   * Gives an entry another key (restore's repair of keys given before outside-layout files were keyed by their path);
   * false when the key is taken or the entry is not listed under its own.
   */
  protected rekey(path: string, key: string): boolean {
    const entry = this.byPath.get(path);
    if (!entry || this.pathByKey.has(key) || this.pathByKey.get(entry.key) !== path) return false;
    this.drop(path);
    const facts = { key, parentKey: entry.parentKey, unreadable: entry.unreadable, closed: entry.closed };
    const held = entry.held ? { ...entry.held, key } : null;
    this.add(new Entry(path, entry.size, entry.mtimeMs, facts, entry.companions, ++this.writeCount, held, this.loader), null);
    return true;
  }

  private add(entry: Entry, kind: VaultKind): void {
    this.hidden.put(entry, this.byPath.get(entry.path), kind === 'copy');
    this.byPath.set(entry.path, entry);
    if (entry.store) {
      const members = this.byStore.get(entry.store) ?? new Set<string>();
      members.add(entry.path);
      this.byStore.set(entry.store, members);
    }
    if (kind === 'copy') {
      this.copyByKey.set(entry.key, entry.path);
      return;
    }
    this.pathByKey.set(entry.key, entry.path);
    for (const c of entry.companions) {
      const owners = this.ownersByCompanion.get(c) ?? new Set<string>();
      owners.add(entry.path);
      this.ownersByCompanion.set(c, owners);
    }
  }

  private forgetKey(entry: CatalogueEntry): void {
    if (this.copyByKey.get(entry.key) === entry.path) this.copyByKey.delete(entry.key);
    if (this.pathByKey.get(entry.key) === entry.path) this.pathByKey.delete(entry.key);
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

  has(path: string): boolean {
    return this.byPath.has(path);
  }

  /** The paths of the sessions listed from a store (contained-sessions.ts). */
  containedIn(store: string): string[] {
    return [...(this.byStore.get(store) ?? [])];
  }

  /** True when a contained session was read at this version stamp (and not marked to be read again since). */
  isFreshContained(path: string, stamp: number): boolean {
    const entry = this.byPath.get(path);
    return entry !== undefined && entry.size === stamp && entry.mtimeMs >= 0;
  }

  remove(path: string): string | null {
    this.removalCount++;
    return this.drop(path);
  }

  private drop(path: string): string | null {
    const entry = this.byPath.get(path);
    if (!entry) return null;
    this.hidden.remove(entry);
    this.forgetCompanions(entry);
    if (entry.store) {
      const members = this.byStore.get(entry.store);
      members?.delete(path);
      if (members && !members.size) this.byStore.delete(entry.store);
    }
    this.byPath.delete(path);
    this.forgetKey(entry);
    return entry.key;
  }

  /** Removes every entry below a folder (a root was removed, or a session folder was deleted). */
  removeUnder(dir: string): string[] {
    this.removalCount++;
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
    this.removalCount++;
    // Picked first, removed after: no copy of 100,000 entries for a scan that removes none.
    const unseen: string[] = [];
    for (const entry of this.byPath.values()) {
      // A contained session is seen with its store; the store's listing removes the sessions it no longer has.
      if (entry.written <= since && !seen.has(entry.store ?? entry.path) && isWithin(dir, entry.path)) unseen.push(entry.path);
    }
    const removed: string[] = [];
    for (const path of unseen) {
      const key = this.remove(path);
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

  /**
   * What the list does not show at top level (hidden-paths.ts), worked out again only after a put or remove that can change
   * it (the same object until then): shadowed kept copies, sub-agents listed under their parent, and each parent's count.
   */
  hiddenPaths(): HiddenPaths {
    return this.hidden.hiddenPaths();
  }

  /** The parent keys that entries name, each with how many sessions name it (a kept copy and its file are one; whether or not the parent is here). */
  childCounts(): ReadonlyMap<string, number> {
    return this.hiddenPaths().childCounts;
  }

  /** Keys of the sessions that name `key` as their parent (sub-agents), whatever their own file. */
  childrenOf(key: string): string[] {
    return this.hidden.childKeys(key);
  }

  list(query: ListQuery, decorate: Decorate = (s) => s): { sessions: SessionSummary[]; total: number } {
    const needle = query.text?.trim().toLowerCase() ?? '';
    // What the index's list hides, hidden here too (hidden-paths.ts): a kept session is listed once (live while its
    // source exists, then by the copy that stands for it); a sub-agent under its parent, at top level once that is gone.
    const hidden = this.hiddenPaths();
    const shadowed = new Set(hidden.shadowed);
    const children = query.includeChildren ? null : new Set(hidden.children);
    const matches: SessionSummary[] = [];
    for (const { path, summary } of this.byPath.values()) {
      if (shadowed.has(path) || children?.has(path)) continue;
      const kind = this.vaultKind(path);
      const s = decorate({
        ...summary,
        childCount: Math.max(summary.childCount, hidden.childCounts.get(summary.key) ?? 0),
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
    // Unreadable files last: their mtime is no session's time, and a broken file must not sit above every real session.
    matches.sort((a, b) => Number(a.unreadable !== null) - Number(b.unreadable !== null) || sortTime(b) - sortTime(a) || a.key.localeCompare(b.key));
    const offset = query.offset ?? 0;
    return { sessions: matches.slice(offset, offset + (query.limit ?? matches.length)), total: matches.length };
  }
}

function sortTime(s: SessionSummary): number {
  const t = Date.parse(s.updatedAt ?? s.createdAt ?? '');
  return Number.isNaN(t) ? s.mtimeMs : t;
}
