// A time in milliseconds as ISO-8601 text, or null when no date can hold it (2^53 ms, NaN): new Date(ms).toISOString() throws a RangeError there.
export function isoFromMs(ms: number): string | null {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
