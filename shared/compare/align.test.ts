// The generic alignment: exact keys anchor, similar leftovers pair as changed, the rest is inserted or deleted, in order.
import { describe, expect, it } from 'vitest';
import { alignSequences, type Pair } from './align.ts';

const show = (pairs: Pair[]) => pairs.map((p) => `${p.status[0]}${p.a ?? '-'}${p.b ?? '-'}`).join(' ');

/** Items are words; keys are the words; similarity is the share of leading letters in common. */
function align(a: string[], b: string[], threshold = 0.5): Pair[] {
  const ids = new Map<string, number>();
  const key = (w: string) => ids.get(w) ?? ids.set(w, ids.size).get(w)!;
  const sim = (i: number, j: number) => {
    const x = a[i]!;
    const y = b[j]!;
    let k = 0;
    while (k < x.length && k < y.length && x[k] === y[k]) k++;
    return k / Math.max(x.length, y.length);
  };
  return alignSequences(Int32Array.from(a, key), Int32Array.from(b, key), sim, threshold);
}

describe('alignSequences', () => {
  it('anchors on equal items and pairs alike leftovers between anchors', () => {
    expect(show(align(['start', 'parser', 'end'], ['start', 'parsers', 'end']))).toBe('s00 c11 s22');
  });

  it('leaves unlike leftovers as a deletion and an insertion, deletions first', () => {
    expect(show(align(['start', 'parser', 'end'], ['start', 'zebra', 'end']))).toBe('s00 d1- i-1 s22');
  });

  it('pairs the best-matching item when several are in the gap', () => {
    expect(show(align(['a', 'configure', 'z'], ['a', 'x', 'configured', 'y', 'z']))).toBe('s00 i-1 c12 i-3 s24');
  });

  it('aligns long unrelated stretches in bounded time', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `alpha${i}`);
    const b = Array.from({ length: 3000 }, (_, i) => `omega${i}`);
    const t0 = performance.now();
    const pairs = align(a, b, 0.9);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(pairs.filter((p) => p.status === 'deleted')).toHaveLength(3000);
    expect(pairs.filter((p) => p.status === 'inserted')).toHaveLength(3000);
  });

  it('aligns repeated items (the same prompt many times) one to one', () => {
    const a = ['go', 'go', 'go', 'stop'];
    const b = ['go', 'go', 'stop'];
    expect(show(align(a, b))).toBe('s00 s11 d2- s32');
  });
});
