// Devin's abandoned branches (retries and edits off the main chain), kept reachable as operations: one per node, nested as they branched.
import type { Operation } from '../../../shared/session.ts';
import type { TreeNode } from './devin-store.ts';
import { devinTime, pointerToken } from './devin-time.ts';

export interface NodePreview {
  role: unknown;
  preview: unknown;
  calls: unknown;
}

/**
 * Each abandoned node becomes an `abandoned_branch` operation: named by its role and first line, its parent the
 * abandoned node it followed (a branch's first node has none, and names the chain node it forked from), its raw
 * record the node's row. The transcript never shows them; the operations view and the raw view do.
 */
export function branchOperations(abandoned: TreeNode[], previews: Map<number, NodePreview>): Operation[] {
  const off = new Set(abandoned.map((n) => n.nodeId));
  return abandoned.map((node): Operation => {
    const p = previews.get(node.rowId);
    const role = typeof p?.role === 'string' ? p.role : 'unknown';
    const preview = typeof p?.preview === 'string' ? p.preview : null;
    const line =
      preview
        ?.split('\n')
        .find((l) => l.trim())
        ?.trim() ?? null;
    const offParent = node.parentId !== null && off.has(node.parentId);
    return {
      id: `node-${node.nodeId}`,
      type: 'abandoned_branch',
      name: line ? `${role}: ${line.length > 80 ? `${line.slice(0, 79)}…` : line}` : role,
      timestamp: devinTime(node.createdAt),
      endedAt: null,
      status: 'abandoned',
      latencyMs: null,
      detail: {
        nodeId: node.nodeId,
        parentNodeId: node.parentId,
        ...(offParent ? {} : { forkedFromNode: node.parentId }),
        role,
        preview,
        toolCalls: typeof p?.calls === 'number' ? p.calls : 0,
      },
      vcs: null,
      usage: null,
      cost: null,
      parentId: offParent ? `node-${node.parentId}` : null,
      childSessionKey: null,
      origin: { fileIndex: 0, line: null, pointer: `/rows/message_nodes/${pointerToken(node.key)}` },
    };
  });
}
