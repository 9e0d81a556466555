// Client-side list order and filter: newest first, every typed word must match some visible field.
import type { SessionSummary } from '../../../shared/session.ts';
import { formatLabel } from '../../format.ts';

function updatedMs(s: SessionSummary): number {
  const t = s.updatedAt ? Date.parse(s.updatedAt) : Number.NaN;
  return Number.isNaN(t) ? s.mtimeMs : t;
}

export function sortNewestFirst(sessions: readonly SessionSummary[]): SessionSummary[] {
  return [...sessions].sort((a, b) => updatedMs(b) - updatedMs(a) || a.key.localeCompare(b.key));
}

function haystack(s: SessionSummary): string {
  return [s.title, s.projectName, s.projectPath, s.branch, s.id, s.key, s.format, formatLabel(s.format)]
    .filter((v): v is string => typeof v === 'string')
    .join('\n')
    .toLowerCase();
}

export function filterSessions(sessions: readonly SessionSummary[], filter: string): SessionSummary[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...sessions];
  return sessions.filter((s) => {
    const text = haystack(s);
    return words.every((w) => text.includes(w));
  });
}

let lastSessions: readonly SessionSummary[] | null = null;
let lastFilter = '';
let lastResult: SessionSummary[] = [];

/** Memoised on its inputs so store selectors return a stable array between unrelated updates. */
export function visibleSessions(sessions: readonly SessionSummary[], filter: string): SessionSummary[] {
  if (sessions !== lastSessions || filter !== lastFilter) {
    lastResult = sortNewestFirst(filterSessions(sessions, filter));
    lastSessions = sessions;
    lastFilter = filter;
  }
  return lastResult;
}
