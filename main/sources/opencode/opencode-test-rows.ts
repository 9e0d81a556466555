// The opencode.db a test writes: a fresh store per test (closed after it) and writers of one message, part or session row as OpenCode writes them.
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach } from 'vitest';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { createOpenCodeStore } from './opencode-test-store.ts';

/**
 * A test file's store and row writers: `store()` makes a fresh opencode.db (closed after each test), `message`,
 * `part` and `session` insert one row each as OpenCode writes them.
 */
export function testStoreRows() {
  const writers: DatabaseSync[] = [];
  afterEach(() => {
    for (const w of writers.splice(0)) w.close();
  });
  function store(): { path: string; db: DatabaseSync } {
    const path = join(testTempDir('sv-opencode-'), 'opencode.db');
    const db = createOpenCodeStore(path);
    writers.push(db);
    return { path, db };
  }

  const message = (db: DatabaseSync, id: string, session: string, at: number, data: unknown) =>
    db
      .prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)')
      .run(id, session, at, at, typeof data === 'string' ? data : JSON.stringify(data));
  const part = (db: DatabaseSync, id: string, messageId: string, session: string, at: number, data: unknown) =>
    db
      .prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run(id, messageId, session, at, at, typeof data === 'string' ? data : JSON.stringify(data));
  const session = (db: DatabaseSync, id: string, title: string, created: number, extra: Record<string, number | string | null> = {}) => {
    const columns = ['id', 'project_id', 'title', 'directory', 'time_created', 'time_updated', ...Object.keys(extra)];
    db.prepare(`INSERT INTO session (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(
      id,
      'prj_main',
      title,
      '/home/dev/app',
      created,
      created,
      ...Object.values(extra),
    );
  };
  return { store, message, part, session };
}
