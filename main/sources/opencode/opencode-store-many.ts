// Reads many sessions of an OpenCode store at once (a scan reads thousands): the batch's session rows in one query, each session's rows by the index without a sort in SQLite, each session handed on as soon as its rows are in.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SourceFile } from '../../../shared/session.ts';
import { WarningList } from '../coerce.ts';
import { withReadOnlyStore } from '../sqlite-file.ts';
import { quoteName } from '../store-rows.ts';
import { UnreadableError } from '../types.ts';
import { inReadOrder, type RowOrder } from './opencode-row-order.ts';
import type { OcRows } from './opencode-rows.ts';
import {
  messageRecords,
  partRecords,
  prepared,
  projectWorktree,
  readSessionRows,
  schemaOf,
  SESSION_WANTED,
  sessionInfo,
  storeSource,
  WANTED,
  type RowArray,
  type Schema,
} from './opencode-store.ts';

/**
 * The batch's ids as one parameter (a JSON array), so one prepared statement serves every batch size. Sessions are
 * sorted by id as bytes (COLLATE BINARY, whatever collation a column declares).
 */
const IN_BATCH = 'IN (SELECT value FROM json_each(?))';

/** What a batch hands each session's rows to: false stops the batch. */
type Each = (id: string, rows: OcRows | Error) => boolean | void;

/** The caller wants no more sessions of this batch. */
class Stopped extends Error {}

/** A table's rows of one session as a single session's read gives them: what to select, and in what order. */
interface SessionRows {
  statement: StatementSync;
  /** Null: the statement orders them itself. */
  order: RowOrder | null;
}

/** A table whose definition declares a collation: its ids may sort otherwise than by their bytes, so SQL orders them. */
function declaresCollation(db: DatabaseSync, table: string): boolean {
  const row = prepared(db, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql?: unknown } | undefined;
  return typeof row?.sql === 'string' && /\bcollate\b/i.test(row.sql);
}

/**
 * The rows of `table` for one session, in the index's order, put in a single read's order in JS (opencode-row-order.ts):
 * SQLite sorting each batch's rows cost more than reading them (10,000-session bench store: 530 -> 330 ms of CPU for
 * every message and part row). A table that declares a collation is ordered by SQL, as a single session's read does.
 */
function sessionRowsQuery(db: DatabaseSync, table: 'message' | 'part', columns: string[]): SessionRows {
  const byId = columns.includes('id');
  const byTime = table === 'message' && columns.includes('time_created');
  const select = ['_rowid_', ...WANTED.map((c) => (columns.includes(c) ? c : 'NULL'))].join(', ');
  const sqlOrders = declaresCollation(db, table);
  const key = byId ? 'id' : '_rowid_';
  const orderBy = sqlOrders ? ` ORDER BY ${byTime ? `time_created, ${key}` : key}` : '';
  const statement = prepared(db, `SELECT ${select} FROM ${table} WHERE session_id = ?${orderBy}`);
  statement.setReturnArrays(true);
  return { statement, order: sqlOrders ? null : { byId, byTime } };
}

function sessionRowsOf(query: SessionRows, id: string): RowArray[] {
  const rows = query.statement.all(id) as unknown as RowArray[];
  return query.order ? inReadOrder(rows, query.order) : rows;
}

/** The schema every OpenCode store since 1.2 has: a session table, and messages and parts that name their session. */
function batchable(schema: Schema): boolean {
  return !!schema.session?.includes('id') && !!schema.message?.includes('session_id') && !!schema.part?.includes('session_id');
}

/**
 * Each listed session of the batch in the store's id order: the session rows and sub-sessions of the whole batch in
 * one query each, then each session's messages and parts by the session id index (as cheap as one sweep of the batch's
 * rows, and only one session's rows held at a time).
 */
function readBatch(db: DatabaseSync, schema: Schema, ids: string[], source: SourceFile, each: (id: string, rows: OcRows | Error) => boolean): void {
  const sessionColumns = schema.session ?? [];
  const select = ['id', ...SESSION_WANTED.filter((c) => sessionColumns.includes(c))].map(quoteName).join(', ');
  const sessions = prepared(db, `SELECT ${select} FROM session WHERE id ${IN_BATCH} ORDER BY id COLLATE BINARY`).all(JSON.stringify(ids)) as Array<
    Record<string, unknown>
  >;
  const found = sessions.map((row) => row.id).filter((id): id is string => typeof id === 'string');
  const children = new Map<string, string[]>();
  if (sessionColumns.includes('parent_id')) {
    const rows = prepared(db, `SELECT parent_id, id FROM session WHERE parent_id ${IN_BATCH} ORDER BY parent_id, id`).all(JSON.stringify(found));
    for (const { parent_id: parent, id } of rows as Array<{ parent_id: unknown; id: unknown }>) {
      if (typeof parent !== 'string' || typeof id !== 'string') continue;
      const list = children.get(parent);
      if (list) list.push(id);
      else children.set(parent, [id]);
    }
  }
  const messageRows = sessionRowsQuery(db, 'message', schema.message ?? []);
  const partRows = sessionRowsQuery(db, 'part', schema.part ?? []);
  const worktrees = new Map<string | null, string | null>();
  for (const row of sessions) {
    // A session id that is not text is read on its own after the batch (oneByOne).
    if (typeof row.id !== 'string') continue;
    const id = row.id;
    const warnings = new WarningList();
    const session = sessionInfo(row, id);
    let worktree = worktrees.get(session.projectId);
    if (worktree === undefined) worktrees.set(session.projectId, (worktree = projectWorktree(db, schema, session.projectId)));
    // As a single session's read: its messages' warnings, then its parts'.
    const messages = messageRecords(sessionRowsOf(messageRows, id), warnings);
    const parts = partRecords(sessionRowsOf(partRows, id), warnings);
    if (!each(id, { session, id, worktree, messages, parts, childIds: children.get(id) ?? [], sourceFiles: [{ ...source }], warnings })) throw new Stopped();
  }
}

/**
 * Reads the sessions `ids` of the store, calling `each` once per id with its rows (as loadStoreSession gives them)
 * or the UnreadableError its read would throw, until `each` returns false. Sessions come in the store's id order, one
 * at a time, so a batch of long sessions holds no more than one of them parsed; a store of another schema generation
 * is read session by session.
 */
export async function loadStoreSessions(absPath: string, ids: readonly string[], label: string, each: Each): Promise<void> {
  const wanted = [...new Set(ids)];
  const done = new Set<string>();
  let stopped = false;
  const give = (id: string, rows: OcRows | Error): boolean => {
    // A read retried on a private copy of the store (sqlite-file.ts) gives again what it gave before it failed.
    if (stopped || done.has(id)) return !stopped;
    done.add(id);
    if (each(id, rows) === false) stopped = true;
    return !stopped;
  };
  let source: SourceFile;
  try {
    source = await storeSource(absPath, label);
  } catch (err) {
    for (const id of wanted) give(id, err as Error);
    return;
  }
  const oneByOne = (db: DatabaseSync, schema: Schema) => {
    for (const id of wanted) {
      if (stopped) return;
      if (done.has(id)) continue;
      let rows: OcRows | Error;
      try {
        rows = readSessionRows(db, schema, id, label, source);
      } catch (err) {
        // A failing statement fails the store's read, as it would fail each session's (sqlite-file.ts says why).
        if (!(err instanceof UnreadableError)) throw err;
        rows = err;
      }
      give(id, rows);
    }
  };
  try {
    await withReadOnlyStore(absPath, (db) => {
      const schema = schemaOf(db, label);
      if (!batchable(schema)) return oneByOne(db, schema);
      try {
        readBatch(db, schema, wanted, source, give);
      } catch (err) {
        if (err instanceof Stopped) return;
        throw err;
      }
      // Ids the store has no session row for.
      oneByOne(db, schema);
    });
  } catch (err) {
    // The store could not be opened or read: every session not given yet fails as its own read would.
    for (const id of wanted) give(id, err as Error);
  }
}
