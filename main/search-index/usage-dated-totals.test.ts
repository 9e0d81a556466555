// A dashboard query with dates counted as the totals per day less the other files with usage on those days shows what every counted file's hourly rows show (days held whole, and first or last days cut at an hour), is taken only when the others are the fewer, and an index of schema 12 gains the day rows by day.
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { syntheticSession } from '../bench/usage-dashboard.ts';
import { Prng } from '../bench/prng.ts';
import { SessionIndex } from './index-store.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { fromDatedTotals } from './usage-dashboard-sets.ts';
import { catalogueSource, usageScope } from './usage-match.ts';
import { storeScope } from './usage-scope-table.ts';
import { clockFor } from './usage-timeline.ts';
import { dashboardBothWays, putWithUsage, VAULT, vaultCatalogue } from './usage-test-catalogue.ts';

const NOW = Date.UTC(2026, 10, 1);
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const HOUR = 3_600_000;

/** The session moved in time to start at `startMs` (its calls keep their spacing). */
function startingAt(s: Session, startMs: number): Session {
  const by = startMs - Date.parse(s.createdAt as string);
  const move = (t: string | null) => (t === null ? null : new Date(Date.parse(t) + by).toISOString());
  return {
    ...s,
    createdAt: move(s.createdAt),
    updatedAt: move(s.updatedAt),
    messages: s.messages.map((m) => ({ ...m, timestamp: move(m.timestamp) })),
  };
}

/**
 * The bench's sessions over a year, and 48 more starting every hour from 2026-06-02 (so each hour of 3 June has
 * calls, and a day cut at an hour differs from the whole day); a quarter of the Claude ones with a sub-agent, kept
 * copies of some (shadowed by their live file) and of a few whose live file is gone.
 */
function fill(catalogue: IndexedCatalogue): void {
  const rng = new Prng(17);
  for (let n = 0; n < 248; n++) {
    const made = syntheticSession(rng, n);
    const s = n < 200 ? made : startingAt(made, Date.UTC(2026, 5, 2) + (n - 200) * HOUR);
    const path = s.sourceFiles[0]?.path as string;
    if (n % 23 !== 0) putWithUsage(catalogue, path, s);
    if (n % 11 === 0 || n % 23 === 0) putWithUsage(catalogue, `${VAULT}${s.key}/source${path}`, s);
    if (s.format === 'claude-code' && rng.next() < 0.25) {
      const sub = syntheticSession(rng, 1000 + n, s.key);
      putWithUsage(catalogue, sub.sourceFiles[0]?.path as string, n < 200 ? sub : startingAt(sub, Date.parse(s.createdAt as string) + HOUR));
    }
  }
}

const both = (catalogue: IndexedCatalogue, query: string, breakdown: 'model' | 'source' | 'project') =>
  dashboardBothWays(catalogue, query, breakdown, HERE, NOW);

/** Whether the query is counted from the totals per day (the dashboard's own steps up to the choice). */
function fromTotals(catalogue: IndexedCatalogue, query: string): boolean {
  catalogue.index.flush();
  const source = catalogueSource(catalogue, () => null);
  const scope = usageScope(source, query, undefined, NOW);
  const { afterMs, beforeMs } = scope.parsed.filters;
  const clock = clockFor(catalogue, afterMs === undefined ? 0 : Math.floor(afterMs / HOUR) * HOUR, beforeMs ?? Number.MAX_SAFE_INTEGER, HERE);
  return fromDatedTotals(catalogue, storeScope(source, scope), clock, 'model') !== null;
}

const DATED = [
  'after:2026-06-03T06:00:00Z',
  'before:2026-06-03T18:00:00Z',
  'after:2026-06-03T06:00:00Z before:2026-06-03T18:00:00Z',
  'after:2026-06-02 before:2026-06-04',
  'after:90d',
];

describe('the dashboard with dates', () => {
  const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
  fill(catalogue);

  it.each(DATED.flatMap((q) => (['model', 'source', 'project'] as const).map((b) => [q, b] as const)))(
    'shows for %s (by %s) what the hourly rows show',
    (query, breakdown) => {
      const [fast, reference] = both(catalogue, query, breakdown);
      expect(fast).toEqual(reference);
      expect(fast.totals.sessions).toBeGreaterThan(0);
    },
  );

  it('shows nothing for dates with no usage, as the hourly rows do', () => {
    for (const query of ['after:2027-01-01', 'before:2020-01-01', 'after:2026-06-03T06:30:00Z before:2026-06-03T06:40:00Z']) {
      const [fast, reference] = both(catalogue, query, 'model');
      expect(fast, query).toEqual(reference);
    }
    expect(both(catalogue, 'after:2027-01-01', 'model')[0].totals.totalTokens).toBe(0);
  });

  it('cuts the first and last day at their hours (an hour more or less shows)', () => {
    const [morning] = both(catalogue, 'after:2026-06-03T06:00:00Z before:2026-06-03T18:00:00Z', 'model');
    const [longer] = both(catalogue, 'after:2026-06-03T05:00:00Z before:2026-06-03T19:00:00Z', 'model');
    expect(longer.totals.totalTokens).toBeGreaterThan(morning.totals.totalTokens);
  });

  it('adds up from the totals per day only when the files it does not count are the fewer on those days', () => {
    expect(fromTotals(catalogue, 'after:2026-06-03T06:00:00Z')).toBe(true);
    expect(fromTotals(catalogue, 'after:90d')).toBe(true);
    expect(fromTotals(catalogue, 'project:proj-7 after:90d')).toBe(false);
    const [fast, reference] = both(catalogue, 'project:proj-7 after:90d', 'project');
    expect(fast).toEqual(reference);
    // The current block (its files tested once each) is compared too: it is not empty.
    expect(both(catalogue, 'after:90d', 'model')[0].block).not.toBeNull();
  });
});

describe('an index of schema 12', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sv-dashboard-dated-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gains the day rows by day from the rows it has, and answers with dates from the totals as before', async () => {
    const file = join(dir, 'index.sqlite');
    const first = new SessionIndex(file);
    fill(vaultCatalogue(first));
    await first.settled();
    first.close();
    // Schema 12 is schema 13 without the index of the day rows by day, at version 12.
    const db = new DatabaseSync(file);
    db.exec('DROP INDEX usage_file_days_day; PRAGMA user_version = 12');
    db.close();
    const index = new SessionIndex(file);
    try {
      expect(index.note).toBe(`The search index was upgraded from version 12 to ${SCHEMA_VERSION}.`);
      expect(index.prepared("SELECT count(*) AS n FROM sqlite_master WHERE name = 'usage_file_days_day'").get()).toEqual({ n: 1 });
      const catalogue = vaultCatalogue(index);
      await catalogue.restore(() => true);
      expect(fromTotals(catalogue, 'after:2026-06-03T06:00:00Z')).toBe(true);
      for (const query of DATED) {
        const [fast, reference] = both(catalogue, query, 'model');
        expect(fast, query).toEqual(reference);
      }
    } finally {
      index.close();
    }
  });
});
