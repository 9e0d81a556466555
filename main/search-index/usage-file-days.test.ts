// The dashboard read from each file's rows per day (or the totals less the other files') shows what every file's hourly rows show, for words, filters and dates.
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message, Session } from '../../shared/session.ts';
import { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { makeSession, textMessage } from './test-sessions.ts';
import { usageDashboard } from './usage-dashboard.ts';
import { searchSessions } from './search-service.ts';
import { putWithUsage } from './usage-test-catalogue.ts';

const call = (timestamp: string, input: number, model: string, tool: string, failed = false): Message[] => [
  {
    ...textMessage('assistant', 'ok'),
    timestamp,
    model,
    usage: { input, output: 10, cacheRead: input * 2, cacheWrite: 5, reasoning: 1 },
    cost: { usd: input / 1e5, estimated: true },
    parts: [{ type: 'tool_call', callId: `${timestamp}${tool}`, name: tool, input: {} }],
  },
  { ...textMessage('user', ''), parts: [{ type: 'tool_result', callId: `${timestamp}${tool}`, output: 'x', isError: failed }] },
];

function session(id: string, format: Session['format'], project: string, words: string, calls: Message[][], parentKey: string | null = null): Session {
  const messages = calls.flat();
  return makeSession(id, {
    format,
    parentKey,
    project: { path: `/home/dev/${project}`, name: project, branch: 'main', headCommit: null },
    model: { provider: null, name: messages.find((m) => m.model)?.model ?? null, parameters: {} },
    createdAt: messages[0]?.timestamp ?? null,
    updatedAt: messages.filter((m) => m.timestamp).at(-1)?.timestamp ?? null,
    messages: [textMessage('user', words), ...messages],
  });
}

const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const NOW = Date.parse('2026-04-01T00:00:00Z');

/** Sessions over a few days (one across midnight UTC), three projects, two sources, sub-agents and a kept copy. */
function fill(catalogue: IndexedCatalogue): void {
  putWithUsage(
    catalogue,
    '/roots/a.jsonl',
    session('a', 'claude-code', 'app', 'refactor the parser', [
      call('2026-03-01T09:10:00Z', 1000, 'claude-opus-4-7', 'Bash'),
      call('2026-03-01T23:50:00Z', 500, 'claude-sonnet-4-5', 'Read', true),
      call('2026-03-02T00:20:00Z', 250, 'claude-opus-4-7', 'Edit'),
    ]),
  );
  putWithUsage(
    catalogue,
    '/roots/a-sub.jsonl',
    session('a-sub', 'claude-code', 'app', 'look around', [call('2026-03-01T10:00:00Z', 300, 'claude-haiku-4-5', 'Grep')], 'claude-code:a'),
  );
  putWithUsage(
    catalogue,
    '/roots/b.jsonl',
    session('b', 'codex', 'site', 'deploy the parser', [call('2026-03-02T14:05:00Z', 700, 'gpt-5-codex', 'exec_command')]),
  );
  putWithUsage(
    catalogue,
    '/roots/c.jsonl',
    session('c', 'claude-code', 'lib', 'parser cache', [
      call('2026-03-10T08:00:00Z', 300, 'claude-opus-4-7', 'Bash'),
      call('2026-03-10T15:30:00Z', 900, 'claude-opus-4-7', 'Bash', true),
    ]),
  );
  putWithUsage(
    catalogue,
    '/roots/d.jsonl',
    session('d', 'claude-code', 'app', 'release notes', [call('2026-03-20T12:00:00Z', 50, 'claude-sonnet-4-5', 'Write')]),
  );
  putWithUsage(
    catalogue,
    '/roots/e.jsonl',
    session('e', 'codex', 'app', 'parser timeout', [call('2026-03-28T19:45:00Z', 1200, 'gpt-5.1-codex', 'apply_patch')]),
  );
  const kept = session('kept', 'claude-code', 'lib', 'parser kept', [call('2026-03-05T10:00:00Z', 900, 'claude-haiku-4-5', 'Grep')]);
  putWithUsage(catalogue, '/roots/kept.jsonl', kept);
  putWithUsage(catalogue, '/vault/sessions/claude-code:kept/source/roots/kept.jsonl', kept);
}

const newCatalogue = (index: SessionIndex) =>
  new IndexedCatalogue(
    index,
    (path) => (path.startsWith('/vault/') ? 'copy' : null),
    () => '',
    (path) => (path.startsWith('/vault/') ? 'claude-code:kept' : null),
  );

/** The dashboard both ways (the hourly rows are the reference), compared to 12 significant digits (sums in another order). */
function both(catalogue: IndexedCatalogue, query: string, breakdown: 'model' | 'source' | 'project' = 'model', timezone = HERE) {
  catalogue.index.flush();
  const pick = (d: ReturnType<typeof usageDashboard>) =>
    JSON.parse(JSON.stringify({ ...d, tookMs: 0 }), (_, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)) as typeof d;
  return [
    pick(usageDashboard(catalogue, { query, timezone, breakdown }, () => null, NOW)),
    pick(usageDashboard(catalogue, { query, timezone, breakdown }, () => null, NOW, true)),
  ] as const;
}

const QUERIES: Array<[string, 'model' | 'source' | 'project']> = [
  ['parser', 'model'],
  ['parser', 'source'],
  ['parser', 'project'],
  ['', 'project'],
  ['refactor', 'model'],
  ['project:app', 'source'],
  ['project:lib', 'model'],
  ['after:2026-03-01T12:00 before:2026-03-10T12:00', 'model'],
  ['after:30d', 'project'],
  ['model:opus', 'model'],
  ['parser project:app after:2026-03-01T05:00', 'source'],
  ['-release', 'model'],
  ['source:codex', 'project'],
  ['nothingmatchesthis', 'model'],
];

describe('the dashboard from the files’ rows per day', () => {
  const catalogue = newCatalogue(new SessionIndex(':memory:'));
  fill(catalogue);

  it.each(QUERIES)('shows for %s (by %s) what the hourly rows show', (query, breakdown) => {
    const [fast, reference] = both(catalogue, query, breakdown);
    expect(fast).toEqual(reference);
  });

  it('adds a query matching most files up as the totals less the other files, and agrees', () => {
    const [fast, reference] = both(catalogue, 'parser');
    expect(fast.totals.sessions).toBeGreaterThan(3);
    expect(fast.tools.find((t) => t.name === 'Bash')).toEqual({ name: 'Bash', calls: 3, failures: 1 });
    expect(fast).toEqual(reference);
  });

  it('falls back to the hourly rows in another time zone than the one the days were counted in', () => {
    const other = HERE === 'Asia/Kolkata' ? 'America/New_York' : 'Asia/Kolkata';
    const [fast, reference] = both(catalogue, 'parser', 'model', other);
    expect(fast).toEqual(reference);
  });
});

describe('an after: and before: that cut a day', () => {
  const catalogue = newCatalogue(new SessionIndex(':memory:'));
  // Local times: calls either side of the first day's cut and of the midnights before and after the first and last day
  // (inputs 1, 2, 4 ... tell them apart). The session ends before the last day's cut (a later one is not matched by before:).
  const at = (day: number, hour: number, minute: number) => new Date(2026, 2, day, hour, minute).toISOString();
  const calls = [at(1, 10, 30), at(1, 12, 10), at(1, 23, 30), at(2, 0, 30), at(9, 23, 30), at(10, 0, 10)].map((t, i) =>
    call(t, 2 ** i, 'claude-opus-4-7', 'Bash'),
  );
  putWithUsage(catalogue, '/roots/edges.jsonl', session('edges', 'claude-code', 'app', 'edge hours', calls));

  it('counts the hours of the first and last day inside the dates only, as the hourly rows do', () => {
    const [fast, reference] = both(catalogue, 'after:2026-03-01T12:00 before:2026-03-10T12:00');
    expect(fast).toEqual(reference);
    // In: 12:10 and 23:30 on the first day, the days between, 00:10 on the last; out: 10:30 on the first day (an hour
    // before the cut: the hours are UTC hours, so in a half-hour zone the cut's hour starts at 11:30).
    expect(fast.totals.input).toBe(2 + 4 + 8 + 16 + 32);
  });
});

describe('the model: filter', () => {
  const catalogue = newCatalogue(new SessionIndex(':memory:'));
  fill(catalogue);
  const keys = (query: string) =>
    searchSessions(catalogue, { query, limit: 50 }, (x) => x, { summaries: new Map() } as never)
      .results.map((r) => r.summary.id)
      .sort();

  it('finds the sessions that called a model as well as those whose model it is (what a click on a model in the dashboard puts in)', () => {
    catalogue.index.flush();
    // a's model is claude-opus-4-7; it called claude-sonnet-4-5 once (d's model), its sub-agent claude-haiku-4-5.
    expect(keys('model:"claude-sonnet-4-5"')).toEqual(['a', 'd']);
    expect(keys('model:sonnet')).toEqual(['a', 'd']);
    expect(keys('model:"claude-opus-4-7"')).toEqual(['a', 'c']);
    expect(keys('model:"gpt-5-codex"')).toEqual(['b']);
  });
});

describe('an index of version 9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sv-file-days-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gains every file’s rows per day and its tools from the rows it has, without reading a file again', async () => {
    const file = join(dir, 'index.sqlite');
    const first = new SessionIndex(file);
    fill(newCatalogue(first));
    await first.settled();
    first.close();
    const db = new DatabaseSync(file);
    db.exec('DELETE FROM usage_file_days; ALTER TABLE usage_sessions DROP COLUMN tools; PRAGMA user_version = 9');
    db.close();
    const index = new SessionIndex(file);
    try {
      const catalogue = newCatalogue(index);
      for (const [query, breakdown] of QUERIES) {
        const [fast, reference] = both(catalogue, query, breakdown);
        expect(fast, query).toEqual(reference);
      }
      expect(both(catalogue, 'parser')[0].totals.totalTokens).toBeGreaterThan(0);
    } finally {
      index.close();
    }
  });
});
