// The operations tab: the operations as a tree by parentId (virtualized), with a totals row above it.
import { useCallback, useMemo, useState } from 'react';
import type { Operation } from '../../../shared/session.ts';
import { expansionFor } from './expansion.ts';
import { formatCost, formatDuration, formatUsage, plural } from '../../format.ts';
import { buildOpTree, initiallyCollapsed, opTotals, visibleOpRows, type OpNode, type OpTotals } from './op-tree.ts';
import { useVirtualRows } from '../../use-virtual-rows.ts';
import { OperationNode } from './OperationNode.tsx';

function Totals({ totals }: { totals: OpTotals }) {
  return (
    <div className="op-totals" data-testid="op-totals">
      <span>{plural(totals.count, 'operation')}</span>
      {totals.tools > 0 && <span>{plural(totals.tools, 'tool call')}</span>}
      {totals.failed > 0 && <span className="tone-text-failed">{totals.failed} failed</span>}
      <span>
        <span className="muted">tokens </span>
        {totals.usage ? formatUsage(totals.usage) : '—'}
      </span>
      <span>
        <span className="muted">cost </span>
        {formatCost(totals.cost)}
      </span>
      <span>
        <span className="muted">duration </span>
        {formatDuration(totals.durationMs)}
      </span>
    </div>
  );
}

function allParents(roots: readonly OpNode[]): Set<string> {
  const out = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const n = stack.pop() as OpNode;
    if (n.children.length > 0) out.add(n.op.id);
    stack.push(...n.children);
  }
  return out;
}

export function Operations({ sessionKey, operations }: { sessionKey: string; operations: Operation[] }) {
  const roots = useMemo(() => buildOpTree(operations), [operations]);
  const [collapsed, setCollapsed] = useState(() => initiallyCollapsed(roots));
  const rows = useMemo(() => visibleOpRows(roots, collapsed), [roots, collapsed]);
  const totals = useMemo(() => opTotals(roots), [roots]);
  const expansion = useMemo(() => expansionFor(`operations:${sessionKey}`), [sessionKey]);
  const isTree = roots.length < operations.length;
  const onToggle = useCallback(
    (id: string) =>
      setCollapsed((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  const { listRef, virtualizer } = useVirtualRows({
    count: rows.length,
    estimateSize: (i) => (rows[i]?.node.op.vcs ? 90 : 44),
    getItemKey: (i) => rows[i]?.node.op.id ?? i,
  });

  if (operations.length === 0) return <p className="muted">No operations recorded.</p>;
  const margin = virtualizer.options.scrollMargin;
  return (
    <div className="operations">
      <Totals totals={totals} />
      {isTree && (
        <div className="op-toolbar">
          <button type="button" className="link-button" onClick={() => setCollapsed(new Set())}>
            Expand all
          </button>
          <button type="button" className="link-button" onClick={() => setCollapsed(allParents(roots))}>
            Collapse all
          </button>
        </div>
      )}
      <div ref={listRef} className="vlist" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index];
          if (!row) return null;
          return (
            <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="vrow" style={{ transform: `translateY(${v.start - margin}px)` }}>
              <OperationNode
                op={row.node.op}
                depth={row.depth}
                childCount={row.node.children.length}
                collapsed={collapsed.has(row.node.op.id)}
                onToggle={onToggle}
                expansion={expansion}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
