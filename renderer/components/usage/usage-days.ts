// The dashboard's days (each once, in order) and each day's rows, indexed once: the tables asked every day's rows of every row before.
import type { UsageDashboard } from '../../../shared/usage-api.ts';

type DayRow = UsageDashboard['days'][number];

export function daysOf(rows: DayRow[]): { days: string[]; perDay: (day: string) => DayRow[] } {
  const byDay = new Map<string, DayRow[]>();
  for (const r of rows) {
    const list = byDay.get(r.day);
    if (list) list.push(r);
    else byDay.set(r.day, [r]);
  }
  return { days: [...byDay.keys()], perDay: (day) => byDay.get(day) ?? [] };
}
