// queryBuffers: the Bind message node-postgres itself would write, byte for byte, and the rows it stores the same as client.query's.
import pg from 'pg';
import { serialize } from 'pg-protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bindPieces, queryBuffers } from './buffer-query.ts';
import { describeWithPostgres } from './postgres-suite.ts';

/** Every kind of value a push sends: text (non-ASCII too), numbers, booleans, nulls, number arrays with nulls, short and long Buffers. */
const long = Buffer.from('é, 😀 and "quotes" \\ '.repeat(2000), 'utf8');
const values: unknown[] = [
  'machine',
  'clé 😀',
  42,
  1.5,
  -7,
  true,
  false,
  null,
  undefined,
  [0, 12, 40],
  [1, null, 3],
  [],
  Buffer.from('short'),
  long,
  Buffer.alloc(0),
  'x',
];

it('writes the Bind message node-postgres writes for the same values, with long Buffers as they are', () => {
  const { prepareValue } = (pg as unknown as { utils: { prepareValue(v: unknown): unknown } }).utils;
  const theirs = serialize.bind({ values, valueMapper: (v: unknown) => prepareValue(v) });
  const pieces = bindPieces(values);
  expect(Buffer.concat(pieces).equals(theirs)).toBe(true);
  // The long Buffer is handed on, not copied.
  expect(pieces.some((p) => p === long)).toBe(true);
  expect(Buffer.concat(bindPieces([])).equals(serialize.bind({ values: [] }))).toBe(true);
});

describeWithPostgres('queryBuffers against a server', (pgs) => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: await pgs.freshDatabase() });
    await client.connect();
    await client.query(
      'CREATE TABLE t (via text, a text, b int, c float8, d int, e boolean, f boolean, g text, h text, i int[], j int[], k int[], l text, m text, n bytea, o text)',
    );
  });
  afterAll(async () => {
    await client.end();
  });

  it('stores what client.query stores, and reports the server refusing a statement', async () => {
    const insert = `INSERT INTO t VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`;
    await client.query(insert, values);
    await queryBuffers(client, insert, ['buffers', ...values.slice(1)]);
    const { rows } = await client.query<{ via: string; row: string }>(
      `SELECT via, (a, b, c, d, e, f, g, h, i, j, k, l, m, n, o)::text AS row FROM t ORDER BY via`,
    );
    expect(rows.map((r) => r.via)).toEqual(['buffers', 'machine']);
    expect(rows[0]?.row).toBe(rows[1]?.row);
    expect(rows[0]?.row).toContain('clé 😀');
    await expect(queryBuffers(client, 'INSERT INTO t (b) VALUES ($1)', ['not a number'])).rejects.toThrow(/integer/);
    // The connection goes on after a refusal.
    expect((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]?.n).toBe(2);
  });
});
