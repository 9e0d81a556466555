// A count of tokens or sessions as the command line prints it: digits grouped by thousands, or the exponent form past a quadrillion (a damaged file's 1e308).

/** Past this, grouped digits say nothing a reader can use (and 1e308 took 400 characters of a table's column). */
const GROUPED_BELOW = 1e15;

export function countText(n: number): string {
  return Math.abs(n) < GROUPED_BELOW ? Math.round(n).toLocaleString('en-US') : n.toExponential(1);
}
