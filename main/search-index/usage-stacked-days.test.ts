// The dashboard's days stacked by their largest groups (stackedDays): the same cells, in the same order, as a plain grouping by a day-and-group key and a sort by day then group rank.
import { describe, expect, it } from 'vitest';
import { Prng } from '../bench/prng.ts';
import { NONE, OTHER, stackedDays, TOP_GROUPS, type DayRow } from './usage-timeline.ts';

/** The plain way: a key string per row, and each pair of cells compared by day text, then by the group's place. */
function reference(rows: readonly DayRow[]) {
  const tokens = (r: DayRow) => r.input + r.output + r.cacheRead + r.cacheWrite + r.reasoning;
  const perGroup = new Map<string, number>();
  for (const r of rows) perGroup.set(r.g || NONE, (perGroup.get(r.g || NONE) ?? 0) + tokens(r));
  const ranked = [...perGroup].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([g]) => g);
  const top = new Set(ranked.slice(0, TOP_GROUPS));
  const cells = new Map<string, { day: string; group: string; totalTokens: number; costUsd: number; unpricedCalls: number }>();
  for (const r of rows) {
    const group = top.has(r.g || NONE) ? r.g || NONE : OTHER;
    const id = `${r.day}\n${group}`;
    const cell = cells.get(id) ?? { day: r.day, group, totalTokens: 0, costUsd: 0, unpricedCalls: 0 };
    cell.totalTokens += tokens(r);
    cell.costUsd += r.cost;
    cell.unpricedCalls += r.unpriced;
    cells.set(id, cell);
  }
  const groups = ranked.length > TOP_GROUPS ? [...ranked.slice(0, TOP_GROUPS), OTHER] : ranked;
  return { groups, days: [...cells.values()].sort((a, b) => a.day.localeCompare(b.day) || groups.indexOf(a.group) - groups.indexOf(b.group)) };
}

/** Day rows in no order: `groups` names (with a null and an empty one), days over two years, fractional costs. */
function rows(seed: number, groups: number, n: number): DayRow[] {
  const rng = new Prng(seed);
  const names = [null, '', ...Array.from({ length: groups }, (_, i) => `group-${i}`)];
  return Array.from({ length: n }, () => {
    const day = new Date(Date.UTC(2025, 0, 1) + rng.int(0, 700) * 86_400_000).toISOString().slice(0, 10);
    return {
      day,
      g: rng.pick(names),
      input: rng.int(0, 5000),
      output: rng.int(0, 2000),
      cacheRead: rng.int(0, 60_000),
      cacheWrite: rng.int(0, 3000),
      reasoning: rng.int(0, 500),
      cost: rng.next() / 7,
      unpriced: rng.int(0, 2),
      calls: rng.int(1, 9),
    };
  });
}

describe('days stacked by their largest groups', () => {
  it.each([
    ['fewer groups than are shown', 3],
    ['more groups than are shown (the rest as "other")', 30],
  ])('are the plain grouping’s cells, figures and order, to the last bit: %s', (_, groups) => {
    const some = rows(groups, groups, 5000);
    const stacked = stackedDays(some);
    expect(stacked).toStrictEqual(reference(some));
    expect(stacked.days.length).toBeGreaterThan(600);
    expect(stacked.groups.includes(OTHER)).toBe(groups + 2 > TOP_GROUPS);
  });

  it('are empty for no rows', () => {
    expect(stackedDays([])).toStrictEqual({ groups: [], days: [] });
  });
});
