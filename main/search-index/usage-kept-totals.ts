// The writer's totals as the dashboard last read them (usage-rollup.ts), kept per connection until the index changes: every dashboard query by the totals reads the same rows, so only the first after a write pays for them.
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { indexGeneration } from './index-generation.ts';

type Connection = { prepared(sql: string): StatementSync };

/** Reads kept per generation of the index; past this many (other dates, other sources) they are dropped and read again. */
const MAX_KEPT = 16;
const keptBy = new WeakMap<object, { generation: string; values: Map<string, unknown> }>();

/**
 * What `read` gives (from the totals only: the same until the index changes), read again only when the index changed
 * since. `key` names it among the other reads kept. The value is shared between calls: callers must not change it.
 */
export function kept<T>(index: Connection, key: string, read: () => T): T {
  const generation = indexGeneration(index, (sql) => index.prepared(sql));
  let entry = keptBy.get(index);
  if (entry?.generation !== generation) keptBy.set(index, (entry = { generation, values: new Map() }));
  if (entry.values.has(key)) return entry.values.get(key) as T;
  if (entry.values.size >= MAX_KEPT) entry.values.clear();
  const value = read();
  entry.values.set(key, value);
  return value;
}

/**
 * The rows of a read of the totals (`sql` with `params`; as arrays when `arrays`), kept as `kept` keeps them (100,000
 * sessions: the heatmap's hours, ~9 ms, read once for every query).
 */
export function keptRows(index: Connection, sql: string, params: SQLInputValue[], arrays = false): unknown[] {
  return kept(index, `${arrays ? 'a' : 'o'}${JSON.stringify(params)}\n${sql}`, () => {
    const statement = index.prepared(sql);
    statement.setReturnArrays(arrays);
    return statement.all(...params);
  });
}
