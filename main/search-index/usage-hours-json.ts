// Reads the hours JSON of usage_file_days rows ([[local hour, calls, tokens], ...]) without building an array per hour: the heatmap of a set of files reads tens of thousands of them.

/** One local hour of a day row: the hour of the day, its calls and its tokens. */
export type Hour = [number, number, number];

/** Longest run of digits read as a number here: up to 15 digits every value is exact (below 2^53). */
const MAX_DIGITS = 15;
const ZERO = 48;
const NINE = 57;
const OPEN = 91; // [
const CLOSE = 93; // ]
const COMMA = 44; // ,

/**
 * The triples of `text` into `into` (three numbers each), when `text` is a list of triples of plain whole numbers (what
 * the writer's JSON.stringify gives for whole token counts); false for anything else (a fraction, an exponent), which
 * the caller parses as JSON instead. `into` is written only on success.
 */
function plainTriples(text: string, into: number[]): boolean {
  const n = text.length;
  let i = 0;
  let count = into.length;
  const start = count;
  if (text.charCodeAt(i++) !== OPEN) return false;
  if (text.charCodeAt(i) === CLOSE) return i + 1 === n;
  for (;;) {
    if (text.charCodeAt(i++) !== OPEN) break;
    let ok = true;
    for (let k = 0; k < 3; k++) {
      let value = 0;
      let digits = 0;
      let c = text.charCodeAt(i);
      while (c >= ZERO && c <= NINE) {
        value = value * 10 + (c - ZERO);
        digits++;
        c = text.charCodeAt(++i);
      }
      if (digits === 0 || digits > MAX_DIGITS || c !== (k < 2 ? COMMA : CLOSE)) {
        ok = false;
        break;
      }
      i++;
      into[count++] = value;
    }
    if (!ok) break;
    const next = text.charCodeAt(i++);
    if (next === COMMA) continue;
    if (next === CLOSE && i === n) return true;
    break;
  }
  into.length = start;
  return false;
}

/** Calls `visit` with each hour of each row's hours JSON, in order (the same values JSON.parse gives). */
export function eachHour(rows: readonly string[], visit: (hour: number, calls: number, tokens: number) => void): void {
  const triples: number[] = [];
  for (const text of rows) {
    triples.length = 0;
    if (plainTriples(text, triples))
      for (let j = 0; j < triples.length; j += 3) visit(triples[j] as number, triples[j + 1] as number, triples[j + 2] as number);
    else for (const [hour, calls, tokens] of JSON.parse(text) as Hour[]) visit(hour, calls, tokens);
  }
}
