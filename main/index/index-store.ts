// The persistent catalogue and full-text index: one row per session file, keyed by (path, size, mtime).
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SessionSummary } from '../../shared/session.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import type { IndexText } from './index-text.ts';
import { openIndexDatabase } from './open-database.ts';
import { parseQuery, type ParsedQuery } from './query-parser.ts';
import { buildSearchSql } from './search.ts';
import { locateMatch, type SnippetPart } from './snippet.ts';

export const INDEX_FILE_NAME = 'index.sqlite';

/** What a restart needs to list a file without reading it again. */
export interface StoredEntry {
  path: string;
  key: string;
  size: number;
  mtimeMs: number;
  result: SummaryResponse;
}

export interface SearchOptions {
  limit?: number;
  offset?: number;
  /** Default: relevance when the query has words, date otherwise. */
  sort?: 'relevance' | 'date';
  /** Post-filter for what only the caller knows (stars, tags, kept copies); false drops the file. */
  accept?: (hit: { path: string; key: string }) => boolean;
}

export interface SearchHit {
  path: string;
  key: string;
  /** bm25 score (lower is better), null when the match was only a substring inside an identifier or a filter. */
  score: number | null;
  messageIndex: number | null;
  snippet: SnippetPart[];
}

export interface SearchPage {
  hits: SearchHit[];
  total: number;
  problems: string[];
}

interface PendingPut {
  kind: 'put';
  path: string;
  size: number;
  mtimeMs: number;
  key: string;
  result: SummaryResponse;
  text: IndexText | null;
}

const timeOf = (iso: string | null): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

/** Writes wait this long so a scan's many files go in one transaction. */
const FLUSH_DELAY_MS = 40;
/** Bytes of text per transaction before yielding, so the main thread stays responsive while a scan indexes. */
const FLUSH_TEXT_BUDGET = 8 * 1024 * 1024;

export class SessionIndex {
  readonly file: string;
  readonly note: string | null;
  private readonly db: DatabaseSync;
  private readonly pending = new Map<string, PendingPut | { kind: 'remove'; path: string }>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly upsert: StatementSync;
  private readonly deleteDoc: StatementSync;
  private readonly insertDoc: StatementSync;
  private readonly deleteIdents: StatementSync;
  private readonly insertIdents: StatementSync;
  private readonly idOf: StatementSync;
  private readonly deleteFile: StatementSync;
  private readonly docOf: StatementSync;

  constructor(file: string, note: string | null = null) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.file = file;
    const opened = openIndexDatabase(file);
    this.db = opened.db;
    this.note = note ?? opened.note;
    this.upsert = this.db.prepare(`
      INSERT INTO files (path, size, mtime_ms, key, format, project, branch, status, outcome, model, created_ms, updated_ms, time_ms, tokens, cost, has_summary, result)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, key = excluded.key, format = excluded.format,
        project = excluded.project, branch = excluded.branch, status = excluded.status, outcome = excluded.outcome, model = excluded.model,
        created_ms = excluded.created_ms, updated_ms = excluded.updated_ms, time_ms = excluded.time_ms, tokens = excluded.tokens,
        cost = excluded.cost, has_summary = excluded.has_summary, result = excluded.result
      RETURNING id`);
    this.deleteDoc = this.db.prepare('DELETE FROM docs WHERE rowid = ?');
    this.insertDoc = this.db.prepare('INSERT INTO docs (rowid, title, body, meta) VALUES (?, ?, ?, ?)');
    this.deleteIdents = this.db.prepare('DELETE FROM idents WHERE rowid = ?');
    this.insertIdents = this.db.prepare('INSERT INTO idents (rowid, text) VALUES (?, ?)');
    this.idOf = this.db.prepare('SELECT id FROM files WHERE path = ?');
    this.deleteFile = this.db.prepare('DELETE FROM files WHERE id = ?');
    this.docOf = this.db.prepare('SELECT title, body, meta FROM docs WHERE rowid = ?');
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

  /** Corrects the key of a restored file when it came out differently (keys are assigned again at start). */
  setKeyIfChanged(entry: StoredEntry, key: string): void {
    if (entry.key === key) return;
    this.db.prepare('UPDATE files SET key = ? WHERE path = ?').run(key, entry.path);
  }

  /** Keys of every file a query matches (for the list's text box), with no snippets. */
  matchingKeys(query: string): Set<string> {
    this.flush();
    const parsed = parseQuery(query);
    const built = buildSearchSql(parsed, 'date');
    const keys = new Set<string>();
    if (!built) return keys;
    for (const row of this.db.prepare(built.sql).iterate(...built.params) as Iterable<{ key: string }>) keys.add(row.key);
    return keys;
  }

  /** Every stored file, for filling the in-memory catalogue at start without reading the files. */
  *entries(): Generator<StoredEntry> {
    this.flush();
    for (const row of this.db.prepare('SELECT path, key, size, mtime_ms, result FROM files ORDER BY id').all() as Array<{ path: string; key: string; size: number; mtime_ms: number; result: string }>) {
      let result: SummaryResponse;
      try {
        result = JSON.parse(row.result) as SummaryResponse;
      } catch {
        continue; // a damaged row is simply read again by the next scan
      }
      yield { path: row.path, key: row.key, size: row.size, mtimeMs: row.mtime_ms, result };
    }
  }

  get count(): number {
    this.flush();
    return (this.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
  }

  /** Records a read file (queued; written with the next batch). `text` null keeps the file listed but not searchable by content. */
  put(path: string, size: number, mtimeMs: number, key: string, result: SummaryResponse, text: IndexText | null): void {
    this.pending.set(path, { kind: 'put', path, size, mtimeMs, key, result, text });
    this.schedule();
  }

  remove(path: string): void {
    this.pending.set(path, { kind: 'remove', path });
    this.schedule();
  }

  private schedule(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushSome(FLUSH_TEXT_BUDGET);
      if (this.pending.size) this.schedule();
    }, FLUSH_DELAY_MS);
    this.timer.unref();
  }

  /** Writes every queued change now (searches call it, so what was read is searchable at once). */
  flush(): void {
    while (this.pending.size && !this.closed) this.flushSome(Number.POSITIVE_INFINITY);
  }

  private flushSome(budget: number): void {
    if (this.closed || !this.pending.size) return;
    let used = 0;
    this.db.exec('BEGIN');
    try {
      for (const [path, op] of this.pending) {
        this.pending.delete(path);
        if (op.kind === 'remove') this.removeNow(path);
        else used += this.putNow(op);
        if (used >= budget) break;
      }
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  private removeNow(path: string): void {
    const row = this.idOf.get(path) as { id: number } | undefined;
    if (!row) return;
    this.deleteDoc.run(row.id);
    this.deleteIdents.run(row.id);
    this.deleteFile.run(row.id);
  }

  private putNow(op: PendingPut): number {
    const s: SessionSummary | null = op.result.ok ? op.result.summary : null;
    const created = timeOf(s?.createdAt ?? null);
    const updated = timeOf(s?.updatedAt ?? null);
    const row = this.upsert.get(
      op.path,
      op.size,
      op.mtimeMs,
      op.key,
      s?.format ?? (op.result.ok ? null : op.result.format),
      s ? [s.projectName, s.projectPath].filter(Boolean).join('\n') : null,
      s?.branch ?? null,
      s?.status ?? null,
      s?.outcomeStatus ?? null,
      s?.model ?? null,
      created,
      updated,
      updated ?? created ?? Math.round(op.mtimeMs),
      s?.totalTokens ?? null,
      s?.costUsd ?? null,
      s?.outcomeSummary ? 1 : 0,
      JSON.stringify(op.result),
    ) as { id: number };
    this.deleteDoc.run(row.id);
    this.deleteIdents.run(row.id);
    const text = op.text ?? { title: s?.title ?? '', body: '', meta: s ? [s.id, s.projectPath, s.branch].filter(Boolean).join('\n') : op.path, idents: '' };
    this.insertDoc.run(row.id, text.title, text.body, text.meta);
    if (text.idents) this.insertIdents.run(row.id, text.idents);
    return text.body.length + text.meta.length + text.idents.length;
  }

  search(query: string | ParsedQuery, options: SearchOptions = {}): SearchPage {
    this.flush();
    const parsed = typeof query === 'string' ? parseQuery(query) : query;
    const sort = options.sort ?? parsed.sort ?? (parsed.terms.some((t) => !t.negated) ? 'relevance' : 'date');
    const built = buildSearchSql(parsed, sort);
    if (!built) return { hits: [], total: 0, problems: parsed.problems };
    const offset = options.offset ?? 0;
    const limit = options.limit ?? 50;
    const page: Array<{ id: number; path: string; key: string; score: number | null }> = [];
    let total = 0;
    for (const row of this.db.prepare(built.sql).iterate(...built.params) as Iterable<{ id: number; path: string; key: string; score: number | null }>) {
      if (options.accept && !options.accept(row)) continue;
      if (total >= offset && page.length < limit) page.push({ ...row });
      total++;
    }
    const hits = page.map((row): SearchHit => {
      const doc = this.docOf.get(row.id) as { title: string; body: string; meta: string } | undefined;
      const where = doc ? locateMatch(doc, parsed.terms) : { messageIndex: null, snippet: [] };
      return { path: row.path, key: row.key, score: row.score, ...where };
    });
    return { hits, total, problems: parsed.problems };
  }

  close(): void {
    if (this.closed) return;
    try {
      this.flush();
    } finally {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.db.close();
    }
  }
}
