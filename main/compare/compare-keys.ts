// The compareSessions service: resolves both keys through the catalogue and has the session worker compare them.
import type { Comparison } from '../../shared/compare/comparison.ts';
import { AppError } from '../../shared/result.ts';
import type { CatalogueEntry } from '../catalogue/catalogue.ts';
import type { ReadPool } from '../workers/read-pool.ts';

export type FindEntry = (key: string) => CatalogueEntry | undefined;

function readable(find: FindEntry, key: string, field: 'a' | 'b'): CatalogueEntry {
  const entry = find(key);
  if (!entry) throw new AppError('NOT_FOUND', `No session with key "${key}" is known. It may have been deleted.`, field);
  if (entry.summary.unreadable) throw new AppError('UNREADABLE', `${entry.path} cannot be read: ${entry.summary.unreadable.message}`, field);
  return entry;
}

/** Paths never come from the caller: keys are looked up, and the worker parses (or reuses) both files off the main thread. */
export async function compareKeys(a: string, b: string, find: FindEntry, pool: Pick<ReadPool, 'compare'>): Promise<Comparison> {
  const entryA = readable(find, a, 'a');
  const entryB = readable(find, b, 'b');
  const result = await pool.compare(entryA.path, entryB.path, { a, b });
  if (!result.ok) throw new AppError('UNREADABLE', `${result.path} cannot be read: ${result.unreadable.message}`, result.path === entryA.path ? 'a' : 'b');
  return result.comparison;
}
