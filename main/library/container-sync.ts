// Keeps the sessions of a store that holds many (an agent's SQLite database) in step with it: lists the store, reads the sessions whose version changed, forgets the ones gone.
import { containedPath, versionStamp } from '../catalogue/contained-sessions.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';
import { statFile } from '../fs/stat-file.ts';
import type { ListResponse, SummariesResponse, SummaryResponse } from '../workers/read-protocol.ts';

export interface ContainerSyncDeps {
  catalogue: Catalogue;
  /** The store's listing, run in a read worker. */
  list(store: string, live: boolean): Promise<ListResponse>;
  /** Contained sessions' summaries (`ids` of `store`), read in one worker task. */
  summarizeMany(store: string, ids: string[], live: boolean): Promise<SummariesResponse>;
  /** Resolves when the index has room for more (a scan's backpressure). */
  room(): Promise<void>;
  stopped(): boolean;
  /** Called after each session a scan read (the main thread's garbage is collected every so many). */
  afterRead?(): void;
  /** A store that could not be listed for a passing reason (its writer holds a lock): its sessions stay listed. */
  onProblem(message: string): void;
}

export interface StoreChanges {
  changed: string[];
  removed: string[];
}

/**
 * Sessions of a store read in one worker task (summarizeMany): one read of the store for all of them and one message
 * back, instead of a task, a stat, five queries and a message each. 10,000-session bench store, A/B at load 3: every
 * session searchable after 6.9-7.1 s -> 4.8-5.6 s, CPU of all threads 11.7-12.1x -> 7.1-9.2x the floor's. Four
 * batches at once keep two scan workers' queues full (read-pool.ts queues one behind the one running).
 */
const BATCH = 32;
const BATCHES_IN_FLIGHT = 4;

/**
 * A store and its WAL as they were: a write lands in the WAL first, so the store's own mtime alone says too little.
 * An empty WAL is as good as none (a reader opening the store, the scan's own, makes one): it holds no write.
 */
async function fingerprint(store: string): Promise<string> {
  const [db, wal] = await Promise.all([statFile(store), statFile(`${store}-wal`)]);
  return `${db ? `${db.size}:${db.mtimeMs}` : '-'}|${wal?.size ? `${wal.size}:${wal.mtimeMs}` : '-'}`;
}

/** The fingerprint's WAL holds no write: what the store file says is all there is. */
const walEmpty = (fingerprint: string): boolean => fingerprint.endsWith('|-');

/** A batch's answer that lacks one of its sessions (a worker bug): the session is listed as unreadable, with why. */
function missingResult(id: number, sessionId: string): SummaryResponse {
  return { id, ok: false, format: null, unreadable: { code: 'wrong_shape', message: `The batch read did not answer for session ${sessionId}.` } };
}

export class ContainerSync {
  private readonly deps: ContainerSyncDeps;
  /** Each store's fingerprint when it was last listed in full: a scan skips a store unchanged since. */
  private readonly listedAt = new Map<string, string>();
  /** One sync per store at a time; a request while one runs waits for it, and requests meanwhile share one run. */
  private readonly running = new Map<string, Promise<StoreChanges>>();
  private readonly queued = new Map<string, Promise<StoreChanges>>();
  /** Stores whose queued run a watch event asked for (it lists the store whatever its fingerprint says). */
  private readonly queuedLive = new Set<string>();
  /**
   * Each store's last listing (version and its stamp by session id): while an agent writes, its store is listed again
   * and again, and only the sessions whose version moved need hashing (10,000 sessions: ~15 ms a listing less).
   */
  private readonly versions = new Map<string, Map<string, { version: string; stamp: number }>>();

  constructor(deps: ContainerSyncDeps) {
    this.deps = deps;
  }

  /**
   * Brings the store's sessions up to date. `live` (a watch event on the store or its WAL): re-lists it whatever its
   * fingerprint says unless nothing changed since its last full listing and its WAL holds no write, and reads in the
   * pool for live changes. Resolves with the keys read and the keys gone.
   */
  sync(store: string, live: boolean): Promise<StoreChanges> {
    const waiting = this.queued.get(store);
    if (waiting) {
      if (live) this.queuedLive.add(store);
      return waiting;
    }
    const current = this.running.get(store);
    if (!current) return this.start(store, live);
    if (live) this.queuedLive.add(store);
    const next = current
      .catch(() => undefined)
      .then(() => {
        this.queued.delete(store);
        const wasLive = this.queuedLive.delete(store);
        return this.start(store, wasLive);
      });
    this.queued.set(store, next);
    return next;
  }

  private start(store: string, live: boolean): Promise<StoreChanges> {
    const run = this.syncNow(store, live).finally(() => {
      if (this.running.get(store) === run) this.running.delete(store);
    });
    this.running.set(store, run);
    return run;
  }

  /** The store is gone: its sessions leave the list. */
  forget(store: string): string[] {
    this.listedAt.delete(store);
    this.versions.delete(store);
    const removed: string[] = [];
    const { catalogue } = this.deps;
    for (const path of [...catalogue.containedIn(store), ...(catalogue.has(store) ? [store] : [])]) {
      const key = catalogue.remove(path);
      if (key) removed.push(key);
    }
    return removed;
  }

  private async syncNow(store: string, live: boolean): Promise<StoreChanges> {
    const { catalogue } = this.deps;
    const seen = await fingerprint(store);
    // Unchanged since its last full listing: a scan passes it over, and so does a watch event while its WAL holds no
    // write (a reader opening the store, the scan's own included, makes an empty WAL or touches it without writing:
    // re-listing a 10,000-session store for that cost a worker's start and a listing query in every first scan).
    if (this.listedAt.get(store) === seen && (!live || walEmpty(seen))) return { changed: [], removed: [] };
    const info = await statFile(store);
    if (!info) return { changed: [], removed: this.forget(store) };
    const listing = await this.deps.list(store, live);
    if (this.deps.stopped()) return { changed: [], removed: [] };
    if (!listing.ok) return this.unlisted(store, info, listing);
    const changed: string[] = [];
    const removed: string[] = [];
    // The store was listed as unreadable before: its sessions replace that entry.
    const storeKey = catalogue.has(store) ? catalogue.remove(store) : null;
    if (storeKey) removed.push(storeKey);
    const listed = new Set<string>();
    const stale: Array<{ id: string; path: string; stamp: number }> = [];
    const before = this.versions.get(store);
    const now = new Map<string, { version: string; stamp: number }>();
    for (const { id, version } of listing.sessions) {
      const path = containedPath(store, id);
      listed.add(path);
      const known = before?.get(id);
      const stamp = known?.version === version ? known.stamp : versionStamp(version);
      now.set(id, { version, stamp });
      if (!catalogue.isFreshContained(path, stamp)) stale.push({ id, path, stamp });
    }
    this.versions.set(store, now);
    for (const path of catalogue.containedIn(store)) {
      if (listed.has(path)) continue;
      const key = catalogue.remove(path);
      if (key) removed.push(key);
    }
    const put = (item: { path: string; stamp: number }, result: SummaryResponse) => {
      changed.push(catalogue.put(item.path, item.stamp, info.mtimeMs, result));
      if (!live) this.deps.afterRead?.();
    };
    let next = 0;
    const readBatches = async (): Promise<void> => {
      while (next < stale.length && !this.deps.stopped()) {
        const batch = stale.slice(next, (next = Math.min(next + BATCH, stale.length)));
        if (!live) await this.deps.room();
        const response = await this.deps.summarizeMany(
          store,
          batch.map((item) => item.id),
          live,
        );
        if (this.deps.stopped()) return;
        batch.forEach((item, i) => {
          // A batch the worker could not read at all (no reader lists the store now) fails each of its sessions with the reason.
          if (!response.ok) return put(item, response);
          const result = response.results[i];
          // Left unread (the batch's text reached its budget): asked again in a later batch.
          if (result === null) stale.push(item);
          else put(item, result ?? missingResult(response.id, item.id));
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCHES_IN_FLIGHT, Math.ceil(stale.length / BATCH)) }, readBatches));
    // Listed in full: the next scan skips the store until it or its WAL changes. (A write during this sync changed the
    // fingerprint taken before it, so that scan lists the store again.)
    if (!this.deps.stopped()) this.listedAt.set(store, seen);
    return { changed, removed };
  }

  /**
   * A store that cannot be listed. Locked by its writer (io_error) while its sessions are listed: they stay, and the
   * next change or scan tries again. Otherwise (no such store, damaged) the store is listed as unreadable, with the reason.
   */
  private unlisted(store: string, info: { size: number; mtimeMs: number }, failure: Extract<ListResponse, { ok: false }>): StoreChanges {
    const { catalogue } = this.deps;
    this.listedAt.delete(store);
    this.versions.delete(store);
    if (failure.unreadable.code === 'io_error' && catalogue.containedIn(store).length) {
      this.deps.onProblem(`${store} could not be read just now (${failure.unreadable.message}); its sessions are listed as they were.`);
      return { changed: [], removed: [] };
    }
    const removed: string[] = [];
    for (const path of catalogue.containedIn(store)) {
      const key = catalogue.remove(path);
      if (key) removed.push(key);
    }
    return { changed: [catalogue.put(store, info.size, info.mtimeMs, failure)], removed };
  }
}
