// The operations timeline of each session, flattened in tree order and aligned side by side.
import type { Operation, Session } from '../session.ts';
import { alignSequences } from './align.ts';
import type { AlignRow, OpEntry } from './comparison.ts';

function vcsSummary(op: Operation): string | null {
  if (!op.vcs) return null;
  const { A, M, D, R } = op.vcs.staged;
  const parts = [
    A.length ? `A${A.length}` : '',
    M.length ? `M${M.length}` : '',
    D.length ? `D${D.length}` : '',
    R.length ? `R${R.length}` : '',
    op.vcs.appliedSha ? `applied ${op.vcs.appliedSha.slice(0, 7)}` : '',
    op.vcs.restoredSha ? `restored ${op.vcs.restoredSha.slice(0, 7)}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : null;
}

/** Parents before their children, siblings in recorded order; depth from the tree. */
export function operationEntries(session: Session, start: number | null): OpEntry[] {
  const ops = session.operations;
  const ids = new Set(ops.map((o) => o.id));
  const children = new Map<string | null, Operation[]>();
  for (const op of ops) {
    const parent = op.parentId !== null && ids.has(op.parentId) && op.parentId !== op.id ? op.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(op);
    children.set(parent, list);
  }
  const out: OpEntry[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | null, depth: number) => {
    for (const op of children.get(parent) ?? []) {
      if (seen.has(op.id)) continue;
      seen.add(op.id);
      const t = op.timestamp ? Date.parse(op.timestamp) : Number.NaN;
      out.push({
        type: op.type,
        name: op.name,
        status: op.status,
        offsetMs: start !== null && !Number.isNaN(t) ? t - start : null,
        latencyMs: op.latencyMs,
        vcs: vcsSummary(op),
        depth,
      });
      walk(op.id, depth + 1);
    }
  };
  walk(null, 0);
  // Cycles in a broken file leave some operations unreached; they still belong on the timeline.
  for (const op of ops)
    if (!seen.has(op.id)) out.push({ type: op.type, name: op.name, status: op.status, offsetMs: null, latencyMs: op.latencyMs, vcs: vcsSummary(op), depth: 0 });
  return out;
}

/** Same type, name, status and VCS facts are the same operation; the same type and name differing otherwise is a change. */
export function alignOperations(a: readonly OpEntry[], b: readonly OpEntry[]): AlignRow[] {
  const ids = new Map<string, number>();
  const key = (e: OpEntry) => {
    const k = `${e.type}\u0000${e.name ?? ''}\u0000${e.status ?? ''}\u0000${e.vcs ?? ''}`;
    let id = ids.get(k);
    if (id === undefined) {
      id = ids.size;
      ids.set(k, id);
    }
    return id;
  };
  const similarity = (i: number, j: number) => {
    const x = a[i] as OpEntry;
    const y = b[j] as OpEntry;
    if (x.type !== y.type) return 0;
    return x.name === y.name ? 0.8 : 0.5;
  };
  return alignSequences(Int32Array.from(a, key), Int32Array.from(b, key), similarity, 0.5).map(({ status, a: ai, b: bj }) => ({ status, a: ai, b: bj }));
}
