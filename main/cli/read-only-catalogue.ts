// The catalogue as a finished scan leaves it, rebuilt from the index file alone (read-only): what search-service.ts reads of an IndexedCatalogue, so the CLI's fast paths list and search with the app's own code.
import type { SessionSummary } from '../../shared/session.ts';
import type { CatalogueEntry, VaultKind } from '../catalogue/catalogue.ts';
import { hiddenPaths } from '../catalogue/hidden-paths.ts';
import type { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import type { IndexReads } from './read-only-index.ts';

type SummaryOf = (path: string, size: number, mtimeMs: number, result: SummaryResponse, key: string) => SessionSummary;

/** What search-service.ts reads of the catalogue; nothing else of IndexedCatalogue is there. */
export type CatalogueReads = Pick<IndexedCatalogue, 'index' | 'size' | 'entries' | 'hiddenPaths' | 'byKey' | 'keptCopy' | 'kindOf' | 'summariesOf'>;

/**
 * A list row from a stored read result, as catalogue.ts's summaryOf makes it. A readable file of its own (no `#`: not
 * a session inside a store) keeps its path as primaryPath; when the index holds other rows, summaryOf itself is
 * imported (it loads every reader, to tell a store's sessions from a file whose name holds `#`).
 */
export async function summaryMaker(needsCatalogue: boolean): Promise<SummaryOf> {
  if (needsCatalogue) {
    const { summaryOf } = await import('../catalogue/catalogue.ts');
    return summaryOf;
  }
  return (path, _size, _mtimeMs, result, key) => {
    if (!result.ok || path.includes('#')) throw new Error(`${path} needs the catalogue's summaryOf`);
    return { ...result.summary, primaryPath: path, key };
  };
}

/** Whether any indexed file is unreadable or may be a session inside a store: then rows need catalogue.ts's summaryOf. */
export function needsCatalogueSummaries(index: IndexReads): boolean {
  return (index.statement("SELECT EXISTS (SELECT 1 FROM files WHERE readable = 0 OR instr(path, '#') > 0) AS y").get() as { y: number }).y === 1;
}

/** An entry as a restore leaves it: facts only, its summary read through summariesOf (as an indexed catalogue's, once released). */
class StoredEntry implements CatalogueEntry {
  readonly store = null;
  readonly held = null;
  companions: string[] = [];
  written = 0;
  path: string;
  key: string;
  size: number;
  mtimeMs: number;
  parentKey: string | null;
  unreadable: boolean;
  closed: boolean;

  constructor(path: string, key: string, size: number, mtimeMs: number, parentKey: string | null, unreadable: boolean, closed: boolean) {
    this.path = path;
    this.key = key;
    this.size = size;
    this.mtimeMs = mtimeMs;
    this.parentKey = parentKey;
    this.unreadable = unreadable;
    this.closed = closed;
  }

  get summary(): SessionSummary {
    throw new Error('read through summariesOf');
  }
}

type FileRow = [path: string, key: string, size: number, mtimeMs: number, parentKey: string | null, readable: number, status: string | null];

/**
 * The catalogue a restore builds from the index (catalogue.ts: files in row order; a kept copy under its session's
 * key, the last one restored standing for it; every other file under its own key), for a scan that changed nothing.
 */
export function readOnlyCatalogue(
  index: IndexReads,
  isCovered: (path: string) => boolean,
  kindOf: (path: string) => VaultKind,
  summaryOf: SummaryOf,
): CatalogueReads {
  const byPath = new Map<string, CatalogueEntry>();
  const pathByKey = new Map<string, string>();
  const copyByKey = new Map<string, string>();
  const copies: string[] = [];
  const byParent = new Map<string, string[]>();
  const files = index.statement('SELECT path, key, size, mtime_ms, parent_key, readable, status FROM files ORDER BY id');
  // Rows as arrays: a third of the time of row objects (SessionIndex.storedFacts reads them so too).
  files.setReturnArrays(true);
  for (const [path, key, size, mtimeMs, parentKey, readable, status] of files.all() as unknown as FileRow[]) {
    // A restore drops files outside the folders read now (an earlier run's --root).
    if (!isCovered(path)) continue;
    const entry = new StoredEntry(path, key, size, mtimeMs, parentKey, readable === 0, status === 'closed');
    byPath.set(path, entry);
    if (parentKey) {
      const children = byParent.get(parentKey);
      if (children) children.push(path);
      else byParent.set(parentKey, [path]);
    }
    if (kindOf(path) === 'copy') {
      copyByKey.set(key, path);
      copies.push(path);
    }
    // A restore would give the second holder of a key another one (and write it): only a full start does that.
    else if (pathByKey.has(key)) throw new Error(`two files hold the key ${key}`);
    else pathByKey.set(key, path);
  }
  const entryAt = (path: string | undefined) => (path === undefined ? undefined : byPath.get(path));
  // As Catalogue.hiddenPaths works them out (hidden-paths.ts); this catalogue never changes.
  const hidden = hiddenPaths(
    copies,
    byParent,
    (path) => (byPath.get(path) as CatalogueEntry).key,
    (key) => pathByKey.get(key) ?? copyByKey.get(key),
  );
  return {
    // searchIndex and countFacets read through it; the stand-in has no writer behind it.
    index: index as IndexedCatalogue['index'],
    size: byPath.size,
    entries: () => byPath.values(),
    hiddenPaths: () => hidden,
    byKey: (key) => entryAt(pathByKey.get(key) ?? copyByKey.get(key)),
    keptCopy: (key) => entryAt(copyByKey.get(key)),
    kindOf,
    summariesOf(entries) {
      const results = index.storedResults(entries.map((e) => e.path));
      return entries.map((e) => {
        const result = results.get(e.path);
        if (!result) throw new Error(`The index holds no summary for ${e.path}.`);
        return summaryOf(e.path, e.size, e.mtimeMs, result, e.key);
      });
    },
  };
}
