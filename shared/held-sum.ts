// Counts and dollars held finite: two damaged counts (1e308 each) added, and reports whose SQL sums reached Infinity, which JSON sends as null and the contract refuses.

export function heldSum(a: number, b: number): number {
  const sum = a + b;
  return Number.isFinite(sum) ? sum : sum > 0 ? Number.MAX_VALUE : 0;
}

/** A number held finite: past the largest there is, the largest; NaN, 0. */
export const heldNumber = (n: number): number => (Number.isFinite(n) ? n : Number.isNaN(n) ? 0 : n > 0 ? Number.MAX_VALUE : -Number.MAX_VALUE);

/** Whether a plain value holds a number that is not finite anywhere inside it (read without copying anything). */
function holdsNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (Array.isArray(value)) return value.some(holdsNonFinite);
  if (value !== null && typeof value === 'object') {
    for (const key in value) if (holdsNonFinite((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function heldCopy(value: unknown): unknown {
  if (typeof value === 'number') return heldNumber(value);
  if (Array.isArray(value)) return value.map(heldCopy);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, heldCopy(v)]));
  return value;
}

/**
 * A plain value (a report: objects, arrays, numbers, strings) with every number held finite; the value itself when
 * all are (the usual case: nothing is copied). Sums the index adds up in SQL reach Infinity over several damaged
 * sessions (1e308 tokens each); JSON sends that as null, which the contract refuses.
 */
export function heldFinite<T>(value: T): T {
  return holdsNonFinite(value) ? (heldCopy(value) as T) : value;
}
