// `usage daily|weekly|monthly` from the writer's day totals: the same rows and totals as from every file's hourly rows, after kept copies, sub-agents and removals; and the hourly rows when the totals cannot tell.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MethodInput, MethodOutput } from '../../shared/api.ts';
import { SessionIndex } from './index-store.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { catalogueSource, usageScope } from './usage-match.ts';
import { reportFrom } from './usage-report.ts';
import { reportFromTotals } from './usage-report-totals.ts';
import { fillVaried, vaultCatalogue } from './usage-test-catalogue.ts';

type Input = MethodInput<'usageReport'>;
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const OTHER_ZONE = HERE === 'Asia/Tokyo' ? 'America/New_York' : 'Asia/Tokyo';

let catalogue: IndexedCatalogue;
const source = () => catalogueSource(catalogue, () => null);

/** The report without its time, each number to 12 significant digits (the totals and the rows add up in another order). */
function shown(r: MethodOutput<'usageReport'>): unknown {
  return JSON.parse(JSON.stringify({ ...r, tookMs: 0 }), (_, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v));
}

/** The report as the app answers it, and from every counted file's hourly rows (the reference). */
function bothWays(input: Input) {
  catalogue.index.flush();
  return [shown(reportFrom(source(), input)), shown(reportFrom(source(), input, false))] as const;
}

const answersFromTotals = (input: Input) => reportFromTotals(source(), input, usageScope(source(), input.query ?? ''), input.timezone ?? HERE) !== null;

beforeAll(() => {
  // The bench's sessions: three sources, 40 projects over a year, several models a session, sub-agents, kept copies
  // shadowed by their live file and copies whose live file is gone.
  catalogue = vaultCatalogue(new SessionIndex(':memory:'));
  fillVaried(catalogue, 160);
});

describe('usage reports from the day totals', () => {
  const cases: Input[] = [];
  for (const period of ['daily', 'weekly', 'monthly'] as const)
    for (const breakdown of [undefined, 'model', 'source'] as const)
      for (const query of ['', 'source:codex', 'source:claude-code']) cases.push({ period, timezone: HERE, query, ...(breakdown ? { breakdown } : {}) });
  cases.push({ period: 'daily', timezone: HERE, since: '2026-03-01', until: '2026-05-31' });
  cases.push({ period: 'monthly', timezone: HERE, breakdown: 'model', query: 'source:gemini', since: '2026-06-15' });

  it.each(cases)('answers $period by $breakdown for "$query" as the hourly rows do', (input) => {
    expect(answersFromTotals(input)).toBe(true);
    const [fast, reference] = bothWays(input);
    expect((reference as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    expect(fast).toEqual(reference);
  });

  it('still answers as the hourly rows do after sessions are removed and a copy stops being shadowed', () => {
    const paths = (catalogue.index.prepared("SELECT path FROM files WHERE path NOT LIKE '/vault/%' ORDER BY id LIMIT 12").all() as Array<{ path: string }>).map(
      (r) => r.path,
    );
    for (const path of paths) catalogue.remove(path);
    for (const input of [
      { period: 'daily', timezone: HERE },
      { period: 'weekly', timezone: HERE, breakdown: 'model' },
      { period: 'monthly', timezone: HERE, breakdown: 'source', query: 'source:claude-code' },
    ] as Input[]) {
      expect(answersFromTotals(input)).toBe(true);
      const [fast, reference] = bothWays(input);
      expect(fast).toEqual(reference);
    }
  });

  it('leaves to the hourly rows what the day totals cannot tell', () => {
    for (const input of [
      { period: 'session', timezone: HERE },
      { period: 'daily', timezone: HERE, breakdown: 'branch' },
      { period: 'daily', timezone: HERE, breakdown: 'project' },
      { period: 'daily', timezone: HERE, query: 'parser' },
      { period: 'daily', timezone: HERE, query: 'project:proj-7' },
      // Days in another zone than the one the writer counted them in.
      { period: 'daily', timezone: OTHER_ZONE },
    ] as Input[]) {
      expect(answersFromTotals(input), JSON.stringify(input)).toBe(false);
      const [answer, reference] = bothWays(input);
      expect(answer).toEqual(reference);
    }
  });
});
