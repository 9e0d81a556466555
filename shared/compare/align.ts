// Sequence alignment: exact-key anchors by Myers' LCS, then similar leftovers paired by Needleman–Wunsch.
import { commonPairs } from './myers.ts';

export interface Pair {
  /** same: equal keys; changed: different keys but alike enough; inserted: only in b; deleted: only in a. */
  status: 'same' | 'changed' | 'inserted' | 'deleted';
  a: number | null;
  b: number | null;
  similarity: number;
}

/** 0..1 likeness of a[i] and b[j]; only asked about items whose keys differ. */
export type Similarity = (i: number, j: number) => number;

/** Above this many cells a gap is paired greedily along its diagonal instead of by the full table. */
const MAX_CELLS = 160_000;
/** How far the greedy pairing looks ahead on either side for a partner. */
const WINDOW = 8;

/**
 * Aligns two sequences given an integer key per item (equal keys = identical items) and a similarity
 * for the rest: items with equal keys anchor the alignment, and between anchors items at least
 * `threshold` alike are paired as changed; the others are inserted or deleted.
 */
export function alignSequences(aKeys: ArrayLike<number>, bKeys: ArrayLike<number>, similarity: Similarity, threshold: number): Pair[] {
  const anchors = anchorPairs(aKeys, bKeys);
  const out: Pair[] = [];
  let i = 0;
  let j = 0;
  for (const [ai, bj] of anchors) {
    pairGap(i, ai, j, bj, similarity, threshold, out);
    out.push({ status: 'same', a: ai, b: bj, similarity: 1 });
    i = ai + 1;
    j = bj + 1;
  }
  pairGap(i, aKeys.length, j, bKeys.length, similarity, threshold, out);
  return out;
}

/** Keys missing from the other side can never match, so they are dropped before the LCS (cheap on very different inputs). */
function anchorPairs(aKeys: ArrayLike<number>, bKeys: ArrayLike<number>): Array<[number, number]> {
  const inA = new Set<number>();
  for (let i = 0; i < aKeys.length; i++) inA.add(aKeys[i] as number);
  const inB = new Set<number>();
  for (let j = 0; j < bKeys.length; j++) inB.add(bKeys[j] as number);
  const aIdx: number[] = [];
  const bIdx: number[] = [];
  for (let i = 0; i < aKeys.length; i++) if (inB.has(aKeys[i] as number)) aIdx.push(i);
  for (let j = 0; j < bKeys.length; j++) if (inA.has(bKeys[j] as number)) bIdx.push(j);
  if (aIdx.length === 0 || bIdx.length === 0) return [];
  const fa = Int32Array.from(aIdx, (i) => aKeys[i] as number);
  const fb = Int32Array.from(bIdx, (j) => bKeys[j] as number);
  return commonPairs(fa, fb).map(([x, y]) => [aIdx[x] as number, bIdx[y] as number]);
}

function pairGap(a0: number, a1: number, b0: number, b1: number, sim: Similarity, threshold: number, out: Pair[]): void {
  const n = a1 - a0;
  const m = b1 - b0;
  if (n === 0 || m === 0) {
    for (let i = a0; i < a1; i++) out.push({ status: 'deleted', a: i, b: null, similarity: 0 });
    for (let j = b0; j < b1; j++) out.push({ status: 'inserted', a: null, b: j, similarity: 0 });
    return;
  }
  if (n * m <= MAX_CELLS) needlemanWunsch(a0, n, b0, m, sim, threshold, out);
  else greedy(a0, a1, b0, b1, sim, threshold, out);
}

const DIAG = 1;
const LEFT = 2;
const UP = 3;

/** Maximizes the summed similarity of the pairs (gaps cost nothing; pairs below the threshold are not allowed). */
function needlemanWunsch(a0: number, n: number, b0: number, m: number, sim: Similarity, threshold: number, out: Pair[]): void {
  const w = m + 1;
  const score = new Float64Array((n + 1) * w);
  const dir = new Uint8Array((n + 1) * w);
  const sims = new Float32Array(n * m);
  for (let j = 1; j <= m; j++) dir[j] = LEFT;
  for (let i = 1; i <= n; i++) {
    dir[i * w] = UP;
    for (let j = 1; j <= m; j++) {
      const s = sim(a0 + i - 1, b0 + j - 1);
      sims[(i - 1) * m + (j - 1)] = s;
      const up = score[(i - 1) * w + j] as number;
      const left = score[i * w + j - 1] as number;
      let best = left;
      let how = LEFT;
      if (up > best) {
        best = up;
        how = UP;
      }
      if (s >= threshold) {
        const diag = (score[(i - 1) * w + j - 1] as number) + s;
        if (diag >= best) {
          best = diag;
          how = DIAG;
        }
      }
      score[i * w + j] = best;
      dir[i * w + j] = how;
    }
  }
  const rows: Pair[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const how = dir[i * w + j];
    if (how === DIAG) {
      rows.push({ status: 'changed', a: a0 + i - 1, b: b0 + j - 1, similarity: sims[(i - 1) * m + (j - 1)] as number });
      i--;
      j--;
    } else if (how === LEFT) {
      rows.push({ status: 'inserted', a: null, b: b0 + j - 1, similarity: 0 });
      j--;
    } else {
      rows.push({ status: 'deleted', a: a0 + i - 1, b: null, similarity: 0 });
      i--;
    }
  }
  for (let k = rows.length - 1; k >= 0; k--) out.push(rows[k] as Pair);
}

/** Large gaps (two long, unrelated stretches): walk the diagonal and look a few items ahead for partners. */
function greedy(a0: number, a1: number, b0: number, b1: number, sim: Similarity, threshold: number, out: Pair[]): void {
  let i = a0;
  let j = b0;
  while (i < a1 && j < b1) {
    const here = sim(i, j);
    if (here >= threshold) {
      out.push({ status: 'changed', a: i++, b: j++, similarity: here });
      continue;
    }
    let skipB = -1;
    let skipA = -1;
    for (let k = 1; k <= WINDOW && skipA < 0 && skipB < 0; k++) {
      if (j + k < b1 && sim(i, j + k) >= threshold) skipB = k;
      else if (i + k < a1 && sim(i + k, j) >= threshold) skipA = k;
    }
    if (skipB > 0) {
      for (let k = 0; k < skipB; k++) out.push({ status: 'inserted', a: null, b: j++, similarity: 0 });
    } else if (skipA > 0) {
      for (let k = 0; k < skipA; k++) out.push({ status: 'deleted', a: i++, b: null, similarity: 0 });
    } else {
      out.push({ status: 'deleted', a: i++, b: null, similarity: 0 });
      out.push({ status: 'inserted', a: null, b: j++, similarity: 0 });
    }
  }
  while (i < a1) out.push({ status: 'deleted', a: i++, b: null, similarity: 0 });
  while (j < b1) out.push({ status: 'inserted', a: null, b: j++, similarity: 0 });
}
