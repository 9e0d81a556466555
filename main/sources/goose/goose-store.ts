// Queries on Goose's sessions.db, built from the columns this store's schema has (schema_version 15 and the minimal older one).
import type { DatabaseSync } from 'node:sqlite';
import { hasTables } from '../sqlite-file.ts';
import { UnreadableError } from '../types.ts';

const SESSION_COLUMNS = [
  'id',
  'name',
  'description',
  'user_set_name',
  'session_type',
  'working_dir',
  'created_at',
  'updated_at',
  'total_tokens',
  'accumulated_input_tokens',
  'accumulated_output_tokens',
  'accumulated_cache_read_tokens',
  'accumulated_cache_write_tokens',
  'accumulated_total_tokens',
  'accumulated_cost',
  'schedule_id',
  'recipe_json',
  'provider_name',
  'model_config_json',
  'goose_mode',
  'archived_at',
  'project_id',
  'parent_session_id',
] as const;

/** What a listing's version is made of: the columns that move while a session runs (not the recipe or extension state). */
const VERSION_COLUMNS = [
  'id',
  'name',
  'description',
  'user_set_name',
  'session_type',
  'working_dir',
  'updated_at',
  'total_tokens',
  'accumulated_total_tokens',
  'accumulated_cost',
  'provider_name',
  'model_config_json',
  'archived_at',
  'parent_session_id',
] as const;

const MESSAGE_COLUMNS = ['id', 'message_id', 'role', 'content_json', 'created_timestamp', 'timestamp', 'metadata_json'] as const;

const LEDGER_COLUMNS = [
  'id',
  'created_timestamp',
  'model',
  'input_tokens',
  'output_tokens',
  'total_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'cost',
  'cost_source',
  'is_compaction',
] as const;

export type Row = Record<string, unknown>;

function columnsOf(db: DatabaseSync, table: string): Set<string> {
  return new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name));
}

function present(have: Set<string>, wanted: readonly string[]): string {
  return wanted.filter((c) => have.has(c)).join(', ');
}

/** One open sessions.db: its schema read once, then the queries the reader needs. */
export class GooseStore {
  readonly #db: DatabaseSync;
  readonly #sessions: string;
  readonly #versionColumns: string;
  readonly #messages: string;
  readonly #messageOrder: string;
  readonly #ledger: string | null;
  readonly #ledgerKey: string;
  readonly #hasParents: boolean;
  readonly schemaVersion: number | null;

  constructor(db: DatabaseSync) {
    if (!hasTables(db, ['sessions', 'messages'])) throw new UnreadableError('wrong_shape', 'Not a Goose sessions.db: it has no sessions and messages tables.');
    const sessions = columnsOf(db, 'sessions');
    const messages = columnsOf(db, 'messages');
    const missing = [
      ...['id'].filter((c) => !sessions.has(c)).map((c) => `sessions.${c}`),
      ...['session_id', 'role', 'content_json'].filter((c) => !messages.has(c)).map((c) => `messages.${c}`),
    ];
    if (missing.length) throw new UnreadableError('wrong_shape', `Not a Goose sessions.db this app understands: it has no ${missing.join(', ')} column.`);
    this.#db = db;
    this.#sessions = present(sessions, SESSION_COLUMNS);
    this.#versionColumns = present(sessions, VERSION_COLUMNS);
    this.#messages = [messages.has('id') ? 'id' : 'rowid AS id', present(messages, MESSAGE_COLUMNS.slice(1))].join(', ');
    this.#messageOrder = messages.has('created_timestamp') ? 'created_timestamp, id' : 'id';
    const ledger = hasTables(db, ['usage_ledger']) ? columnsOf(db, 'usage_ledger') : null;
    this.#ledger = ledger ? present(ledger, LEDGER_COLUMNS) : null;
    // A row is found by its id column, or by its rowid where the table has none (as store-rows.ts keys a session's rows).
    this.#ledgerKey = ledger?.has('id') ? 'id' : 'rowid';
    this.#hasParents = sessions.has('parent_session_id');
    this.schemaVersion = hasTables(db, ['schema_version'])
      ? ((db.prepare('SELECT max(version) AS v FROM schema_version').get() as { v: number | null }).v ?? null)
      : null;
  }

  /** Every session's id and the columns that change while it runs: the listing's one cheap query. */
  listing(): Row[] {
    return this.#db.prepare(`SELECT ${this.#versionColumns} FROM sessions`).all() as Row[];
  }

  session(id: string): Row | undefined {
    return this.#db.prepare(`SELECT ${this.#sessions} FROM sessions WHERE id = ?`).get(id) as Row | undefined;
  }

  /** Per session, the count and newest row of a table: what a listing's version is made of. */
  #stats(table: string): Map<string, string> {
    const rows = this.#db.prepare(`SELECT session_id AS s, count(*) AS n, max(rowid) AS last FROM ${table} GROUP BY session_id`).all() as Array<{
      s: unknown;
      n: number;
      last: unknown;
    }>;
    return new Map(rows.map((r) => [String(r.s), `${r.n}:${String(r.last)}`]));
  }

  messageStats(): Map<string, string> {
    return this.#stats('messages');
  }

  ledgerStats(): Map<string, string> {
    return this.#ledger === null ? new Map() : this.#stats('usage_ledger');
  }

  messages(id: string): Row[] {
    return this.#db.prepare(`SELECT ${this.#messages} FROM messages WHERE session_id = ? ORDER BY ${this.#messageOrder}`).all(id) as Row[];
  }

  /** The session's per-request usage rows, or null when the store has no usage_ledger (older Goose). */
  ledger(id: string): Row[] | null {
    if (this.#ledger === null) return null;
    // `_row`: the row's key, under which the raw view finds it.
    return this.#db.prepare(`SELECT ${this.#ledgerKey} AS _row, ${this.#ledger} FROM usage_ledger WHERE session_id = ? ORDER BY rowid`).all(id) as Row[];
  }

  childIds(id: string): string[] {
    if (!this.#hasParents) return [];
    return (this.#db.prepare('SELECT id FROM sessions WHERE parent_session_id = ? ORDER BY id').all(id) as Array<{ id: unknown }>).map((r) => String(r.id));
  }
}
