// The aligned transcript's rows: identical stretches fold until expanded, n/p walk the differences, the chart's lines fit the box.
import { describe, expect, it } from 'vitest';
import { compareSessions } from '../../../shared/compare/compare.ts';
import { testSession } from '../../../shared/compare/test-sessions.ts';
import { chartGeometry } from './compare-chart.ts';
import { differences, displayIndexOf, displayRows, stepDifference } from './compare-rows.ts';

const turns = Array.from({ length: 8 }, (_, i) => ({ prompt: `Step ${i}: do the thing number ${i}`, steps: [`Done ${i}.`] }));
const edited = turns.map((t, i) => (i === 3 || i === 6 ? { ...t, steps: [`Done ${i}, with a twist.`] } : t));
const c = compareSessions(testSession('vault:a', turns), testSession('vault:b', edited));

describe('displayRows', () => {
  it('folds runs of identical turns and keeps differences in full', () => {
    const rows = displayRows(c.rows, new Set());
    expect(rows.map((r) => (r.kind === 'fold' ? `fold ${r.start}+${r.count}` : `turn ${r.row}`))).toEqual([
      'fold 0+3',
      'turn 3',
      'fold 4+2',
      'turn 6',
      'turn 7',
    ]);
  });

  it('shows a fold’s turns once expanded', () => {
    const rows = displayRows(c.rows, new Set([0, 1, 2]));
    expect(rows.slice(0, 4).map((r) => r.kind)).toEqual(['turn', 'turn', 'turn', 'turn']);
  });
});

describe('difference navigation', () => {
  const diffs = differences(c);
  it('lists the rows that differ', () => expect(diffs).toEqual([3, 6]));

  it('n goes to the next difference and p to the previous, stopping at the ends', () => {
    expect(stepDifference(diffs, null, 1)).toBe(3);
    expect(stepDifference(diffs, 3, 1)).toBe(6);
    expect(stepDifference(diffs, 6, 1)).toBe(6);
    expect(stepDifference(diffs, 6, -1)).toBe(3);
    expect(stepDifference(diffs, 3, -1)).toBe(3);
    expect(stepDifference(diffs, null, -1)).toBe(6);
    expect(stepDifference([], null, 1)).toBeNull();
  });

  it('finds the display row of a comparison row, folded or not', () => {
    const rows = displayRows(c.rows, new Set());
    expect(displayIndexOf(rows, 6)).toBe(3);
    expect(displayIndexOf(rows, 1)).toBe(0);
  });
});

describe('chartGeometry', () => {
  it('scales both lines to the larger total and starts them at zero', () => {
    const g = chartGeometry([10, 20], [40], 100, 50, 0);
    expect(g.max).toBe(40);
    expect(g.a?.points).toBe('0.0,50.0 50.0,37.5 100.0,25.0');
    expect(g.b?.points).toBe('0.0,50.0 50.0,0.0');
    expect(chartGeometry([0], [0], 100, 50).a).toBeNull();
  });
});
