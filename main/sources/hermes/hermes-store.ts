// Queries on Hermes's state.db (tables sessions and messages), selecting only the columns this store's schema has.
import type { DatabaseSync } from 'node:sqlite';
import { hasTables } from '../sqlite-file.ts';
import { UnreadableError } from '../types.ts';

/** Every sessions column this reader uses; older stores lack some (billing, reasoning tokens, title ...). */
const SESSION_COLUMNS = [
  'id',
  'source',
  'model',
  'model_config',
  'system_prompt',
  'parent_session_id',
  'started_at',
  'ended_at',
  'end_reason',
  'message_count',
  'tool_call_count',
  'api_call_count',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'billing_provider',
  'billing_base_url',
  'billing_mode',
  'estimated_cost_usd',
  'actual_cost_usd',
  'cost_status',
  'cost_source',
  'pricing_version',
  'title',
] as const;

/** What a listing's version is made of: the columns that move while a session runs (never the large system prompt). */
const VERSION_COLUMNS = [
  'id',
  'title',
  'model',
  'parent_session_id',
  'ended_at',
  'end_reason',
  'message_count',
  'tool_call_count',
  'api_call_count',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'estimated_cost_usd',
  'actual_cost_usd',
  'cost_status',
] as const;

const MESSAGE_COLUMNS = [
  'id',
  'role',
  'content',
  'tool_call_id',
  'tool_calls',
  'tool_name',
  'timestamp',
  'token_count',
  'finish_reason',
  'reasoning',
  'reasoning_content',
  'reasoning_details',
  'codex_reasoning_items',
  'codex_message_items',
] as const;

export type Row = Record<string, unknown>;

function columnsOf(db: DatabaseSync, table: string): Set<string> {
  return new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name));
}

function present(have: Set<string>, wanted: readonly string[]): string[] {
  return wanted.filter((c) => have.has(c));
}

/** One open state.db: its schema read once, then the queries the reader needs. */
export class HermesStore {
  readonly #db: DatabaseSync;
  readonly #sessionColumns: string;
  readonly #versionColumns: string;
  readonly #messageColumns: string;
  readonly #messageOrder: string;
  readonly #messageId: string;
  readonly hasParents: boolean;

  constructor(db: DatabaseSync) {
    if (!hasTables(db, ['sessions', 'messages'])) throw new UnreadableError('wrong_shape', 'Not a Hermes state.db: it has no sessions and messages tables.');
    const sessions = columnsOf(db, 'sessions');
    const messages = columnsOf(db, 'messages');
    const missing = [
      ...['id'].filter((c) => !sessions.has(c)).map((c) => `sessions.${c}`),
      ...['session_id', 'role'].filter((c) => !messages.has(c)).map((c) => `messages.${c}`),
    ];
    if (missing.length) throw new UnreadableError('wrong_shape', `Not a Hermes state.db this app understands: it has no ${missing.join(', ')} column.`);
    this.#db = db;
    this.#sessionColumns = present(sessions, SESSION_COLUMNS).join(', ');
    this.#versionColumns = present(sessions, VERSION_COLUMNS).join(', ');
    const messageColumns = present(messages, MESSAGE_COLUMNS);
    // Rows without an id column are read in rowid order, which is insertion order.
    this.#messageId = messages.has('id') ? 'id' : 'rowid';
    this.#messageColumns = (messages.has('id') ? messageColumns : ['rowid AS id', ...messageColumns]).join(', ');
    this.#messageOrder = messages.has('timestamp') ? `timestamp, ${this.#messageId}` : this.#messageId;
    this.hasParents = sessions.has('parent_session_id');
  }

  /** Every session's id and the columns that change while it runs: the listing's one cheap query. */
  listing(): Row[] {
    return this.#db.prepare(`SELECT ${this.#versionColumns} FROM sessions`).all() as Row[];
  }

  session(id: string): Row | undefined {
    return this.#db.prepare(`SELECT ${this.#sessionColumns} FROM sessions WHERE id = ?`).get(id) as Row | undefined;
  }

  /** Per session: how many message rows, the newest row id and time; what the listing's version is made of. */
  messageStats(): Map<string, string> {
    const rows = this.#db.prepare(`SELECT session_id AS s, count(*) AS n, max(${this.#messageId}) AS last FROM messages GROUP BY session_id`).all() as Array<{
      s: unknown;
      n: number;
      last: unknown;
    }>;
    return new Map(rows.map((r) => [String(r.s), `${r.n}:${String(r.last)}`]));
  }

  messages(id: string): Row[] {
    return this.#db.prepare(`SELECT ${this.#messageColumns} FROM messages WHERE session_id = ? ORDER BY ${this.#messageOrder}`).all(id) as Row[];
  }

  /** Sessions whose parent is this one (delegated sub-agents and compression continuations). */
  children(id: string): Row[] {
    if (!this.hasParents) return [];
    return this.#db.prepare(`SELECT ${this.#sessionColumns} FROM sessions WHERE parent_session_id = ? ORDER BY id`).all(id) as Row[];
  }
}
