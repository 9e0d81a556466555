// Fuzzy matching for the command palette: every typed letter in order (cmdk's scorer ranks them), cheap enough for 100,000 titles.

/** cmdk's defaultFilter: 0 when the letters are not all there in order, else higher for closer matches. */
export type Scorer = (value: string, search: string, keywords?: string[]) => number;

/** The letters of `query` appear in `text` in order (case-insensitive): the cheap test before scoring. */
export function hasLettersInOrder(text: string, query: string): boolean {
  let at = 0;
  for (const ch of query) {
    if (ch === ' ') continue;
    at = text.indexOf(ch, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/**
 * The best `limit` items for `query`, best first (ties keep the items' order: for sessions, the most recent first).
 * At most `scoreAtMost` candidates are scored, taken in the items' order, so one letter over a huge list stays quick.
 */
export function rankFuzzy<T>(items: readonly T[], query: string, text: (item: T) => string, score: Scorer, limit: number, scoreAtMost = 3000): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return items.slice(0, limit);
  const scored: Array<{ item: T; score: number; order: number }> = [];
  for (let i = 0; i < items.length && scored.length < scoreAtMost; i++) {
    const item = items[i] as T;
    const value = text(item);
    if (!hasLettersInOrder(value.toLowerCase(), q)) continue;
    const s = score(value, q);
    if (s > 0) scored.push({ item, score: s, order: i });
  }
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, limit).map((x) => x.item);
}
