// Reads OpenCode's SQLite store (tables session, message, part, project; columns introspected, since migrations add them): the listing, one session's rows, and its raw rows.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SourceFile } from '../../../shared/session.ts';
import { WarningList } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { withReadOnlyStore } from '../sqlite-file.ts';
import { ownRows, quoteName, tableColumns } from '../store-rows.ts';
import { UnreadableError, type ContainedSession, type StoreRows } from '../types.ts';
import { epochMs, objectOf, parseData, pointerToken, text, type OcPart, type OcRecord, type OcRows, type OcSessionInfo } from './opencode-rows.ts';

export interface Schema {
  session: string[] | null;
  message: string[] | null;
  part: string[] | null;
  project: string[] | null;
}

/**
 * Statements and schema per connection: a read worker keeps a store open across its sessions (sqlite-file.ts), and
 * preparing them again for each session cost a third of reading it. The schema is looked at again when it changes.
 */
const statements = new WeakMap<DatabaseSync, Map<string, StatementSync>>();
const schemas = new WeakMap<DatabaseSync, { version: number; schema: Schema }>();

export function prepared(db: DatabaseSync, sql: string): StatementSync {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare(sql)));
  return statement;
}

export function schemaOf(db: DatabaseSync, label: string): Schema {
  const version = (prepared(db, 'PRAGMA schema_version').get() as { schema_version: number }).schema_version;
  const cached = schemas.get(db);
  if (cached?.version === version) return cached.schema;
  const schema = {
    session: tableColumns(db, 'session'),
    message: tableColumns(db, 'message'),
    part: tableColumns(db, 'part'),
    project: tableColumns(db, 'project'),
  };
  if (!schema.session?.includes('id') && !schema.message?.includes('session_id')) {
    throw new UnreadableError('wrong_shape', `Not an ${label} store: it has neither a session table nor messages with a session id.`);
  }
  schemas.set(db, { version, schema });
  return schema;
}

/** `max(<column>)` when the table has it, else a constant, so a listing works on every schema generation. */
const maxOf = (columns: string[], column: string) => (columns.includes(column) ? `max(${quoteName(column)})` : `max(rowid)`);

/**
 * One row per session with what changes when its content does: the session row's update time, and its messages'
 * and parts' counts and latest update times (a part is rewritten as the model streams, without touching the session row).
 */
export function listSessions(db: DatabaseSync, label: string): ContainedSession[] {
  const schema = schemaOf(db, label);
  const joins: string[] = [];
  const facts: string[] = [];
  for (const table of ['message', 'part'] as const) {
    const columns = schema[table];
    if (!columns?.includes('session_id')) continue;
    joins.push(
      `LEFT JOIN (SELECT session_id, count(*) AS n, ${maxOf(columns, 'time_updated')} AS t FROM ${table} GROUP BY session_id) ${table} ON ${table}.session_id = s.id`,
    );
    facts.push(`${table}.n`, `${table}.t`);
  }
  const versionOf = (row: Record<string, unknown>) =>
    Object.values(row)
      .slice(1)
      .map((v) => (v === null || v === undefined ? '' : String(v)))
      .join(':');
  if (schema.session?.includes('id')) {
    const updated = schema.session.includes('time_updated') ? 's.time_updated' : 'NULL';
    const rows = db
      .prepare(`SELECT s.id AS id, ${updated} AS updated${facts.map((f, i) => `, ${f} AS f${i}`).join('')} FROM session s ${joins.join(' ')}`)
      .all() as Array<Record<string, unknown>>;
    return rows.flatMap((row) => (typeof row.id === 'string' && row.id ? [{ id: row.id, version: versionOf(row) }] : []));
  }
  // A usage-only store (ccusage's Kilo subset): sessions are the message table's session ids.
  const rows = db
    .prepare(
      `SELECT session_id AS id, count(*) AS n, ${maxOf(schema.message ?? [], 'time_updated')} AS t FROM message WHERE session_id IS NOT NULL GROUP BY session_id`,
    )
    .all() as Array<Record<string, unknown>>;
  return rows.flatMap((row) => (typeof row.id === 'string' && row.id ? [{ id: row.id, version: versionOf(row) }] : []));
}

export function listStore(absPath: string, label: string): Promise<ContainedSession[]> {
  return withReadOnlyStore(absPath, (db) => listSessions(db, label));
}

/** The session columns sessionInfo reads (the rest, such as summary_diffs, which can hold every diff of the session, stay in the raw view). */
export const SESSION_WANTED = [
  'title',
  'parent_id',
  'project_id',
  'directory',
  'slug',
  'version',
  'time_created',
  'time_updated',
  'time_archived',
  'time_compacting',
  'agent',
  'model',
  'share_url',
  'summary_additions',
  'summary_deletions',
  'summary_files',
];

/** The session row by id, with only the columns it is built from that this schema has. */
function sessionQuery(db: DatabaseSync, columns: string[]): StatementSync {
  const select = ['id', ...SESSION_WANTED.filter((c) => columns.includes(c))].map(quoteName).join(', ');
  return prepared(db, `SELECT ${select} FROM session WHERE id = ?`);
}

export function sessionInfo(row: Record<string, unknown>, id: string): OcSessionInfo {
  const summary: Record<string, unknown> = {};
  for (const key of ['additions', 'deletions', 'files'] as const) {
    const value = row[`summary_${key}`];
    if (typeof value === 'number') summary[key] = value;
  }
  return {
    id,
    title: text(row.title),
    parentId: text(row.parent_id),
    projectId: text(row.project_id),
    directory: text(row.directory),
    slug: text(row.slug),
    version: text(row.version),
    createdMs: epochMs(row.time_created),
    updatedMs: epochMs(row.time_updated),
    archivedMs: epochMs(row.time_archived),
    compactingMs: epochMs(row.time_compacting),
    agent: text(row.agent),
    model: objectOf(row.model),
    shareUrl: text(row.share_url),
    summary: Object.keys(summary).length ? summary : null,
    origin: { fileIndex: 0, line: null, pointer: `/rows/session/${pointerToken(id)}` },
  };
}

/**
 * A message or part row as an array, in this order: its row id, then the columns it is built from (NULL where the
 * schema has no such column; the rest stay in the raw view). Only these columns: a fifth faster than every column.
 * As arrays rather than row objects: a session's parts of the bench store read in 32-37 µs instead of 41-42.
 */
export type RowArray = [rowid: unknown, id: unknown, messageId: unknown, created: unknown, data: unknown];
export const WANTED = ['id', 'message_id', 'time_created', 'data'];

/** The statements reading a session's row, messages and parts, per schema (a changed schema is a new Schema object). */
interface SessionQueries {
  session: StatementSync | null;
  message: StatementSync | null;
  part: StatementSync | null;
}
const queries = new WeakMap<Schema, SessionQueries>();

/** Rows of `table` for the session: keyed by `id`, or by row id where the table has no id column (as store-rows.ts keys them). */
function rowQuery(db: DatabaseSync, table: 'message' | 'part', columns: string[], where: string): StatementSync {
  const key = columns.includes('id') ? 'id' : '_rowid_';
  const order = table === 'message' && columns.includes('time_created') ? `time_created, ${key}` : key;
  const select = ['_rowid_', ...WANTED.map((c) => (columns.includes(c) ? c : 'NULL'))].join(', ');
  const statement = prepared(db, `SELECT ${select} FROM ${table} WHERE ${where} ORDER BY ${order}`);
  statement.setReturnArrays(true);
  return statement;
}

function queriesFor(db: DatabaseSync, schema: Schema): SessionQueries {
  let found = queries.get(schema);
  if (!found) {
    const partWhere = schema.part ? partsWhere(schema.part) : null;
    found = {
      session: schema.session?.includes('id') ? sessionQuery(db, schema.session) : null,
      message: schema.message?.includes('session_id') ? rowQuery(db, 'message', schema.message, 'session_id = ?') : null,
      part: schema.part && partWhere ? rowQuery(db, 'part', schema.part, partWhere) : null,
    };
    queries.set(schema, found);
  }
  return found;
}

/** A row's id as text: its `id`, else its row id (else its place). */
function rowId(row: RowArray, i: number): string {
  const id = row[1];
  return id === undefined || id === null ? String(row[0] ?? i) : String(id);
}

export function messageRecords(rows: RowArray[], warnings: WarningList): OcRecord[] {
  const out: OcRecord[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const id = rowId(row, i);
    out.push({
      id,
      messageId: typeof row[2] === 'string' ? row[2] : null,
      createdMs: epochMs(row[3]),
      data: parseData(row[4], `Message ${id}`, warnings),
      origin: { fileIndex: 0, line: null, pointer: `/rows/message/${pointerToken(id)}` },
    });
  }
  return out;
}

export function partRecords(rows: RowArray[], warnings: WarningList): OcPart[] {
  const out: OcPart[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const id = rowId(row, i);
    out.push({ id, messageId: typeof row[2] === 'string' ? row[2] : null, createdMs: epochMs(row[3]), data: parseData(row[4], `Part ${id}`, warnings) });
  }
  return out;
}

function partsWhere(columns: string[]): string | null {
  if (columns.includes('session_id')) return 'session_id = ?';
  if (columns.includes('message_id')) return 'message_id IN (SELECT id FROM message WHERE session_id = ?)';
  return null;
}

/** The store's file as every session read from it names it (its size and mtime when read). */
export async function storeSource(absPath: string, label: string): Promise<SourceFile> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw new UnreadableError('io_error', `Cannot read the ${label} store: ${(err as Error).message}`);
  }
  return { path: absPath, size: info.size, mtimeMs: info.mtimeMs, role: 'primary' };
}

/** The worktree of a session's project, where the store has a project table that records it. */
export function projectWorktree(db: DatabaseSync, schema: Schema, projectId: string | null): string | null {
  if (!projectId || !schema.project?.includes('worktree')) return null;
  const project = prepared(db, 'SELECT worktree FROM project WHERE id = ?').get(projectId) as { worktree?: unknown } | undefined;
  return text(project?.worktree);
}

/** Everything one session is built from, read through an open connection. */
export function readSessionRows(db: DatabaseSync, schema: Schema, id: string, label: string, source: SourceFile): OcRows {
  const query = queriesFor(db, schema);
  const warnings = new WarningList();
  let session: OcSessionInfo | null = null;
  let worktree: string | null = null;
  let childIds: string[] = [];
  if (schema.session?.includes('id')) {
    const row = query.session?.get(id) as Record<string, unknown> | undefined;
    if (!row) throw new UnreadableError('wrong_shape', `The ${label} store has no session ${id} (it may have been deleted).`);
    session = sessionInfo(row, id);
    worktree = projectWorktree(db, schema, session.projectId);
    if (schema.session.includes('parent_id')) {
      childIds = (prepared(db, 'SELECT id FROM session WHERE parent_id = ? ORDER BY id').all(id) as Array<{ id: unknown }>).flatMap((r) =>
        typeof r.id === 'string' ? [r.id] : [],
      );
    }
  }
  const messages = query.message ? messageRecords(query.message.all(id) as unknown as RowArray[], warnings) : [];
  if (!session && !messages.length) throw new UnreadableError('wrong_shape', `The ${label} store has no session ${id} (it may have been deleted).`);
  const parts = query.part ? partRecords(query.part.all(id) as unknown as RowArray[], warnings) : [];
  if (!schema.session)
    warnings.add(
      'usage_only_store',
      `This ${label} store holds only a message table (no session or part table): the messages' usage is shown, their content is not in it.`,
    );
  return { session, id, worktree, messages, parts, childIds, sourceFiles: [source], warnings };
}

/** Everything one session is built from, in one read of the store. */
export async function loadStoreSession(absPath: string, id: string, label: string): Promise<OcRows> {
  const source = await storeSource(absPath, label);
  return withReadOnlyStore(absPath, (db) => readSessionRows(db, schemaOf(db, label), id, label, source));
}

/** The session's own rows: its session row, its project's row, its messages and their parts (never another session's). */
export function storeRows(absPath: string, id: string, label: string): Promise<StoreRows> {
  return withReadOnlyStore(absPath, (db) => {
    const schema = schemaOf(db, label);
    const out: StoreRows = {};
    const put = (name: string, table: ReturnType<typeof ownRows>) => {
      if (table) out[name] = table;
    };
    if (schema.session?.includes('id')) {
      put('session', ownRows(db, 'session', 'id = ?', [id]));
      if (schema.project?.includes('id') && schema.session.includes('project_id'))
        put('project', ownRows(db, 'project', 'id = (SELECT project_id FROM session WHERE id = ?)', [id]));
    }
    if (schema.message?.includes('session_id')) put('message', ownRows(db, 'message', 'session_id = ?', [id]));
    const where = schema.part ? partsWhere(schema.part) : null;
    if (where) put('part', ownRows(db, 'part', where, [id]));
    return out;
  });
}
