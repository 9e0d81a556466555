// Test support: builds a Hermes home (state.db with the current or an older schema, transcripts beside it) in a temp folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** state.db's tables as Hermes creates them today (hermes_state.py; the same SQL agentsview's tests run). */
export const CURRENT_SCHEMA = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, model_config TEXT, system_prompt TEXT,
    parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, message_count INTEGER DEFAULT 0,
    tool_call_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, cache_read_tokens INTEGER DEFAULT 0,
    cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0, billing_provider TEXT, billing_base_url TEXT, billing_mode TEXT,
    estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT, cost_source TEXT, pricing_version TEXT, title TEXT, api_call_count INTEGER DEFAULT 0);
  CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_call_id TEXT,
    tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT, reasoning TEXT, reasoning_content TEXT,
    reasoning_details TEXT, codex_reasoning_items TEXT, codex_message_items TEXT);`;

/** An early state.db: no billing, reasoning, title or end columns. */
export const OLD_SCHEMA = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, message_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0);
  CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_call_id TEXT,
    tool_calls TEXT, timestamp REAL NOT NULL);`;

type Values = Record<string, string | number | null>;

/** A Hermes home at `<dir>/.hermes` with a state.db; the database stays open (as Hermes keeps it) until `close()`. */
export class HermesHome {
  readonly home: string;
  readonly dbPath: string;
  readonly db: DatabaseSync;

  constructor(dir: string, schema = CURRENT_SCHEMA, wal = false) {
    this.home = join(dir, '.hermes');
    mkdirSync(join(this.home, 'sessions'), { recursive: true });
    this.dbPath = join(this.home, 'state.db');
    this.db = new DatabaseSync(this.dbPath);
    if (wal) this.db.exec('PRAGMA journal_mode=WAL');
    this.db.exec(schema);
  }

  #insert(table: string, values: Values): void {
    const keys = Object.keys(values);
    this.db.prepare(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...Object.values(values));
  }

  session(values: Values): this {
    this.#insert('sessions', { source: 'cli', started_at: 1_778_767_200, ...values });
    return this;
  }

  message(values: Values): this {
    this.#insert('messages', { timestamp: 1_778_767_210, ...values });
    return this;
  }

  /** Writes `sessions/session_<id>.json`. */
  transcript(id: string, doc: unknown): string {
    const path = join(this.home, 'sessions', `session_${id}.json`);
    writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc));
    return path;
  }

  close(): void {
    this.db.close();
  }
}
