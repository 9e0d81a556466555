// The look-up window of a team search read in rank order: how many of the newest sessions it looks up one by one, and in which places (weights), from the planner's estimate (team-search-window.ts).
import type { PageOptions } from './team-query.ts';

/**
 * How many of the newest sessions a ranked read looks at one by one per place, per row it reads (at least, at
 * most): a word in one session in five fills the rows from them; a rarer one is read through its index.
 */
const WINDOW_PER_ROW = 5;
const MIN_WINDOW = 500;
const MAX_WINDOW = 20_000;

/**
 * How many of the first sessions in the order are looked up one by one: none when the estimate says they would not
 * fill the rows (a rarer query, or a negated word most of its sessions hold), so only the indexes' matches are read
 * (looking up a window that falls short costs its look-ups on top of the same index reads); else the window.
 */
export function windowFor(rows: number | null, estimate: PageOptions['estimate']): number {
  const window = Math.min(MAX_WINDOW, Math.max(MIN_WINDOW, (rows ?? 0) * WINDOW_PER_ROW));
  if (rows === null || !estimate || estimate.commonIdent) return window;
  return estimate.share * window < rows ? 0 : window;
}

/** How much the estimate of a query's titles is taken up by (windowPlaces). */
const TITLE_ESTIMATE_FACTOR = 2;

/**
 * The places (weights) that look the window's sessions up one by one before their indexes' matches: the rest always
 * (with no window, none is looked up). The title and the prompts only when their estimated share would fill the rows
 * from the window: each look-up that finds nothing costs as much as one that finds, and the index's matches are read
 * after all. A substring of no word (in a third of the identifiers) looked 1,005 sessions up in the titles and 1,005
 * in the prompts at 100,000 sessions, 200 ms cold, before the rest filled the page; a common word in one title in
 * twelve found 90 of 201 in 1,005 titles (150 ms cold) before reading its 8,620 titles through their index anyway.
 * The titles' estimate is taken at twice its value: a prefix's titles were estimated at half their count (12,800 of
 * 23,350), and a window that fills saves reading every title that matches.
 */
export function windowPlaces(rows: number | null, window: number, estimate: PageOptions['estimate']): string[] {
  if (rows === null || !estimate) return ['A', 'B', 'C'];
  const words = estimate.wordShare ?? estimate.share;
  const titles = estimate.titleShare ?? words;
  return [...(titles * window * TITLE_ESTIMATE_FACTOR >= rows && words * window >= rows ? ['A'] : []), ...(words * window >= rows ? ['B'] : []), 'C'];
}
