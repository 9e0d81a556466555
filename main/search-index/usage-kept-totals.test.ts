// The writer's totals kept between dashboard calls (usage-kept-totals.ts): read again once the index changed, by this connection or another (the writer thread's), not for the dashboard's own temporary tables, never changed by a query that takes others off them, and the dashboard never shows figures from before a write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { Prng } from '../bench/prng.ts';
import { syntheticSession } from '../bench/usage-dashboard.ts';
import { SessionIndex } from './index-store.ts';
import { keptRows } from './usage-kept-totals.ts';
import { noteTempChanges } from './index-generation.ts';
import { dashboardBothWays, fillVaried, putWithUsage, vaultCatalogue } from './usage-test-catalogue.ts';

const NOW = Date.UTC(2026, 10, 1);
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;

describe('the totals kept between dashboard calls', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sv-kept-totals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are read once until the index changes: a write on the connection, or a commit on another', () => {
    const file = join(dir, 'totals.sqlite');
    const db = new DatabaseSync(file);
    db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (day TEXT, n REAL); INSERT INTO t VALUES ('2026-01-01', 1), ('2026-01-02', 2.5);");
    const index = { prepared: (sql: string) => db.prepare(sql) };
    const sql = 'SELECT day, n FROM t WHERE n > ? ORDER BY day';
    const first = keptRows(index, sql, [0], true);
    expect(first).toEqual([
      ['2026-01-01', 1],
      ['2026-01-02', 2.5],
    ]);
    expect(keptRows(index, sql, [0], true)).toBe(first);
    // Other parameters, or rows as objects: a read of their own.
    expect(keptRows(index, sql, [2], true)).toEqual([['2026-01-02', 2.5]]);
    expect(keptRows(index, sql, [0])).toEqual([
      { day: '2026-01-01', n: 1 },
      { day: '2026-01-02', n: 2.5 },
    ]);
    // The dashboard's temporary tables (their changes noted) change nothing the totals hold.
    db.exec('CREATE TEMP TABLE sv_x (id INTEGER PRIMARY KEY)');
    noteTempChanges(index, Number(db.prepare('INSERT INTO sv_x (id) VALUES (1), (2)').run().changes));
    expect(keptRows(index, sql, [0], true)).toBe(first);
    // A write on this connection (an index in memory writes on the caller's).
    db.prepare("INSERT INTO t VALUES ('2026-01-03', 3)").run();
    const second = keptRows(index, sql, [0], true);
    expect(second).toHaveLength(3);
    expect(keptRows(index, sql, [0], true)).toBe(second);
    // A commit on another connection (the writer thread's).
    const writer = new DatabaseSync(file);
    writer.prepare('UPDATE t SET n = n + 1').run();
    writer.close();
    expect(keptRows(index, sql, [0], true)).toEqual([
      ['2026-01-01', 2],
      ['2026-01-02', 3.5],
      ['2026-01-03', 4],
    ]);
    db.close();
  });

  it.each(['model', 'project'] as const)('are left as they were by a query that takes the others off them (by %s)', (breakdown) => {
    const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
    fillVaried(catalogue, 120);
    // The word's others taken off the kept day rows, then the kept rows alone, then the word again.
    for (const query of ['parser', '', 'parser', '']) {
      const [fast, reference] = dashboardBothWays(catalogue, query, breakdown, HERE, NOW);
      expect(fast).toStrictEqual(reference);
    }
  });

  it('leave the dashboard as the hourly rows show it after the writer thread adds sessions', async () => {
    const index = new SessionIndex(join(dir, 'index.sqlite'));
    const catalogue = vaultCatalogue(index);
    const rng = new Prng(7);
    const add = async (from: number, to: number) => {
      for (let n = from; n < to; n++) {
        const s = syntheticSession(rng, n);
        putWithUsage(catalogue, s.sourceFiles[0]?.path as string, s);
      }
      await index.settled();
    };
    try {
      await add(0, 60);
      const asked = [
        ['', 'project'],
        ['', 'model'],
        ['parser', 'project'],
      ] as const;
      const before = asked.map(([query, breakdown]) => dashboardBothWays(catalogue, query, breakdown, HERE, NOW));
      for (const [fast, reference] of before) expect(fast).toStrictEqual(reference);
      await add(60, 90);
      asked.forEach(([query, breakdown], i) => {
        const [fast, reference] = dashboardBothWays(catalogue, query, breakdown, HERE, NOW);
        expect(fast).toStrictEqual(reference);
        expect(fast.totals.totalTokens).toBeGreaterThan(before[i]![0].totals.totalTokens);
      });
    } finally {
      index.close();
    }
  });
});
