// The persistent catalogue and full-text index: one row per session file, keyed by (path, size, mtime).
import { MAX_BACKLOG } from '../env/tuning.ts';
import { SEND_BYTES } from '../env/tuning.ts';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { UsageFacts } from './usage-facts.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import type { IndexText, PackedIndexText } from './index-text.ts';
import { opBytes, type WriteOp } from './index-write.ts';
import { InlineWriter } from './inline-writer.ts';
import { ThreadWriter, type IndexWriter } from './index-writer.ts';
import { openIndexDatabase } from './open-database.ts';
import { IndexTidy, tidyNeeded, type TidyLimits } from './index-tidy.ts';
import type { PendingCounts } from './pending-text.ts';
import { parseStoredResult, storedEntries, storedFactsOf, type StoredEntry, type StoredFacts } from './stored-rows.ts';

export type { StoredEntry, StoredFacts } from './stored-rows.ts';

export const INDEX_FILE_NAME = 'index.sqlite';

/** Changes wait this long so a scan's many files go over in one batch. */
const SEND_DELAY_MS = 20;

export class SessionIndex {
  readonly file: string;
  readonly note: string | null;
  /** Reads (searches, restore); writes go through `writer`, on its own thread for a file on disk. */
  private readonly db: DatabaseSync;
  private readonly writer: IndexWriter;
  private readonly pending = new Map<string, WriteOp>();
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly resultOf: StatementSync;
  private readonly resultsOf: StatementSync;
  private readonly statements = new Map<string, StatementSync>();
  private waiting: Array<() => void> = [];
  /** Scans listing now: what they write leaves its text for the catch-up (see beginListing). */
  private listing = 0;

  private readonly tidyLimits: TidyLimits | undefined;

  /** `tidyLimits`: for tests, when a merge of the full-text tables is due (index-tidy.ts). */
  constructor(file: string, note: string | null = null, tidyLimits?: TidyLimits) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.file = file;
    const opened = openIndexDatabase(file);
    this.db = opened.db;
    this.note = note ?? opened.note;
    this.resultOf = this.db.prepare('SELECT r.result AS result FROM files f JOIN results r ON r.id = f.id WHERE f.path = ?');
    this.resultsOf = this.db.prepare(
      'SELECT f.path AS path, r.result AS result FROM json_each(?) j JOIN files f ON f.path = j.value JOIN results r ON r.id = f.id',
    );
    const inline = () => new InlineWriter(this.db);
    this.tidyLimits = tidyLimits;
    this.writer = file === ':memory:' ? inline() : new ThreadWriter(file, inline, tidyLimits);
    this.writer.onCommit = () => this.wake();
    this.writer.onPending = (pending) => this.onTextPending(pending);
  }

  /** The index file inside the app's data dir; when even a fresh file cannot be made there, an in-memory index with a note. */
  static inDataDir(dataDir: string): SessionIndex {
    const file = join(dataDir, INDEX_FILE_NAME);
    try {
      return new SessionIndex(file);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return new SessionIndex(':memory:', `The search index cannot be stored at ${file} (${reason}); this run keeps it in memory.`);
    }
  }

  /** Whether the index's writer thread runs now (it is retired when idle, and its bulk writes merged first). */
  get writerThreadRunning(): boolean {
    return this.writer instanceof ThreadWriter && this.writer.threadRunning;
  }

  /** A write that failed since the start (the sessions stay listed; their text is not searchable). */
  get problem(): string | null {
    return this.writer.problem;
  }

  /** Corrects the key of a restored file when it came out differently (keys are assigned again at start). */
  setKeyIfChanged(entry: { path: string; key: string }, key: string): void {
    if (entry.key === key) return;
    const queued = this.pending.get(entry.path);
    if (queued?.kind === 'put') queued.key = key;
    else this.queue({ kind: 'key', path: entry.path, key });
  }

  /** Every stored file, for filling the in-memory catalogue at start without reading the files. */
  *entries(): Generator<StoredEntry> {
    this.flush();
    yield* storedEntries(this.db);
  }

  /** Every stored file's facts (no summaries parsed): a start lists 100,000 files from these in well under a second. */
  *storedFacts(): Generator<StoredFacts> {
    this.flush();
    yield* storedFactsOf(this.db);
  }

  /**
   * The stored read result of one file: from a queued write if there is one, else from the index file as last
   * committed (no flush: the catalogue asks only for files whose writes it knows are committed).
   */
  storedResult(path: string): SummaryResponse | null {
    const queued = this.pending.get(path);
    if (queued?.kind === 'put') return queued.result;
    if (queued?.kind === 'remove') return null;
    const row = this.resultOf.get(path) as { result: string } | undefined;
    return row ? parseStoredResult(row.result) : null;
  }

  /** The stored read results of many files in one read (queued writes first), by path; a missing file is left out. */
  storedResults(paths: readonly string[]): Map<string, SummaryResponse> {
    const out = new Map<string, SummaryResponse>();
    const ask: string[] = [];
    for (const path of paths) {
      const queued = this.pending.get(path);
      if (queued?.kind === 'put') out.set(path, queued.result);
      else if (queued?.kind !== 'remove') ask.push(path);
    }
    if (!ask.length) return out;
    for (const row of this.resultsOf.iterate(JSON.stringify(ask)) as Iterable<{ path: string; result: string }>) {
      // A damaged row is left out: the file is read again by the next scan.
      const result = parseStoredResult(row.result);
      if (result) out.set(row.path, result);
    }
    return out;
  }

  get count(): number {
    this.flush();
    return (this.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
  }

  /**
   * Records a read file (queued; written with the next batch). `text` null keeps the file listed but not searchable by
   * content; `textLater`: its text was not read (a command that only lists), and the next scan that reads text reads
   * the file again (`textUnreadPaths`).
   */
  put(
    path: string,
    size: number,
    mtimeMs: number,
    key: string,
    result: SummaryResponse,
    text: IndexText | PackedIndexText | null,
    usage?: UsageFacts,
    textLater = false,
  ): void {
    this.queue({ kind: 'put', path, size, mtimeMs, key, result, text, usage, ...(textLater ? { textLater } : {}) });
  }

  /** The files listed without their text (pending-text.ts, `putUnread`), queued writes included: a scan that reads text reads them again. */
  textUnreadPaths(): Set<string> {
    this.flush();
    const paths = new Set<string>();
    for (const row of this.prepared('SELECT f.path AS path FROM fts_pending p JOIN files f ON f.id = p.id WHERE p.more IS NULL').iterate() as Iterable<{
      path: string;
    }>)
      paths.add(row.path);
    return paths;
  }

  remove(path: string): void {
    this.queue({ kind: 'remove', path });
  }

  /** Resolves when there is room for more read files: scans wait on it so text never piles up in memory. */
  room(): Promise<void> {
    if (this.closed || this.backlog < MAX_BACKLOG) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Resolves once everything queued so far is in the index file (a scan is over only then). */
  async settled(): Promise<void> {
    this.send();
    while (!this.closed && this.writer.backlog > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private get backlog(): number {
    return this.pendingBytes + this.writer.backlog;
  }

  /** Paths whose latest change is not in the index file yet (queued here, or handed to the writer and not committed). */
  uncommittedPaths(): Set<string> {
    const paths = new Set(this.pending.keys());
    this.writer.uncommittedPaths(paths);
    return paths;
  }

  /** Called after each batch the writer commits. */
  onCommitted: () => void = () => undefined;

  private wake(): void {
    this.onCommitted();
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
    // Whoever still has no room waits again.
  }

  private queue(op: WriteOp): void {
    if (this.closed) return;
    const previous = this.pending.get(op.path);
    if (previous) this.pendingBytes -= opBytes(previous);
    // A re-put goes to the end, after any earlier change to the same path.
    this.pending.delete(op.path);
    this.pending.set(op.path, op);
    this.pendingBytes += opBytes(op);
    if (this.pendingBytes >= SEND_BYTES) this.send();
    else this.schedule();
  }

  private schedule(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.send();
    }, SEND_DELAY_MS);
    this.timer.unref();
  }

  private send(): void {
    if (this.closed || !this.pending.size) return;
    const ops = [...this.pending.values()];
    const bytes = this.pendingBytes;
    this.pending.clear();
    this.pendingBytes = 0;
    this.writer.write(ops, bytes, this.listing > 0);
  }

  /**
   * A scan starts listing: until it ends, the writer thread writes the list's rows and stored text only, and the
   * full-text tables take the text in the catch-up (catchUp, whenCaughtUp). Other writes are searchable once written.
   */
  beginListing(): void {
    this.send();
    this.listing++;
  }

  endListing(): void {
    if (this.listing === 0) return;
    this.send();
    this.listing--;
  }

  /** Ends the writer thread if it has nothing to do (a new one starts with the next write), returning its memory. */
  rest(): void {
    if (!this.closed && !this.pending.size) this.writer.rest();
  }

  /**
   * After a scan: the writer thread merges what the scan wrote unmerged (merge-mode.ts), or, when it wrote enough
   * text, all of the full-text tables, a step at a time between any new batches, so searches get faster
   * (index-tidy.ts). Cheap when nothing is due.
   */
  tidy(): void {
    if (this.closed) return;
    this.flush();
    if (tidyNeeded(this.db, this.tidyLimits)) this.writer.tidy();
  }

  /**
   * One merging step of the tidy pass due, if any, on this thread (~40 ms; one in 94 took 0.5 s on the 1 GB bench
   * corpus's index): for a one-shot command that never started the
   * writer thread. Starting it for the pass cost ~120 ms of the command's time (its start, then the close waiting for
   * it) and the close cut the pass after about as many steps. The rest waits for the next pass, as a pass cut short
   * does; a step that fails is rolled back and left to it too.
   */
  tidyStep(): void {
    if (this.closed) return;
    this.flush();
    const kind = tidyNeeded(this.db, this.tidyLimits);
    if (!kind) return;
    try {
      // A pass starts at the first table again: the steps that find a table done cost nothing and move on, up to the
      // first that merges (or the end of the pass), so each command's step goes on where the last one stopped.
      const tidy = new IndexTidy(this.db, this.tidyLimits, kind);
      while (tidy.step() && !tidy.merged);
    } catch {
      // Rolled back (index-tidy.ts): the next pass merges it.
    }
  }

  /** Resolves when no merge of the full-text tables runs (the bench waits for it before timing queries). */
  whenTidied(): Promise<void> {
    return this.writer.whenTidied();
  }

  /** Called when the counts of files whose words (or identifiers) are not indexed yet change (the status line says so). */
  onTextPending: (pending: PendingCounts) => void = () => undefined;

  /** Files listed whose words are not searchable yet, and whose identifiers are not, as the writer last said (none before it was asked). */
  get textPending(): PendingCounts {
    return this.writer.pendingText;
  }

  /** Whether the index file holds text waiting for the full-text tables (what earlier scans left, or a one-shot command). */
  private textWaits(): boolean {
    return this.db.prepare('SELECT EXISTS (SELECT 1 FROM fts_pending) OR EXISTS (SELECT 1 FROM idents_pending) AS y').get()?.y === 1;
  }

  /**
   * Text the scans left waiting goes into the full-text tables now, and from now on after every batch (the writer
   * thread, between batches; index-writer-thread.ts). A scan calls it once the list is complete.
   */
  catchUp(): void {
    if (this.closed) return;
    this.send();
    if (this.writer instanceof ThreadWriter) this.writer.catchUp(this.writer.threadRunning || this.textWaits());
    else this.writer.catchUp();
  }

  /** Resolves once every listed file's words are searchable (asking for the catch-up); identifiers may follow. */
  whenSearchable(): Promise<void> {
    return this.waitForText(true);
  }

  /** Resolves once every listed file's text is in the full-text tables, identifiers included (asking for the catch-up). */
  whenCaughtUp(): Promise<void> {
    return this.waitForText(false);
  }

  private async waitForText(words: boolean): Promise<void> {
    if (this.closed) return;
    this.flush();
    if (this.writer instanceof ThreadWriter && !this.writer.threadRunning && !this.textWaits()) {
      this.writer.catchUp(false);
      return;
    }
    await (words ? this.writer.whenSearchable() : this.writer.whenCaughtUp());
  }

  /** Writes every queued change now and waits for it (searches call it, so what was read is searchable at once). */
  flush(): void {
    if (this.closed) return;
    this.send();
    this.writer.sync();
  }

  /** A prepared read statement (cached), after queued writes are in: the search side queries through this. */
  statement(sql: string): StatementSync {
    this.flush();
    return this.prepared(sql);
  }

  /**
   * The same statement without waiting for the writer thread: for a caller that flushed once before several reads
   * (each flush waits for the writer's current step, a merge step after a scan: up to ~100 ms on a busy machine).
   */
  prepared(sql: string): StatementSync {
    let cached = this.statements.get(sql);
    if (!cached) {
      if (this.statements.size >= 200) this.statements.clear();
      cached = this.db.prepare(sql);
      this.statements.set(sql, cached);
    }
    return cached;
  }

  close(): void {
    if (this.closed) return;
    try {
      this.send();
      this.writer.close();
    } finally {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.wake();
      this.db.close();
    }
  }
}
