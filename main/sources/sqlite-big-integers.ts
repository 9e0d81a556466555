// Reads an agent's store whose integers pass 2^53 (a nanosecond time, a hash, a damaged cell): node:sqlite refuses such a row, so the read is done again with every integer as the nearest Number.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** The error node:sqlite throws for an INTEGER a Number cannot hold exactly (unless integers are read as BigInts). */
export function isTooLargeInteger(err: unknown): boolean {
  return err instanceof RangeError && /too large to be represented as a JavaScript number/i.test(err.message);
}

function toNumbers<T>(row: T): T {
  if (row !== null && typeof row === 'object') {
    const cells = row as Record<string, unknown>;
    for (const key in cells) if (typeof cells[key] === 'bigint') cells[key] = Number(cells[key]);
  }
  return row;
}

/** `statement` reading every integer as a BigInt, each row handed on with the BigInts as Numbers. */
function numberRows(statement: StatementSync): StatementSync {
  statement.setReadBigInts(true);
  return new Proxy(statement, {
    get(target, prop) {
      if (prop === 'all') return (...args: Parameters<StatementSync['all']>) => target.all(...args).map(toNumbers);
      if (prop === 'get') return (...args: Parameters<StatementSync['get']>) => toNumbers(target.get(...args));
      if (prop === 'iterate') {
        return function* (...args: Parameters<StatementSync['iterate']>) {
          for (const row of target.iterate(...args)) yield toNumbers(row);
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * `db` with every statement it prepares reading integers past 2^53 as the nearest Number (2^53 + 1 reads as 2^53),
 * where node:sqlite would throw for the whole statement. Used only after a read failed that way: BigInts cost time.
 */
export function withLenientIntegers(db: DatabaseSync): DatabaseSync {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => numberRows(target.prepare(sql));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Runs `use` on `db`; when a row held an integer past 2^53, runs it again reading such integers as Numbers. */
export function readAllowingBigIntegers<T>(db: DatabaseSync, use: (db: DatabaseSync) => T): T {
  try {
    return use(db);
  } catch (err) {
    if (!isTooLargeInteger(err)) throw err;
    return use(withLenientIntegers(db));
  }
}
