// The usage totals a write batch adds in memory equal the totals worked out again from every file's own rows: batches sharing keys, rewrites, removals, and a batch that failed; and one table's pending sums per key.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../shared/session.ts';
import { IndexWrites, type WriteOp } from './index-write.ts';
import { createSchema } from './schema.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';
import { turnBucket } from './usage-buckets.ts';
import { usageFacts } from './usage-facts.ts';
import { PendingSums } from './usage-totals.ts';

const call = (timestamp: string, input: number, model: string, tool: string): Message => ({
  ...textMessage('assistant', 'ok'),
  timestamp,
  model,
  usage: { input, output: 10, cacheRead: input * 2, cacheWrite: 5, reasoning: 3 },
  cost: { usd: input / 7e5, estimated: true },
  parts: [{ type: 'tool_call', callId: `${timestamp}${tool}`, name: tool, input: {} }],
});

function put(id: string, format: Session['format'], project: string, calls: Message[], parentKey: string | null = null): Extract<WriteOp, { kind: 'put' }> {
  const s = makeSession(id, {
    format,
    parentKey,
    project: { path: `/home/dev/${project}`, name: project, branch: 'main', headCommit: null },
    createdAt: calls[0]?.timestamp ?? null,
    updatedAt: calls.at(-1)?.timestamp ?? null,
    messages: [textMessage('user', `work on ${project}`), ...calls],
  });
  const { result, text } = readResult(s);
  return { kind: 'put', path: `/roots/${id}.jsonl`, size: 100, mtimeMs: 1, key: `${format}:${id}`, result, text, usage: usageFacts(s) };
}

const SUMS = 'sum(input), sum(output), sum(cache_read), sum(cache_write), sum(reasoning), sum(cost), sum(unpriced), sum(calls)';
const TOKENS = 'u.input + u.output + u.cache_read + u.cache_write + u.reasoning';
const NAME = 'CASE WHEN instr(s.project, char(10)) > 0 THEN substr(s.project, 1, instr(s.project, char(10)) - 1) ELSE s.project END';

/** Each totals table, and the same as SQL works it out again from the files' own rows. */
/** A removed file leaves its keys' rows at zero: those are left out of the tables' side. */
const REFERENCE: Record<string, [table: string, reference: string]> = {
  hours: [
    'SELECT * FROM usage_hours WHERE calls <> 0',
    `SELECT u.hour_ms, coalesce(u.model, ''), s.format, ${SUMS} FROM usage u JOIN usage_sessions s USING (file_id) GROUP BY 1, 2, 3`,
  ],
  days: [
    'SELECT * FROM usage_days WHERE calls <> 0',
    `SELECT s.zone, d.day, d.model, s.format, ${SUMS} FROM usage_file_days d JOIN usage_sessions s USING (file_id) GROUP BY 1, 2, 3, 4`,
  ],
  projectDays: [
    'SELECT * FROM usage_project_days WHERE calls <> 0',
    `SELECT s.zone, d.day, ${NAME}, s.format, ${SUMS} FROM usage_file_days d JOIN usage_sessions s USING (file_id) GROUP BY 1, 2, 3, 4`,
  ],
  projectDayTotals: [
    'SELECT * FROM usage_project_day_totals WHERE calls <> 0',
    `SELECT s.zone, d.day, ${NAME}, ${SUMS} FROM usage_file_days d JOIN usage_sessions s USING (file_id) GROUP BY 1, 2, 3`,
  ],
  models: [
    'SELECT * FROM usage_models WHERE calls <> 0',
    `SELECT coalesce(u.model, ''), s.format, sum(${TOKENS}), sum(u.cost), sum(u.unpriced), sum(u.calls) FROM usage u JOIN usage_sessions s USING (file_id) WHERE u.hour_ms > 0 GROUP BY 1, 2`,
  ],
  projects: [
    'SELECT * FROM usage_projects WHERE tokens <> 0 OR with_usage <> 0 OR project IN (SELECT project FROM usage_sessions)',
    `SELECT s.project, s.format, sum(coalesce((SELECT sum(${TOKENS}) FROM usage u WHERE u.file_id = s.file_id), 0)),
      sum(coalesce((SELECT sum(u.cost) FROM usage u WHERE u.file_id = s.file_id), 0)), sum(s.with_usage) FROM usage_sessions s GROUP BY 1, 2`,
  ],
  tools: [
    'SELECT * FROM usage_tool_totals WHERE calls <> 0',
    'SELECT s.format, t.name, sum(t.calls), sum(t.failures) FROM usage_tools t JOIN usage_sessions s USING (file_id) GROUP BY 1, 2',
  ],
};

/** Rows as sorted arrays of values, floats to 12 significant digits (sums added in another order differ in the last bits). */
function rows(db: DatabaseSync, sql: string): unknown[][] {
  const statement = db.prepare(sql);
  statement.setReturnArrays(true);
  return (statement.all() as unknown as unknown[][])
    .map((row) => row.map((v) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

function expectTotalsMatchFiles(db: DatabaseSync): void {
  for (const [name, [table, reference]] of Object.entries(REFERENCE)) expect(rows(db, table), name).toEqual(rows(db, reference));
  const sessions = (
    db.prepare('SELECT format, top_level, length_bucket, turns, with_usage FROM usage_sessions').all() as Array<{
      format: string;
      top_level: number;
      length_bucket: number;
      turns: number;
      with_usage: number;
    }>
  ).reduce<Record<string, [number, number]>>((totals, s) => {
    const key = [s.format, s.top_level, s.length_bucket, turnBucket(s.turns)].join(' ');
    const t = (totals[key] ??= [0, 0]);
    t[0] += 1;
    t[1] += s.with_usage;
    return totals;
  }, {});
  const written = db.prepare('SELECT * FROM usage_session_totals WHERE sessions <> 0').all() as Array<Record<string, number | string>>;
  expect(Object.fromEntries(written.map((r) => [[r.format, r.top_level, r.length_bucket, r.turn_bucket].join(' '), [r.sessions, r.with_usage]]))).toEqual(
    sessions,
  );
}

function openWrites(): { db: DatabaseSync; writes: IndexWrites } {
  const db = new DatabaseSync(':memory:');
  createSchema(db);
  return { db, writes: new IndexWrites(db) };
}

const firstBatch = (): WriteOp[] => [
  put('a', 'claude-code', 'app', [
    call('2026-03-01T09:10:00Z', 1000, 'claude-opus-4-7', 'Bash'),
    call('2026-03-01T09:40:00Z', 333, 'claude-opus-4-7', 'Read'),
    call('2026-03-01T23:50:00Z', 500, 'claude-sonnet-4-5', 'Read'),
  ]),
  put('b', 'codex', 'site', [call('2026-03-02T14:05:00Z', 700, 'gpt-5-codex', 'exec')]),
  put('c', 'claude-code', 'app', [call('2026-03-01T09:20:00Z', 300, 'claude-opus-4-7', 'Bash')], 'claude-code:a'),
  put('d', 'claude-code', 'lib', []),
];

describe("a write batch's usage totals", () => {
  it('equal the sums of the files it wrote, when files share hours, days, models, projects and tools', () => {
    const { db, writes } = openWrites();
    writes.apply(firstBatch());
    expectTotalsMatchFiles(db);
    const opus = db.prepare("SELECT tokens, calls FROM usage_models WHERE model = 'claude-opus-4-7'").get();
    expect(opus).toEqual({ tokens: 1000 * 3 + 333 * 3 + 300 * 3 + 3 * 18, calls: 3 });
    // The session with no usage still counts in its project, with nothing added.
    expect(db.prepare("SELECT tokens, with_usage FROM usage_projects WHERE project LIKE 'lib%'").get()).toEqual({ tokens: 0, with_usage: 0 });
  });

  it('stay equal as a later batch rewrites a file twice, removes one and adds two (one of another source in a project and day)', () => {
    const { db, writes } = openWrites();
    writes.apply(firstBatch());
    writes.apply([
      put('a', 'claude-code', 'app', [call('2026-03-01T09:10:00Z', 4000, 'claude-opus-4-7', 'Edit')]),
      { kind: 'remove', path: '/roots/b.jsonl' },
      put('e', 'codex', 'site', [call('2026-03-02T14:10:00Z', 90, 'gpt-5-codex', 'exec')]),
      put('a', 'claude-code', 'app', [call('2026-03-01T09:15:00Z', 4100, 'claude-opus-4-7', 'Edit')]),
      // Another source in the same project on the same day: the totals over every source add both.
      put('f', 'codex', 'app', [call('2026-03-01T09:30:00Z', 50, 'gpt-5-codex', 'exec')]),
    ]);
    expectTotalsMatchFiles(db);
    // Days stacked by project over every source: one row for the app's day, both sources' calls in it.
    const shared = db
      .prepare("SELECT zone, day, sum(calls) AS calls FROM usage_project_days WHERE project = 'app' GROUP BY zone, day HAVING count(*) = 2")
      .all() as Array<{ zone: string; day: string; calls: number }>;
    expect(shared.length).toBeGreaterThan(0);
    for (const { zone, day, calls } of shared)
      expect(db.prepare("SELECT calls FROM usage_project_day_totals WHERE zone = ? AND day = ? AND project = 'app'").all(zone, day)).toEqual([{ calls }]);

    expect(db.prepare("SELECT calls FROM usage_tool_totals WHERE name = 'Edit'").get()).toEqual({ calls: 1 });
  });

  it('leave out what a failed batch added: its files, written again one by one, count once', () => {
    const { db, writes } = openWrites();
    const broken: WriteOp = { ...put('x', 'codex', 'site', []), size: undefined as unknown as number };
    // The batch fails at its last file, after the others' figures were added; applyEach writes them again on their own.
    expect(writes.applyEach([...firstBatch(), broken])).toMatch(/.+/);
    expectTotalsMatchFiles(db);
    expect(db.prepare("SELECT calls FROM usage_models WHERE model = 'gpt-5-codex'").get()).toEqual({ calls: 1 });
  });
});

describe('PendingSums', () => {
  const table = () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (hour INTEGER, model TEXT, calls INTEGER, cost REAL, PRIMARY KEY (hour, model))');
    return { db, sums: new PendingSums(db, 't', ['hour', 'model'], ['calls', 'cost']) };
  };

  it('keeps keys apart that share some columns, sums repeats, and writes rows in the order their keys first came', () => {
    const { db, sums } = table();
    sums.add([2, 'opus'], [1, 0.5]);
    sums.add([1, 'opus'], [1, 0.25]);
    sums.add([2, 'sonnet'], [3, 0]);
    sums.add([2, 'opus'], [2, 0.25]);
    sums.write();
    expect(db.prepare('SELECT hour, model, calls, cost FROM t ORDER BY rowid').all()).toEqual([
      { hour: 2, model: 'opus', calls: 3, cost: 0.75 },
      { hour: 1, model: 'opus', calls: 1, cost: 0.25 },
      { hour: 2, model: 'sonnet', calls: 3, cost: 0 },
    ]);
    // A later batch adds to the rows written; what a cleared batch added is gone.
    sums.add([1, 'opus'], [5, 1]);
    sums.clear();
    sums.add([1, 'opus'], [1, 0]);
    sums.write();
    expect(db.prepare("SELECT calls, cost FROM t WHERE hour = 1 AND model = 'opus'").get()).toEqual({ calls: 2, cost: 0.25 });
  });
});
