// A file's usage_sessions row is written as an upsert: a new file gets its row, and a row already there for its id (left by anything) is overwritten whole, as INSERT OR REPLACE did.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createSchema } from './schema.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';
import { usageFacts } from './usage-facts.ts';
import { UsageWrites } from './usage-write.ts';

function summaryAndFacts() {
  const s = makeSession('s1', {
    project: { path: '/home/dev/ledger', name: 'ledger', branch: 'main', headCommit: null },
    createdAt: '2025-06-01T10:00:00.000Z',
    updatedAt: '2025-06-01T10:30:00.000Z',
    messages: [
      textMessage('user', 'work on ledger'),
      {
        ...textMessage('assistant', 'ok'),
        timestamp: '2025-06-01T10:30:00.000Z',
        model: 'claude-sonnet-4',
        usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        parts: [{ type: 'tool_call', callId: 'c1', name: 'bash', input: {} }],
      },
    ],
  });
  const { result } = readResult(s);
  if (!result.ok) throw new Error('The test session could not be read.');
  return { summary: result.summary, facts: usageFacts(s) };
}

const rowOf = (db: DatabaseSync, id: number) => db.prepare('SELECT * FROM usage_sessions WHERE file_id = ?').get(id);

describe('usage_sessions rows', () => {
  it('writes a new file its row, and overwrites a row already held under its id with every column', () => {
    const db = new DatabaseSync(':memory:');
    createSchema(db);
    const writes = new UsageWrites(db);
    const { summary, facts } = summaryAndFacts();
    writes.put(1, facts, summary);
    const fresh = rowOf(db, 1);
    expect(fresh).toMatchObject({ format: summary.format, project: 'ledger\n/home/dev/ledger', top_level: 1, with_usage: 1, tools: '[["bash",1,0]]' });
    // A stale row already held under id 2, every column different: the put leaves no trace of it.
    db.prepare(
      "INSERT INTO usage_sessions (file_id, format, zone, project, turns, length_bucket, top_level, with_usage, tools) VALUES (2, 'x', 'Z', 'p', 99, 9, 0, 0, '[]')",
    ).run();
    writes.put(2, facts, summary);
    expect(rowOf(db, 2)).toEqual({ ...fresh, file_id: 2 });
    expect((db.prepare('SELECT count(*) AS n FROM usage_sessions').get() as { n: number }).n).toBe(2);
    db.close();
  });
});
