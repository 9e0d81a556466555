// Operations as a tree by parentId, flattened to the rows that are visible, and the totals row's sums.
import type { Cost, Operation, TokenUsage } from '../../../shared/session.ts';
import { addCost, addUsage } from '../../format.ts';

export interface OpNode {
  op: Operation;
  children: OpNode[];
}

export interface OpRow {
  node: OpNode;
  depth: number;
}

export type StatusTone = 'ok' | 'failed' | 'running' | 'unknown';

const OK = /^(ok|success|succeeded|successful|completed?|passed?|accepted|done|applied|finished)$/i;
const FAILED = /^(fail(ed|ure)?|errou?r(ed)?|rejected|abort(ed)?|cancel(l)?ed|timeout|timed[_ -]?out|crashed|denied|interrupted)$/i;
const RUNNING = /^(running|pending|in[_ -]?progress|open|started|active|queued)$/i;

export function statusTone(status: string | null): StatusTone {
  if (!status) return 'unknown';
  if (OK.test(status)) return 'ok';
  if (FAILED.test(status)) return 'failed';
  if (RUNNING.test(status)) return 'running';
  return 'unknown';
}

/** Roots in order; an op whose parent is missing (or would close a cycle) becomes a root. */
export function buildOpTree(ops: readonly Operation[]): OpNode[] {
  const nodes = new Map<string, OpNode>();
  for (const op of ops) if (!nodes.has(op.id)) nodes.set(op.id, { op, children: [] });
  const roots: OpNode[] = [];
  for (const op of ops) {
    const node = nodes.get(op.id);
    if (!node || node.op !== op) {
      // Duplicate ids: keep the later one visible as its own root rather than dropping it.
      roots.push({ op, children: [] });
      continue;
    }
    const parent = op.parentId !== null && op.parentId !== op.id ? nodes.get(op.parentId) : undefined;
    if (parent && !isAncestor(node, parent, nodes)) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

function isAncestor(candidate: OpNode, of: OpNode, nodes: Map<string, OpNode>): boolean {
  const seen = new Set<string>();
  for (let cur: OpNode | undefined = of; cur;) {
    if (cur === candidate) return true;
    if (seen.has(cur.op.id)) return true;
    seen.add(cur.op.id);
    const pid: string | null = cur.op.parentId;
    cur = pid !== null ? nodes.get(pid) : undefined;
  }
  return false;
}

/** Depth-first rows, skipping the children of collapsed nodes. */
export function visibleOpRows(roots: readonly OpNode[], collapsed: ReadonlySet<string>): OpRow[] {
  const out: OpRow[] = [];
  const stack: OpRow[] = roots.toReversed().map((node) => ({ node, depth: 0 }));
  while (stack.length > 0) {
    const row = stack.pop() as OpRow;
    out.push(row);
    if (collapsed.has(row.node.op.id)) continue;
    for (let i = row.node.children.length - 1; i >= 0; i--) stack.push({ node: row.node.children[i] as OpNode, depth: row.depth + 1 });
  }
  return out;
}

/** Nodes that have children start collapsed below this depth, so a deep tree opens readable. */
export function initiallyCollapsed(roots: readonly OpNode[], openDepth = 2): Set<string> {
  const out = new Set<string>();
  const walk = (n: OpNode, depth: number) => {
    if (n.children.length > 0 && depth >= openDepth) out.add(n.op.id);
    for (const c of n.children) walk(c, depth + 1);
  };
  for (const r of roots) walk(r, 0);
  return out;
}

export interface OpTotals {
  count: number;
  usage: TokenUsage | null;
  cost: Cost | null;
  tools: number;
  failed: number;
  durationMs: number | null;
}

const TOOL = /tool/i;

/**
 * Sums over the tree. A node's usage and cost count only when none of its descendants carry their own,
 * so a turn that repeats its ops' accounting is not counted twice.
 */
export function opTotals(roots: readonly OpNode[]): OpTotals {
  const totals: OpTotals = { count: 0, usage: null, cost: null, tools: 0, failed: 0, durationMs: null };
  let start = Infinity;
  let end = -Infinity;
  let rootLatency = 0;
  let anyLatency = false;
  const walk = (n: OpNode, depth: number): { usage: boolean; cost: boolean } => {
    const { op } = n;
    totals.count++;
    if (TOOL.test(op.type)) totals.tools++;
    if (statusTone(op.status) === 'failed') totals.failed++;
    const t = op.timestamp ? Date.parse(op.timestamp) : Number.NaN;
    if (!Number.isNaN(t)) {
      start = Math.min(start, t);
      const e = op.endedAt ? Date.parse(op.endedAt) : op.latencyMs != null ? t + op.latencyMs : t;
      if (!Number.isNaN(e)) end = Math.max(end, e);
    }
    if (depth === 0 && op.latencyMs != null) {
      rootLatency += op.latencyMs;
      anyLatency = true;
    }
    let childUsage = false;
    let childCost = false;
    for (const c of n.children) {
      const r = walk(c, depth + 1);
      childUsage ||= r.usage;
      childCost ||= r.cost;
    }
    if (op.usage && !childUsage) totals.usage = addUsage(totals.usage, op.usage);
    if (op.cost && !childCost) totals.cost = addCost(totals.cost, op.cost);
    return { usage: childUsage || op.usage !== null, cost: childCost || op.cost !== null };
  };
  for (const r of roots) walk(r, 0);
  if (end > start) totals.durationMs = end - start;
  else if (anyLatency) totals.durationMs = rootLatency;
  return totals;
}
