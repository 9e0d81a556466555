// Whether every key an index holds was given by the rule that keys a file outside its tool's folders by its path (catalogue.ts), so a start can trust the stored keys without asking the readers about each path.
import type { SessionIndex } from './index-store.ts';

/** The index_state row saying a start checked every stored key against the files' places and found them right. */
export const KEYS_BY_LAYOUT_STATE = 'keys_by_layout';

/** True once a start found every stored key as the rule gives it (an index from before the rule has no such row). */
export function keysCheckedByLayout(index: Pick<SessionIndex, 'prepared'>): boolean {
  const row = index.prepared('SELECT value FROM index_state WHERE name = ?').get(KEYS_BY_LAYOUT_STATE) as { value: number } | undefined;
  return row?.value === 1;
}

/**
 * Records that every stored key is as the rule gives it. Written on the reading connection: false when the writer
 * thread held the file past the busy timeout; the next start then checks the keys again, which costs time only.
 */
export function stampKeysCheckedByLayout(index: Pick<SessionIndex, 'prepared'>): boolean {
  try {
    index.prepared('INSERT OR REPLACE INTO index_state (name, value) VALUES (?, 1)').run(KEYS_BY_LAYOUT_STATE);
    return true;
  } catch {
    return false;
  }
}
