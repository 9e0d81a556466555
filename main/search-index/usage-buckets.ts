// The dashboard's fixed buckets for session lengths and turns: bounds, labels, and which bucket a session falls in.

/** Session lengths (last minus first activity): each bucket's upper bound in minutes (exclusive), and its label. */
export const LENGTH_BUCKETS: Array<[number, string]> = [
  [1, '< 1 min'],
  [5, '1–5 min'],
  [15, '5–15 min'],
  [30, '15–30 min'],
  [60, '30–60 min'],
  [120, '1–2 h'],
  [240, '2–4 h'],
  [Infinity, '≥ 4 h'],
];

/** Turns (prompts) per session: each bucket's upper bound (inclusive) and its label. */
export const TURN_BUCKETS: Array<[number, string]> = [
  [0, '0'],
  [1, '1'],
  [3, '2–3'],
  [7, '4–7'],
  [15, '8–15'],
  [31, '16–31'],
  [63, '32–63'],
  [Infinity, '≥ 64'],
];

/** The length bucket of a session (-1 when it has no start or end). */
export function lengthBucket(createdMs: number | null, updatedMs: number | null): number {
  if (createdMs === null || updatedMs === null) return -1;
  const minutes = Math.max(0, updatedMs - createdMs) / 60_000;
  return LENGTH_BUCKETS.findIndex(([bound]) => minutes < bound);
}

export function turnBucket(turns: number): number {
  return TURN_BUCKETS.findIndex(([bound]) => turns <= bound);
}

/** Sessions per bucket, every bucket listed (0 where none). */
export function counted(rows: Array<{ b: number; n: number }>, buckets: Array<[number, string]>): Array<{ bucket: string; sessions: number }> {
  const byIndex = new Map<number, number>();
  for (const r of rows) byIndex.set(r.b, (byIndex.get(r.b) ?? 0) + r.n);
  return buckets.map(([, bucket], i) => ({ bucket, sessions: byIndex.get(i) ?? 0 }));
}
