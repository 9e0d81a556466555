// Inputs made from a zod schema for property tests (the contract fuzz, the MCP tools, the renderer): values the schema accepts, mostly, drawn from odd strings and numbers and from names the library under test really has.
import fc from 'fast-check';
import type { z } from 'zod';

/** What a leaf may take: odd strings and numbers, and the names of things the library under test holds. */
export interface Pools {
  strings: readonly string[];
  numbers: readonly number[];
}

/** Strings a caller should never be able to turn into an internal error. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  'x',
  'claude-code:no-such-session',
  'codex:',
  ':',
  '\u0000',
  '\ud83d',
  '🦀 crab',
  'a'.repeat(5000),
  '../../../../etc/passwd',
  '/etc/hostname',
  '/no/such/folder',
  '*',
  '"unclosed',
  'NOT (',
  'model:opus deadlock',
  'sort:tokens',
  'since:2026-13-45',
  '%_\\',
  "'; DROP TABLE files; --",
  'Europe/Berlin',
  'Mars/Olympus_Mons',
  '2026-01-01',
  '2026-02-30',
  'https://example.com/x',
  'postgres://nobody@127.0.0.1:1/none',
  // The search syntax, whole and broken: filters, phrases, prefixes, exclusions, FTS5's own operators.
  'source:codex fix',
  'source:nope',
  'project:"un closed',
  'tag: is:starred is:kept -has:summary',
  'after:7d before:2026-01-01',
  'after:99999999d',
  'before:0h',
  'tokens>1e400 cost>-1',
  'tokens>',
  'sort:tokens sort:nope',
  '"exact phrase" prefix* -excluded',
  '-',
  '*',
  'NOT',
  'OR',
  'a OR b',
  'NEAR(a b, 3)',
  'col:word',
  '^start',
  '(((',
  '""',
  'VizierDoc',
  // A pasted sentence, and a paragraph: every word a term (five words once made SQLite refuse the query).
  'please fix the flaky retry test in the parser then run the whole build again',
  Array.from({ length: 120 }, (_, i) => `word${i} -not${i} pre${i}*`).join(' '),
];

export const ODD_NUMBERS: readonly number[] = [0, 1, -1, 2, 7, 0.5, 1000, 2 ** 31, 2 ** 53 - 1, 1e12, -1e12];

type Schema = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string };

const defOf = (schema: Schema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const accepts = (schema: Schema, value: unknown): boolean => (schema as unknown as z.ZodType).safeParse(value).success;

/** Values of `pool` the leaf accepts; the whole pool when it accepts none (the call then tests the input check). */
function leaf<T>(schema: Schema, pool: readonly T[]): fc.Arbitrary<T> {
  const fits = pool.filter((v) => accepts(schema, v));
  return fc.constantFrom(...(fits.length ? fits : pool));
}

/** An arbitrary input for `schema`: objects with their keys (optional ones sometimes left out), leaves from the pools. */
export function arbitraryFor(schema: Schema, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (s: unknown) => arbitraryFor(s as Schema, pools, depth + 1);
  switch (def.type) {
    case 'string':
      return leaf(schema, [...pools.strings, ...ODD_STRINGS]);
    case 'number':
    case 'int':
      return leaf(schema, [...pools.numbers, ...ODD_NUMBERS]);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'optional':
      return fc.option(inner(def.innerType), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(inner(def.innerType), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return fc.option(inner(def.innerType), { nil: undefined, freq: 3 });
    case 'pipe':
      return inner(def.in);
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map(inner));
    case 'array':
      return depth > 6 ? fc.constant([]) : fc.array(inner(def.element), { maxLength: 3 });
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map(inner));
    case 'record':
      return depth > 6
        ? fc.constant({})
        : fc.dictionary(leaf(def.keyType as Schema, ['a', 'claude-sonnet-4-5', ...ODD_STRINGS]) as fc.Arbitrary<string>, inner(def.valueType), { maxKeys: 2 });
    case 'object': {
      const shape = def.shape as Record<string, Schema>;
      const keys = Object.keys(shape);
      const optional = keys.filter((k) => ['optional', 'default', 'prefault'].includes(defOf(shape[k]!).type));
      return fc.record(Object.fromEntries(keys.map((k) => [k, inner(shape[k])])), { requiredKeys: keys.filter((k) => !optional.includes(k)) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
