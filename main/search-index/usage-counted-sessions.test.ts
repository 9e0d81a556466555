// A dated query's counted sessions (usage-dated-totals.ts countedSessions): the files with usage in the clock per project, found through the days' index, are those whose own day rows say so, and the tools and buckets are setSessions'.
import { describe, expect, it } from 'vitest';
import { syntheticSession } from '../bench/usage-dashboard.ts';
import { Prng } from '../bench/prng.ts';
import { SessionIndex } from './index-store.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { allInClock, countedSessions } from './usage-dated-totals.ts';
import { clockDays, setSessions } from './usage-file-days.ts';
import { catalogueSource, usageScope } from './usage-match.ts';
import { FAMILY_TABLE, storeScope } from './usage-scope-table.ts';
import { putWithUsage, vaultCatalogue } from './usage-test-catalogue.ts';
import { clockFor } from './usage-timeline.ts';
import { projectName } from './usage-write.ts';

const NOW = Date.UTC(2026, 10, 1);
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const HOUR_MS = 3_600_000;

function filled(sessions: number): IndexedCatalogue {
  const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
  const rng = new Prng(23);
  for (let n = 0; n < sessions; n++) {
    const s = syntheticSession(rng, n);
    // Some projects named outside ASCII whose UTF-8 order (SQLite's) is not their UTF-16 order (JavaScript's).
    const odd = n % 2 ? '\u{1F980}-crab' : '\uFF71-kana';
    const named = n % 7 === 0 ? { ...s, project: { ...s.project, path: `/home/dev/src/${odd}`, name: odd } } : s;
    putWithUsage(catalogue, named.sourceFiles[0]?.path as string, named);
  }
  catalogue.index.flush();
  return catalogue;
}

/** What each counted file's own day rows say: the files with one on a day the clock holds whole, or among `edge`, per project, in GROUP BY's order. */
function reference(catalogue: IndexedCatalogue, first: string, last: string, cuts: string[], edge: number[]): Array<[string, number]> {
  const rows = catalogue.index
    .prepared(
      `SELECT s.project AS project, count(*) AS n FROM ${FAMILY_TABLE} x CROSS JOIN usage_sessions s ON s.file_id = x.id
      WHERE EXISTS (SELECT 1 FROM usage_file_days d WHERE d.file_id = x.id AND d.day >= ? AND d.day <= ? AND d.day != ? AND d.day != ?)
      OR x.id IN (SELECT value FROM json_each(?)) GROUP BY s.project`,
    )
    .all(first, last, cuts[0] ?? '', cuts[1] ?? '', JSON.stringify(edge)) as Array<{ project: string; n: number }>;
  const byName = new Map<string, number>();
  for (const { project, n } of rows) {
    const name = projectName(project) || '(none)';
    byName.set(name, (byName.get(name) ?? 0) + n);
  }
  return [...byName];
}

describe('a dated query’s counted sessions', () => {
  const catalogue = filled(260);
  const source = catalogueSource(catalogue, () => null);

  it.each(['after:30d', 'after:36h', 'after:2026-06-01T12:00:00Z before:2026-06-30T12:00:00Z', 'before:2026-01-15', 'after:90d parser'])(
    'are for %s the files whose own day rows (or hours on a cut day) fall in the clock, per project in the same order, with setSessions’ tools and buckets',
    (query) => {
      const scope = usageScope(source, query, undefined, NOW);
      storeScope(source, scope);
      const { afterMs, beforeMs } = scope.parsed.filters;
      const clock = clockFor(catalogue, afterMs === undefined ? 0 : Math.floor(afterMs / HOUR_MS) * HOUR_MS, beforeMs ?? Number.MAX_SAFE_INTEGER, HERE);
      const days = clockDays(clock);
      const { edgeFiles } = allInClock(catalogue, clock, 'model', new Set());
      const got = countedSessions(catalogue, clock, edgeFiles);
      const expected = reference(
        catalogue,
        days.first,
        days.last,
        days.cuts.map(([day]) => day),
        edgeFiles,
      );
      expect([...got.counted]).toStrictEqual(expected);
      expect(expected.reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(0);
      expect(got.sessions).toStrictEqual(setSessions(catalogue, 'matched'));
    },
  );

  it('lists projects outside ASCII in byte order, as SQLite groups them (a character past U+FFFF after U+FF71)', () => {
    const scope = usageScope(source, 'before:2026-12-31', undefined, NOW);
    storeScope(source, scope);
    const clock = clockFor(catalogue, 0, scope.parsed.filters.beforeMs ?? Number.MAX_SAFE_INTEGER, HERE);
    const names = [...countedSessions(catalogue, clock, []).counted.keys()];
    expect(names.filter((n) => n.endsWith('-crab') || n.endsWith('-kana'))).toStrictEqual(['\uFF71-kana', '\u{1F980}-crab']);
  });
});
