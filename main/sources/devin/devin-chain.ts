// Devin's messages form a tree: the conversation is the chain from the main chain's tip up to the root; the rest are abandoned branches.
import type { WarningList } from '../coerce.ts';
import type { TreeNode } from './devin-store.ts';

export interface SplitTree {
  /** The conversation, root first. */
  chain: TreeNode[];
  /** Every node off the chain (retries and edits the user left), in the order they were written. */
  abandoned: TreeNode[];
}

/** The tip to walk from: main_chain_id, or (when it is missing or names no node) the newest node, with a warning. */
function tipOf(byId: Map<number, TreeNode>, nodes: TreeNode[], tipId: number | null, warnings: WarningList): TreeNode | undefined {
  const tip = tipId === null ? undefined : byId.get(tipId);
  if (tip || nodes.length === 0) return tip;
  const newest = nodes.reduce((a, b) => (b.rowId > a.rowId ? b : a));
  warnings.add(
    'missing_main_chain',
    tipId === null
      ? `The session records no main chain; the newest branch (ending at node ${newest.nodeId}) is shown.`
      : `The main chain's tip (node ${tipId}) is not in the store; the newest branch (ending at node ${newest.nodeId}) is shown.`,
  );
  return newest;
}

/** Walks parent links from the tip; a loop or a missing parent ends the walk with a warning instead of running forever. */
export function splitTree(nodes: TreeNode[], tipId: number | null, warnings: WarningList): SplitTree {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const chain: TreeNode[] = [];
  const onChain = new Set<number>();
  let node = tipOf(byId, nodes, tipId, warnings);
  while (node) {
    if (onChain.has(node.nodeId)) {
      warnings.add('tree_cycle', `The message tree loops back to node ${node.nodeId}; the conversation is shown from there.`);
      break;
    }
    chain.push(node);
    onChain.add(node.nodeId);
    if (node.parentId === null) break;
    const parent = byId.get(node.parentId);
    if (!parent)
      warnings.add(
        'missing_parent',
        `Node ${node.nodeId}'s parent (node ${node.parentId}) is not in the store; the conversation is shown from node ${node.nodeId}.`,
      );
    node = parent;
  }
  chain.reverse();
  return { chain, abandoned: nodes.filter((n) => !onChain.has(n.nodeId)) };
}
