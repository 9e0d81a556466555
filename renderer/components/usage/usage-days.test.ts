// The dashboard's days come out once each, in the order the figures list them, each with its own rows only.
import { expect, it } from 'vitest';
import { daysOf } from './usage-days.ts';

const row = (day: string, group: string, totalTokens: number) => ({ day, group, totalTokens, costUsd: 0, unpricedCalls: 0 });

it('lists each day once, in order, with its rows', () => {
  const { days, perDay } = daysOf([row('2026-03-01', 'opus', 5), row('2026-03-01', 'sonnet', 7), row('2026-03-02', 'opus', 1), row('2026-03-01', 'haiku', 2)]);
  expect(days).toEqual(['2026-03-01', '2026-03-02']);
  expect(perDay('2026-03-01').map((r) => r.group)).toEqual(['opus', 'sonnet', 'haiku']);
  expect(perDay('2026-03-02').map((r) => r.totalTokens)).toEqual([1]);
  expect(perDay('2026-03-03')).toEqual([]);
});
