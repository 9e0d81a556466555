// The search-box filters a click on the dashboard puts in (a day, an hour, a project, a model, a source), or takes out again.
import type { DashboardBreakdown } from '../../../shared/usage-api.ts';
import { hasFilter, toggleFilter } from '../../search-query.ts';
import { isoFromMs } from '../../../shared/iso-time.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** The next day of a YYYY-MM-DD day. */
function nextDay(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
  return isoFromMs(t)?.slice(0, 10) ?? day;
}

/**
 * A local day as `after:`/`before:` filters. The dashboard counts days in this machine's time zone, and a date with a
 * time but no zone is read in local time (the app's server runs on this machine), so the filter is that day exactly.
 */
export function dayFilters(day: string): string[] {
  return [`after:${day}T00:00`, `before:${nextDay(day)}T00:00`];
}

/** One local hour of a day as `after:`/`before:` filters. */
export function hourFilters(day: string, hour: number): string[] {
  const end = hour === 23 ? `${nextDay(day)}T00:00` : `${day}T${pad(hour + 1)}:00`;
  return [`after:${day}T${pad(hour)}:00`, `before:${end}`];
}

const quoted = (value: string) => `"${value.replaceAll('"', '')}"`;

/**
 * The filter that picks a group of the breakdown's sessions; null for the groups no filter names ("other", "(none)").
 * A model picks the sessions whose model it is (`model:` matches a session's main model: a session that called it
 * only now and then is not among them).
 */
export function groupFilter(breakdown: DashboardBreakdown, group: string): string | null {
  if (group === 'other' || group === '(none)') return null;
  if (breakdown === 'source') return `source:${group}`;
  if (breakdown === 'model') return modelFilter(group);
  return `project:${quoted(group)}`;
}

/** The sessions of one model (the whole name, quoted: a bare `model:` value is any part of a name). */
export function modelFilter(model: string): string | null {
  return model === 'other' || model === '(none)' ? null : `model:${quoted(model)}`;
}

/** The query with these filters in (each replacing one that sets the same), or out again when it already has them all. */
export function narrowTo(query: string, filters: readonly string[]): string {
  if (filters.length && filters.every((f) => hasFilter(query, f))) return filters.reduce((q, f) => toggleFilter(q, f), query).trim();
  return filters.reduce((q, f) => (hasFilter(q, f) ? q : toggleFilter(q, f)), query).trim();
}
