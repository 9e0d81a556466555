// Reads the tools JSON of usage_sessions rows ([["name", calls, failures], ...]) without JSON.parse's arrays: the dashboard reads one per file of a set, thousands of them.

const ZERO = 48;
const NINE = 57;
const SPACE = 32;
const QUOTE = 34; // "
const BACKSLASH = 92; // \
const OPEN = 91; // [
const CLOSE = 93; // ]
const COMMA = 44; // ,
/** Longest run of digits read as a number here: up to 15 digits every value is exact (below 2^53). */
const MAX_DIGITS = 15;

/** One row's tools as read (reused from row to row): names, and calls and failures two by two. */
const names: string[] = [];
const counts: number[] = [];

/** The whole number at `at` (digits only) into counts; the index after it, or -1 when there is none or it is too long. */
function wholeNumber(text: string, at: number): number {
  let i = at;
  let value = 0;
  let c = text.charCodeAt(i);
  while (c >= ZERO && c <= NINE) {
    value = value * 10 + (c - ZERO);
    c = text.charCodeAt(++i);
  }
  if (i === at || i - at > MAX_DIGITS) return -1;
  counts.push(value);
  return i;
}

/**
 * Reads `text` into `names` and `counts` when it is a list of [name, calls, failures] with names free of escapes and
 * control characters and plain whole numbers (what the writer's JSON.stringify gives for such names); false for
 * anything else, which the caller parses as JSON instead.
 */
function plainTools(text: string): boolean {
  names.length = 0;
  counts.length = 0;
  const n = text.length;
  let i = 0;
  if (text.charCodeAt(i++) !== OPEN) return false;
  if (text.charCodeAt(i) === CLOSE) return i + 1 === n;
  for (;;) {
    if (text.charCodeAt(i++) !== OPEN || text.charCodeAt(i++) !== QUOTE) return false;
    const from = i;
    let c = text.charCodeAt(i);
    while (c !== QUOTE) {
      // An escape, a control character (JSON has none unescaped) or the end: JSON.parse's to read or refuse.
      if (c === BACKSLASH || c < SPACE || i >= n) return false;
      c = text.charCodeAt(++i);
    }
    names.push(text.slice(from, i));
    i++;
    if (text.charCodeAt(i++) !== COMMA || (i = wholeNumber(text, i)) < 0) return false;
    if (text.charCodeAt(i++) !== COMMA || (i = wholeNumber(text, i)) < 0) return false;
    if (text.charCodeAt(i++) !== CLOSE) return false;
    const next = text.charCodeAt(i++);
    if (next === COMMA) continue;
    return next === CLOSE && i === n;
  }
}

/** Calls `visit` with each tool of a row's tools JSON, in order (the same values JSON.parse gives). */
export function eachTool(text: string, visit: (name: string, calls: number, failures: number) => void): void {
  if (plainTools(text)) {
    for (let k = 0; k < names.length; k++) visit(names[k] as string, counts[2 * k] as number, counts[2 * k + 1] as number);
    return;
  }
  for (const [name, calls, failures] of JSON.parse(text) as Array<[string, number, number]>) visit(name, calls, failures);
}
