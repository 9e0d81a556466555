// Reads many sessions of an OpenCode store in one pass (a scan reads thousands): one query per table for the whole batch, each session handed on as soon as its rows are in.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SourceFile } from '../../../shared/session.ts';
import { WarningList } from '../coerce.ts';
import { withReadOnlyStore } from '../sqlite-file.ts';
import { quoteName } from '../store-rows.ts';
import { UnreadableError } from '../types.ts';
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

/** A message or part row of a batch: the row a single session's read gives, then the session it belongs to. */
type BatchRow = [...RowArray, sessionId: unknown];

/**
 * The batch's ids as one parameter (a JSON array), so one prepared statement serves every batch size. Sessions and
 * their rows are both sorted by id as bytes (COLLATE BINARY, whatever collation a column declares), so the rows of
 * each session come together and in the sessions' order.
 */
const IN_BATCH = 'IN (SELECT value FROM json_each(?))';

/** Rows of `table` for the batch's sessions, grouped by session and, within one, in the order a single session's read gives them. */
function batchRowQuery(db: DatabaseSync, table: 'message' | 'part', columns: string[]): StatementSync {
  const key = columns.includes('id') ? 'id' : '_rowid_';
  const order = table === 'message' && columns.includes('time_created') ? `time_created, ${key}` : key;
  const select = ['_rowid_', ...WANTED.map((c) => (columns.includes(c) ? c : 'NULL')), 'session_id'].join(', ');
  const statement = prepared(db, `SELECT ${select} FROM ${table} WHERE session_id ${IN_BATCH} ORDER BY session_id COLLATE BINARY, ${order}`);
  statement.setReturnArrays(true);
  return statement;
}

/** The schema every OpenCode store since 1.2 has: a session table, and messages and parts that name their session. */
function batchable(schema: Schema): boolean {
  return !!schema.session?.includes('id') && !!schema.message?.includes('session_id') && !!schema.part?.includes('session_id');
}

/** A row came in an order the batch did not expect (a store whose ids are not text): its sessions are read one by one. */
class OutOfOrder extends Error {}

/** The caller wants no more sessions of this batch. */
class Stopped extends Error {}

/** What a batch hands each session's rows to: false stops the batch. */
type Each = (id: string, rows: OcRows | Error) => boolean | void;

/**
 * Takes the rows of one session from a batch's rows, which are grouped by session in the order of `index`; a row of a
 * session `index` does not hold, or of one already passed, means the grouping cannot be trusted.
 */
function takeRows(rows: Iterator<BatchRow>, head: { row: IteratorResult<BatchRow> }, index: Map<string, number>, at: number): RowArray[] {
  const own: RowArray[] = [];
  while (!head.row.done) {
    const row = head.row.value;
    const owner = typeof row[5] === 'string' ? index.get(row[5]) : undefined;
    if (owner === undefined || owner < at) throw new OutOfOrder();
    if (owner > at) break;
    own.push(row as unknown as RowArray);
    head.row = rows.next();
  }
  return own;
}

/** Each listed session of the batch in the store's id order, its rows read by one query per table. */
function readBatch(db: DatabaseSync, schema: Schema, ids: string[], source: SourceFile, each: (id: string, rows: OcRows | Error) => boolean): void {
  const sessionColumns = schema.session ?? [];
  const select = ['id', ...SESSION_WANTED.filter((c) => sessionColumns.includes(c))].map(quoteName).join(', ');
  const sessions = prepared(db, `SELECT ${select} FROM session WHERE id ${IN_BATCH} ORDER BY id COLLATE BINARY`).all(JSON.stringify(ids)) as Array<
    Record<string, unknown>
  >;
  const found = sessions.map((row) => row.id).filter((id): id is string => typeof id === 'string');
  const index = new Map(found.map((id, i) => [id, i]));
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
  const inFound = JSON.stringify(found);
  const messageRows = (batchRowQuery(db, 'message', schema.message ?? []).iterate(inFound) as unknown as Iterable<BatchRow>)[Symbol.iterator]();
  const partRows = (batchRowQuery(db, 'part', schema.part ?? []).iterate(inFound) as unknown as Iterable<BatchRow>)[Symbol.iterator]();
  const messageHead = { row: messageRows.next() };
  const partHead = { row: partRows.next() };
  const worktrees = new Map<string | null, string | null>();
  for (let at = 0; at < sessions.length; at++) {
    const row = sessions[at]!;
    if (typeof row.id !== 'string' || index.get(row.id) !== at) throw new OutOfOrder();
    const id = row.id;
    const warnings = new WarningList();
    const session = sessionInfo(row, id);
    let worktree = worktrees.get(session.projectId);
    if (worktree === undefined) worktrees.set(session.projectId, (worktree = projectWorktree(db, schema, session.projectId)));
    // As a single session's read: its messages' warnings, then its parts'.
    const messages = messageRecords(takeRows(messageRows, messageHead, index, at), warnings);
    const parts = partRecords(takeRows(partRows, partHead, index, at), warnings);
    if (!each(id, { session, id, worktree, messages, parts, childIds: children.get(id) ?? [], sourceFiles: [{ ...source }], warnings })) throw new Stopped();
  }
  if (!messageHead.row.done || !partHead.row.done) throw new OutOfOrder();
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
        if (!(err instanceof OutOfOrder)) throw err;
      }
      // Ids the store has no session row for, and every session after rows came out of order.
      oneByOne(db, schema);
    });
  } catch (err) {
    // The store could not be opened or read: every session not given yet fails as its own read would.
    for (const id of wanted) give(id, err as Error);
  }
}
