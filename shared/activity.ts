// When a session counts as still running: its file changed this recently (every reader and the vault use the same window).
export const ACTIVE_WINDOW_MS = 10 * 60_000;

/**
 * Written within the active window by both measures: the file's mtime and, where the session records times, its own
 * last record. A session copied or restored today keeps its old records, so it is not taken for a running one.
 */
export function recentlyActive(now: number, mtimeMs: number, lastRecordAt: string | null): boolean {
  if (now - mtimeMs >= ACTIVE_WINDOW_MS) return false;
  if (lastRecordAt === null) return true;
  const at = Date.parse(lastRecordAt);
  return Number.isNaN(at) || now - at < ACTIVE_WINDOW_MS;
}
