// Test support: builds a Devin CLI sessions.db (the schema agent-sessions' DevinSqliteReaderTests use) in a temp folder.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export const DEVIN_SCHEMA = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, working_directory TEXT NOT NULL, backend_type TEXT NOT NULL, model TEXT NOT NULL, agent_mode TEXT NOT NULL,
    created_at INTEGER NOT NULL, last_activity_at INTEGER NOT NULL, title TEXT, main_chain_id INTEGER, hidden INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE message_nodes (row_id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, node_id INTEGER NOT NULL, parent_node_id INTEGER,
    chat_message TEXT NOT NULL, created_at INTEGER NOT NULL, metadata TEXT, UNIQUE(session_id, node_id));`;

/** `<dir>/.local/share/devin/cli/sessions.db`, open until `close()`. */
export class DevinDb {
  readonly path: string;
  readonly db: DatabaseSync;

  constructor(dir: string, schema = DEVIN_SCHEMA) {
    const folder = join(dir, '.local', 'share', 'devin', 'cli');
    mkdirSync(folder, { recursive: true });
    this.path = join(folder, 'sessions.db');
    this.db = new DatabaseSync(this.path);
    this.db.exec(schema);
  }

  session(id: string, values: Record<string, string | number | null> = {}): this {
    const row = {
      id,
      working_directory: '/work/app',
      backend_type: 'Windsurf',
      model: 'swe-1-7',
      agent_mode: 'normal',
      created_at: 1_786_000_000,
      last_activity_at: 1_786_000_100,
      title: null,
      main_chain_id: null,
      hidden: 0,
      ...values,
    };
    this.db
      .prepare(
        `INSERT INTO sessions (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
          .map(() => '?')
          .join(', ')})`,
      )
      .run(...Object.values(row));
    return this;
  }

  /** A node whose chat_message is `message` (JSON-encoded unless already text). */
  node(session: string, nodeId: number, parent: number | null, message: unknown, createdAt = 1_786_000_000 + nodeId): this {
    this.db
      .prepare('INSERT INTO message_nodes (session_id, node_id, parent_node_id, chat_message, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(session, nodeId, parent, typeof message === 'string' ? message : JSON.stringify(message), createdAt);
    return this;
  }

  close(): void {
    this.db.close();
  }
}
