// Myers' O(ND) difference algorithm (linear-space, middle-snake bisection) over sequences of integer ids.

export type Ids = ArrayLike<number>;

/** Steps of the search left; shared by every bisection of one diff. */
interface Budget {
  left: number;
}

/**
 * Pairs (index in a, index in b) of a longest common subsequence, in increasing order.
 * `budget` bounds the search steps of the whole diff: once spent, the ranges still open are treated
 * as having nothing in common, so two very different long texts cost a bounded time instead of N×D.
 */
export function commonPairs(a: Ids, b: Ids, budget = Number.POSITIVE_INFINITY): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  diffRange(a, b, 0, a.length, 0, b.length, { left: budget }, out);
  return out;
}

function diffRange(a: Ids, b: Ids, aLo: number, aHi: number, bLo: number, bHi: number, budget: Budget, out: Array<[number, number]>): void {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) out.push([aLo++, bLo++]);
  let aEnd = aHi;
  let bEnd = bHi;
  while (aEnd > aLo && bEnd > bLo && a[aEnd - 1] === b[bEnd - 1]) {
    aEnd--;
    bEnd--;
  }
  if (aLo < aEnd && bLo < bEnd) {
    const split = bisect(a, b, aLo, aEnd, bLo, bEnd, budget);
    if (split) {
      diffRange(a, b, aLo, split[0], bLo, split[1], budget, out);
      diffRange(a, b, split[0], aEnd, split[1], bEnd, budget, out);
    }
  }
  for (let i = 0; i < aHi - aEnd; i++) out.push([aEnd + i, bEnd + i]);
}

/** Finds the middle snake of the range and returns where to split it, or null when nothing is shared (or the budget is spent). */
function bisect(a: Ids, b: Ids, aLo: number, aHi: number, bLo: number, bHi: number, budget: Budget): [number, number] | null {
  if (budget.left <= 0) return null;
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const size = 2 * maxD + 2;
  const v1 = new Int32Array(size).fill(-1);
  const v2 = new Int32Array(size).fill(-1);
  v1[offset + 1] = 0;
  v2[offset + 1] = 0;
  const delta = n - m;
  // With an odd delta the forward path meets the reverse one; with an even delta the reverse meets the forward.
  const front = delta % 2 !== 0;
  let k1start = 0;
  let k1end = 0;
  let k2start = 0;
  let k2end = 0;
  for (let d = 0; d < maxD; d++) {
    // Each round walks about 2d diagonals each way.
    budget.left -= 4 * d + 2;
    if (budget.left <= 0) return null;
    for (let k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      const k1o = offset + k1;
      let x1 = k1 === -d || (k1 !== d && (v1[k1o - 1] as number) < (v1[k1o + 1] as number)) ? (v1[k1o + 1] as number) : (v1[k1o - 1] as number) + 1;
      let y1 = x1 - k1;
      while (x1 < n && y1 < m && a[aLo + x1] === b[bLo + y1]) {
        x1++;
        y1++;
      }
      v1[k1o] = x1;
      if (x1 > n) k1end += 2;
      else if (y1 > m) k1start += 2;
      else if (front) {
        const k2o = offset + delta - k1;
        if (k2o >= 0 && k2o < size && v2[k2o] !== -1 && x1 >= n - (v2[k2o] as number)) return [aLo + x1, bLo + y1];
      }
    }
    for (let k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      const k2o = offset + k2;
      let x2 = k2 === -d || (k2 !== d && (v2[k2o - 1] as number) < (v2[k2o + 1] as number)) ? (v2[k2o + 1] as number) : (v2[k2o - 1] as number) + 1;
      let y2 = x2 - k2;
      while (x2 < n && y2 < m && a[aLo + n - x2 - 1] === b[bLo + m - y2 - 1]) {
        x2++;
        y2++;
      }
      v2[k2o] = x2;
      if (x2 > n) k2end += 2;
      else if (y2 > m) k2start += 2;
      else if (!front) {
        const k1o = offset + delta - k2;
        if (k1o >= 0 && k1o < size && v1[k1o] !== -1) {
          const x1 = v1[k1o] as number;
          const y1 = offset + x1 - k1o;
          if (x1 >= n - x2) return [aLo + x1, bLo + y1];
        }
      }
    }
  }
  return null;
}
