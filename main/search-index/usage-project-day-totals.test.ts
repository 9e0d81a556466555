// Schema 15's totals per day and project over every source: an index of schema 14 gains them from its totals per source, equal to what the writer keeps, and the dashboard by project answers as the hourly rows do.
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionIndex } from './index-store.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { dashboardBothWays, fillVaried, vaultCatalogue } from './usage-test-catalogue.ts';

const NOW = Date.UTC(2026, 10, 1);
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** Days stacked by project: over every source (the new totals), with a source (the totals per source), a word, dates whole and cut at an hour. */
const BY_PROJECT = [
  '',
  'source:codex',
  'parser',
  'after:30d',
  'after:2026-06-01 before:2026-06-30',
  'after:2026-06-01T12:00:00Z before:2026-06-30T12:00:00Z',
  'project:proj-7',
];

/** The totals as sorted rows, each number to 12 significant digits (the writer and the upgrade add in another order). */
function totals(read: (sql: string) => unknown[]): unknown[] {
  return read('SELECT * FROM usage_project_day_totals WHERE calls <> 0 ORDER BY zone, day, project').map((r) =>
    Object.fromEntries(Object.entries(r as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'number' ? Number(v.toPrecision(12)) : v])),
  );
}

describe('an index of schema 14', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sv-project-day-totals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gains the totals per day and project from its totals per source: the writer’s, and the same answers', async () => {
    const file = join(dir, 'index.sqlite');
    const first = new SessionIndex(file);
    // The bench's sessions, with kept copies (shadowed by their live file: taken off the totals) and sub-agents; 300 of
    // them, so days share projects across sources in any machine zone (150 did not in India's: the counts tied).
    fillVaried(vaultCatalogue(first), 300);
    await first.settled();
    first.close();
    // Schema 14 is schema 15 without the totals per day and project, at version 14.
    const db = new DatabaseSync(file);
    const written = totals((sql) => db.prepare(sql).all());
    // Projects share days across sources, so the table is not the totals per source again.
    const perSource = (db.prepare('SELECT count(*) AS n FROM usage_project_days WHERE calls <> 0').get() as { n: number }).n;
    expect(written.length).toBeGreaterThan(100);
    expect(written.length).toBeLessThan(perSource);
    db.exec('DROP TABLE usage_project_day_totals; PRAGMA user_version = 14');
    db.close();

    const index = new SessionIndex(file);
    try {
      expect(index.note).toBe(`The search index was upgraded from version 14 to ${SCHEMA_VERSION}.`);
      expect(totals((sql) => index.prepared(sql).all())).toEqual(written);
      const upgraded = vaultCatalogue(index);
      await upgraded.restore(() => true);
      for (const query of BY_PROJECT) {
        const [fast, reference] = dashboardBothWays(upgraded, query, 'project', HERE, NOW);
        expect(fast, query).toEqual(reference);
        expect(fast.totals.sessions, query).toBeGreaterThan(0);
      }
    } finally {
      index.close();
    }
  });
});
