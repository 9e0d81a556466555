// The dashboard on a machine whose time zone is a half or quarter hour off UTC (rows cut at its local hours): its fast answers equal the hourly rows', and no heatmap cell is negative.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const FIXTURE = resolve(import.meta.dirname, 'fixtures/dashboard-in-zone.ts');
/** Dates as UTC days, which end mid-hour in these zones; a relative start; hours of one day. */
const QUERIES = [
  'after:2026-06-10 before:2026-06-10',
  'after:2026-01-15 before:2026-01-16',
  'after:30d',
  'after:2026-06-03T06:00:00Z before:2026-06-03T18:00:00Z',
  '',
];

describe('the dashboard in a machine zone that cuts hours', () => {
  // Newfoundland (-2:30 in summer, -3:30 in winter), India (+5:30), Nepal (+5:45); their offsets in June say the TZ was taken.
  it.each([
    ['America/St_Johns', -150],
    ['Asia/Kolkata', 330],
    ['Asia/Kathmandu', 345],
  ] as const)(
    'answers in %s as the hourly rows do',
    (zone, offset) => {
      const out = execFileSync(process.execPath, [FIXTURE, JSON.stringify(QUERIES)], { env: { ...process.env, TZ: zone }, encoding: 'utf8' });
      const parsed = JSON.parse(out) as { offset: number; answers: Array<{ query: string; same: boolean; negative: boolean }> };
      expect(parsed.offset).toBe(offset);
      expect(parsed.answers).toEqual(QUERIES.map((query) => ({ query, same: true, negative: false })));
    },
    60_000,
  );
});
