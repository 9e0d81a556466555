// A team method's input with every NUL character read as a space, as a push stores text (team-text.ts): PostgreSQL's text holds no NUL, and a statement given one fails.

/** Plain objects and arrays are walked; every other value is kept as it is. */
function cleaned(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', ' ') : value;
  if (Array.isArray(value)) return value.map(cleaned);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleaned(v)]));
  return value;
}

/**
 * The methods, each called with its input cleaned: a key, query or filter with a NUL in it (`tag:"\u0000"`, a key
 * pasted with one) is read as the stored text is, and matches nothing or what holds a space there, instead of
 * failing with "invalid byte sequence for encoding UTF8: 0x00" as an internal error.
 */
export function withoutNul<T extends object>(methods: T): T {
  return Object.fromEntries(
    Object.entries(methods).map(([name, method]) => [name, typeof method === 'function' ? (input: unknown) => method(cleaned(input)) : method]),
  ) as T;
}
