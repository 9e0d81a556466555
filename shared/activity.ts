// When a session counts as still running: its file changed this recently (every reader and the vault use the same window).
export const ACTIVE_WINDOW_MS = 10 * 60_000;
