// The version of what reading a session file gives (readers and index text): files an index holds from an older one are read again by the next start's scan.
import type { SessionIndex } from './index-store.ts';

/**
 * Raise by one whenever a reader or the index text gives something else for a file it read before (a record type
 * now shown, a word now searchable, a count corrected): an index stamped with a lower version has every file read
 * again once, in the background, its old rows listed meanwhile. 1: the first kept (hooks, tool definitions, wrapper
 * tags and words after a line break in tool inputs now read). 2: readers checked against the peers' tests (Kimi Code
 * compactions, OpenCode step tokens and failed exits, Hermes .jsonl transcripts, Grok code interpreter and raw output,
 * Antigravity's full transcript, and more: see the log). 3: twin files listed once (Hermes), Cursor's text transcripts,
 * Kimi wire-only folders, forks' keys, Cline-family requests at their own hours.
 */
export const READING_VERSION = 3;

/** The index_state row holding the version every indexed file was last read with. */
export const READING_VERSION_STATE = 'reading_version';

/** The version the index's files were read with: 0 for an index made before versions were kept (read them again). */
export function indexedReadingVersion(index: Pick<SessionIndex, 'prepared'>): number {
  const row = index.prepared('SELECT value FROM index_state WHERE name = ?').get(READING_VERSION_STATE) as { value: number } | undefined;
  return row?.value ?? 0;
}

/**
 * Records that every file the index lists was read with this version (after a scan that read them all). Written on
 * the reading connection: false when the writer thread held the file past the busy timeout; the next start then
 * reads the files once more, which costs time but loses nothing.
 */
export function stampReadingVersion(index: Pick<SessionIndex, 'prepared'>): boolean {
  try {
    index.prepared('INSERT OR REPLACE INTO index_state (name, value) VALUES (?, ?)').run(READING_VERSION_STATE, READING_VERSION);
    return true;
  } catch {
    return false;
  }
}
