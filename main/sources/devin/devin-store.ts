// Queries on the Devin CLI's sessions.db: visible sessions, and one session's message tree walked from its main chain's tip.
import type { DatabaseSync } from 'node:sqlite';
import { hasTables } from '../sqlite-file.ts';
import { UnreadableError } from '../types.ts';

const SESSION_COLUMNS = [
  'id',
  'working_directory',
  'backend_type',
  'model',
  'agent_mode',
  'created_at',
  'last_activity_at',
  'title',
  'main_chain_id',
  'hidden',
] as const;

export type Row = Record<string, unknown>;

/** A node of the message tree without its message: enough to walk it. */
export interface TreeNode {
  /** SQLite's rowid: how the messages of these nodes are fetched. */
  rowId: number;
  /** The row's key (row_id, else the rowid), under which the raw view finds it. */
  key: string;
  nodeId: number;
  parentId: number | null;
  createdAt: unknown;
}

function columnsOf(db: DatabaseSync, table: string): Set<string> {
  return new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name));
}

/** One open sessions.db: its schema read once, then the queries the reader needs. */
export class DevinStore {
  readonly #db: DatabaseSync;
  readonly #sessions: string;
  readonly #visible: string;
  readonly #nodeCreated: string;
  readonly #nodeKey: string;

  constructor(db: DatabaseSync) {
    if (!hasTables(db, ['sessions', 'message_nodes']))
      throw new UnreadableError('wrong_shape', 'Not a Devin sessions.db: it has no sessions and message_nodes tables.');
    const sessions = columnsOf(db, 'sessions');
    const nodes = columnsOf(db, 'message_nodes');
    const missing = [
      ...['id'].filter((c) => !sessions.has(c)).map((c) => `sessions.${c}`),
      ...['session_id', 'node_id', 'parent_node_id', 'chat_message'].filter((c) => !nodes.has(c)).map((c) => `message_nodes.${c}`),
    ];
    if (missing.length) throw new UnreadableError('wrong_shape', `Not a Devin sessions.db this app understands: it has no ${missing.join(', ')} column.`);
    this.#db = db;
    this.#sessions = SESSION_COLUMNS.filter((c) => sessions.has(c)).join(', ');
    // Devin keeps retired sessions with hidden = 1; `devin list` does not show them.
    this.#visible = sessions.has('hidden') ? 'WHERE COALESCE(hidden, 0) = 0' : '';
    this.#nodeCreated = nodes.has('created_at') ? 'created_at' : 'NULL';
    this.#nodeKey = nodes.has('row_id') ? 'row_id' : 'rowid';
  }

  visibleSessions(): Row[] {
    return this.#db.prepare(`SELECT ${this.#sessions} FROM sessions ${this.#visible}`).all() as Row[];
  }

  session(id: string): Row | undefined {
    return this.#db.prepare(`SELECT ${this.#sessions} FROM sessions WHERE id = ?`).get(id) as Row | undefined;
  }

  /** Per session: node count and newest row, what a listing's version is made of. */
  nodeStats(): Map<string, string> {
    const rows = this.#db.prepare('SELECT session_id AS s, count(*) AS n, max(rowid) AS last FROM message_nodes GROUP BY session_id').all() as Array<{
      s: unknown;
      n: number;
      last: unknown;
    }>;
    return new Map(rows.map((r) => [String(r.s), `${r.n}:${String(r.last)}`]));
  }

  /** Every node of a session's tree, without the messages (cheap: the tree is walked before any message is read). */
  tree(id: string): TreeNode[] {
    const rows = this.#db
      .prepare(
        `SELECT rowid AS r, ${this.#nodeKey} AS k, node_id AS n, parent_node_id AS p, ${this.#nodeCreated} AS c FROM message_nodes WHERE session_id = ? ORDER BY rowid`,
      )
      .all(id) as Array<{ r: number; k: unknown; n: unknown; p: unknown; c: unknown }>;
    return rows
      .filter((r) => typeof r.n === 'number')
      .map((r) => ({ rowId: r.r, key: String(r.k), nodeId: r.n as number, parentId: typeof r.p === 'number' ? r.p : null, createdAt: r.c }));
  }

  /** The stored message JSON of these rows, by rowid. */
  messages(rowIds: number[]): Map<number, unknown> {
    const rows = this.#db
      .prepare('SELECT rowid AS r, chat_message AS m FROM message_nodes WHERE rowid IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(rowIds)) as Array<{ r: number; m: unknown }>;
    return new Map(rows.map((r) => [r.r, r.m]));
  }

  /**
   * For nodes off the main chain: role and the start of the content, cut in SQL so a session whose abandoned
   * branches hold most of its bytes does not parse them all.
   */
  previews(rowIds: number[]): Map<number, { role: unknown; preview: unknown; calls: unknown }> {
    const rows = this.#db
      .prepare(
        `SELECT rowid AS r,
          CASE WHEN json_valid(chat_message) THEN json_extract(chat_message, '$.role') END AS role,
          CASE WHEN json_valid(chat_message) THEN substr(json_extract(chat_message, '$.content'), 1, 200) END AS preview,
          CASE WHEN json_valid(chat_message) AND json_type(chat_message, '$.tool_calls') = 'array' THEN json_array_length(chat_message, '$.tool_calls') END AS calls
        FROM message_nodes WHERE rowid IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(rowIds)) as Array<{ r: number; role: unknown; preview: unknown; calls: unknown }>;
    return new Map(rows.map((r) => [r.r, { role: r.role, preview: r.preview, calls: r.calls }]));
  }
}
