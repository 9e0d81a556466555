// Vizier's operations (the real writer's {kind, details} and the MVP schema's {type, detail, vcs, ts}) with their staged VCS changes.
import type { Operation, VcsFacts } from '../../../shared/session.ts';
import { elementFields, Fields, isRecord } from '../coerce.ts';

function stringList(f: Fields | null, key: string): string[] {
  const list = f?.array(key) ?? [];
  const out: string[] = [];
  for (const item of list) {
    if (typeof item === 'string') out.push(item);
    else f?.warnings.wrongType(`${f.name(key)}[]`, 'a path string', item);
  }
  return out;
}

/** R entries are `[old, new]` pairs in the design document; plain strings and {from, to} are accepted too. */
function renames(staged: Fields | null): VcsFacts['staged']['R'] {
  const out: VcsFacts['staged']['R'] = [];
  for (const item of staged?.array('R') ?? []) {
    if (typeof item === 'string') out.push({ from: null, to: item });
    else if (Array.isArray(item) && item.length === 2 && typeof item[1] === 'string') {
      out.push({ from: typeof item[0] === 'string' ? item[0] : null, to: item[1] });
    } else if (isRecord(item) && typeof item.to === 'string') {
      out.push({ from: typeof item.from === 'string' ? item.from : null, to: item.to });
    } else staged?.warnings.wrongType(`${staged.name('R')}[]`, 'an [old, new] pair of paths', item);
  }
  return out;
}

function readVcs(op: Fields): VcsFacts | null {
  const vcs = op.object('vcs');
  if (!vcs) return null;
  const staged = vcs.object('staged');
  return {
    staged: { A: stringList(staged, 'A'), M: stringList(staged, 'M'), D: stringList(staged, 'D'), R: renames(staged) },
    appliedSha: vcs.string('applied_sha'),
    restoredSha: vcs.string('restored_sha'),
  };
}

export function readOperations(top: Fields): Operation[] {
  const operations: Operation[] = [];
  (top.array('operations') ?? []).forEach((raw, i) => {
    const f = elementFields(raw, 'operations', top.warnings);
    if (!f) return;
    // The real writer records {kind, details}; the MVP schema {type, detail, vcs, ts}.
    const real = f.present('kind') || f.present('details');
    const type = real ? f.string('kind') : f.string('type');
    if (type === null) top.warnings.add('missing_field', 'An operation has neither "type" nor "kind"; it is shown as "unknown".');
    const detailKey = real ? 'details' : 'detail';
    const details = real && isRecord(f.raw.details) ? new Fields(f.raw.details, 'operations[].details', top.warnings) : null;
    operations.push({
      id: `op-${i}`,
      type: type ?? 'unknown',
      name: details?.string('script') ?? null,
      timestamp: f.timestamp('ts'),
      endedAt: null,
      status: details?.string('status') ?? null,
      latencyMs: details?.number('duration_ms') ?? null,
      detail: f.present(detailKey) ? f.value(detailKey) : null,
      vcs: readVcs(f),
      usage: null,
      cost: null,
      parentId: null,
      childSessionKey: null,
      origin: { fileIndex: 0, line: null, pointer: `/operations/${i}` },
    });
  });
  return operations;
}
