// The operations tree: nesting by parentId, collapsing, and totals that do not count twice.
import { describe, expect, it } from 'vitest';
import { buildOpTree, initiallyCollapsed, opTotals, statusTone, visibleOpRows } from './op-tree.ts';
import { op, opTreeSession } from '../../test-sessions.ts';

describe('buildOpTree', () => {
  it('nests by parentId and keeps the recorded order', () => {
    const roots = buildOpTree(opTreeSession().operations);
    expect(roots.map((r) => r.op.id)).toEqual(['turn-1', 'turn-2']);
    expect(roots[0]?.children.map((c) => c.op.id)).toEqual(['llm-1', 'tool-1', 'agent-1']);
    expect(roots[0]?.children[2]?.children.map((c) => c.op.id)).toEqual(['agent-1/llm', 'agent-1/tool']);
  });

  it('turns ops with a missing parent, a self-parent or a cycle into roots instead of losing them', () => {
    const roots = buildOpTree([op('a', { parentId: 'gone' }), op('b', { parentId: 'b' }), op('c', { parentId: 'd' }), op('d', { parentId: 'c' })]);
    const ids = visibleOpRows(roots, new Set()).map((r) => r.node.op.id);
    expect(ids.sort()).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('visibleOpRows', () => {
  it('lists depth-first with depths and hides the children of collapsed nodes', () => {
    const roots = buildOpTree(opTreeSession().operations);
    const all = visibleOpRows(roots, new Set());
    expect(all.map((r) => `${r.depth}:${r.node.op.id}`)).toEqual([
      '0:turn-1',
      '1:llm-1',
      '1:tool-1',
      '1:agent-1',
      '2:agent-1/llm',
      '2:agent-1/tool',
      '0:turn-2',
    ]);
    expect(visibleOpRows(roots, new Set(['agent-1'])).map((r) => r.node.op.id)).not.toContain('agent-1/llm');
    expect(visibleOpRows(roots, new Set(['turn-1'])).map((r) => r.node.op.id)).toEqual(['turn-1', 'turn-2']);
  });

  it('opens the first levels and collapses deeper parents', () => {
    const roots = buildOpTree([op('r'), op('a', { parentId: 'r' }), op('b', { parentId: 'a' }), op('c', { parentId: 'b' })]);
    expect([...initiallyCollapsed(roots, 2)]).toEqual(['b']);
  });
});

describe('opTotals', () => {
  it('sums leaf accounting only, counts tools and failures, and spans the wall time', () => {
    const t = opTotals(buildOpTree(opTreeSession().operations));
    // turn-1 repeats its children's usage (900/300); only llm-1 (500/120) and agent-1/llm (400/180) count.
    expect(t.usage).toEqual({ input: 900, output: 300, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(t.cost).toEqual({ usd: 0.005, estimated: true });
    expect(t.tools).toBe(2);
    expect(t.failed).toBe(2);
    expect(t.count).toBe(7);
    expect(t.durationMs).toBe(50_000);
  });

  it('reports unknown usage, cost and duration as null', () => {
    expect(opTotals(buildOpTree([op('x')]))).toMatchObject({ usage: null, cost: null, durationMs: null, count: 1 });
  });
});

describe('statusTone', () => {
  it('colours the words formats use', () => {
    expect(['ok', 'success', 'completed', 'passed'].map(statusTone)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(['failed', 'error', 'aborted', 'timeout', 'rejected'].map(statusTone)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    expect(statusTone('in_progress')).toBe('running');
    expect(statusTone(null)).toBe('unknown');
    expect(statusTone('weird')).toBe('unknown');
  });
});
