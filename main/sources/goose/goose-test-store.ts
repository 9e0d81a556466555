// Test support: builds a Goose sessions.db (schema_version 15 or the minimal older schema) in a temp folder.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Goose's schema at version 15 (the SQL agentsview's goose_test.go runs, from Goose's session_manager migrations). */
export const SCHEMA_15 = `
  CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
  INSERT INTO schema_version (version) VALUES (15);
  CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
    cache_read_tokens INTEGER, cache_write_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER, accumulated_cache_read_tokens INTEGER, accumulated_cache_write_tokens INTEGER, accumulated_cost REAL,
    schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT, goose_mode TEXT NOT NULL DEFAULT 'auto',
    archived_at TIMESTAMP, project_id TEXT, parent_session_id TEXT);
  CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
    content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT);
  CREATE TABLE usage_ledger (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    created_timestamp INTEGER NOT NULL, model TEXT, input_tokens INTEGER, output_tokens INTEGER, total_tokens INTEGER, cache_read_tokens INTEGER,
    cache_write_tokens INTEGER, cost REAL, cost_source TEXT, is_compaction INTEGER DEFAULT 0);`;

/** The minimal schema of early SQLite Goose (claude-code-history-viewer's fixture). */
export const MINIMAL_SCHEMA = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT, description TEXT, working_dir TEXT NOT NULL, created_at TEXT, updated_at TEXT);
  CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT, session_id TEXT NOT NULL, role TEXT NOT NULL, content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL);`;

type Values = Record<string, string | number | null>;

/** `<dir>/.local/share/goose/sessions/sessions.db`, open (as Goose keeps it) until `close()`. */
export class GooseDb {
  readonly path: string;
  readonly db: DatabaseSync;

  constructor(dir: string, schema = SCHEMA_15, wal = false) {
    const folder = join(dir, '.local', 'share', 'goose', 'sessions');
    mkdirSync(folder, { recursive: true });
    this.path = join(folder, 'sessions.db');
    this.db = new DatabaseSync(this.path);
    if (wal) this.db.exec('PRAGMA journal_mode=WAL');
    this.db.exec(schema);
  }

  insert(table: string, values: Values): this {
    const keys = Object.keys(values);
    this.db.prepare(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...Object.values(values));
    return this;
  }

  session(values: Values): this {
    return this.insert('sessions', { working_dir: '/work/app', created_at: '2026-01-10 09:00:00', updated_at: '2026-01-10 09:05:00', ...values });
  }

  /** A message whose content_json is `blocks` (JSON-encoded unless already text). */
  message(session: string, role: string, blocks: unknown, values: Values = {}): this {
    return this.insert('messages', {
      session_id: session,
      role,
      content_json: typeof blocks === 'string' ? blocks : JSON.stringify(blocks),
      created_timestamp: 1_768_035_600,
      ...values,
    });
  }

  close(): void {
    this.db.close();
  }
}
