// The index's generation as one connection sees it: what it wrote (its temporary tables aside) and what others committed, so views kept per generation are worked out again only when the index changed.
import type { StatementSync } from 'node:sqlite';

/** What a connection's temporary tables (the dashboard's, usage-scope-table.ts) changed: they move total_changes() without changing the index. */
const changedBy = new WeakMap<object, number>();
export const tempChanges = (index: object): number => changedBy.get(index) ?? 0;
/** Adds `n` changes made to the temporary tables on `index`. */
export const noteTempChanges = (index: object, n: number): void => void changedBy.set(index, tempChanges(index) + n);

/**
 * This connection's changes to the index (total_changes() less its temporary tables') and other connections' commits
 * (the writer thread's: data_version), as one string that differs after any change. `read` prepares the statement (a
 * SessionIndex's `statement` waits for queued writes first, its `prepared` does not).
 */
export function indexGeneration(index: object, read: (sql: string) => StatementSync): string {
  const v = read('SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS d').get() as { c: number; d: number };
  return `${v.c - tempChanges(index)}:${v.d}`;
}
