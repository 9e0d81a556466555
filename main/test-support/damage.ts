// Damage for robustness tests: odd values a writer, a bug or a bad disk could leave, and one change inside a JSON value.
import fc from 'fast-check';

/** Values a writer, a bug or a bad disk could leave where a reader expects something else. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, '', ' ', true, [], {}, [null], { type: null }),
  fc.constantFrom<unknown>('2024-13-45T99:99:99Z', '\ud83d', 'x'.repeat(5000), JSON.parse('['.repeat(60) + ']'.repeat(60))),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Every place inside a JSON value, as key paths (the value itself is the empty path). */
function placesIn(value: unknown, path: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  out.push(path);
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) placesIn(child, [...path, Array.isArray(value) ? Number(key) : key], out);
  }
  return out;
}

/**
 * Changes one place inside `root` (chosen by `at`, modulo the number of places) in place: gives it `replacement.value`,
 * or removes it when there is no replacement. Returns the value (a replaced root is a new one).
 */
export function damageJsonValue(root: unknown, at: number, replacement?: { value: unknown }): unknown {
  const places = placesIn(root).filter((p) => p.length > 0);
  if (!places.length) return replacement ? replacement.value : root;
  const path = places[at % places.length]!;
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replacement) parent[last] = structuredClone(replacement.value);
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return root;
}

/** The value with every number in it set to 1e308: past any count, so that two of them add up to Infinity. */
export const everyNumberHuge = (value: unknown): unknown =>
  typeof value === 'number'
    ? 1e308
    : Array.isArray(value)
      ? value.map(everyNumberHuge)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, everyNumberHuge(v)]))
        : value;
