// One op of an ai-agent v3 `turn_end` record → a canonical Operation (usage, payload refs, child-session links).
import type { Operation } from '../../../shared/session.ts';
import { elementFields, limitDepth, type Fields } from '../coerce.ts';
import { KNOWN_OP_KINDS } from './ai-agent-op.ts';
import type { PayloadRefs } from './ai-agent-payloads.ts';
import { costOf, readTotals, type UsageSum } from './ai-agent-usage.ts';

export interface LedgerOpContext {
  payloads: PayloadRefs;
  uniqueId: (wanted: string) => string;
  noteKind: (kind: string) => void;
  childKeys: Set<string>;
  /** Set by the first llm op: the session's model. */
  firstModel: { provider: string | null; name: string } | null;
}

/** `childSessions[{sessionId, agentId, callPath, status, ledgerPath, ...}]` as shown in details, adding their keys. */
export function readChildSessions(list: unknown[] | null, field: string, f: Fields, childKeys: Set<string>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const raw of list ?? []) {
    const c = elementFields(raw, field, f.warnings);
    if (!c) continue;
    const sessionId = c.string('sessionId');
    if (sessionId === null) {
      f.warnings.add('missing_field', `A "${field}" entry has no sessionId; the sub-agent cannot be linked.`);
      continue;
    }
    childKeys.add(`ai-agent:${sessionId}`);
    out.push({
      sessionId,
      agentId: c.string('agentId'),
      callPath: c.string('callPath'),
      status: c.string('status'),
      ledgerPath: c.string('ledgerPath'),
      parentOpId: c.string('parentOpId'),
    });
  }
  return out;
}

function time(f: Fields, key: string): string | null {
  return f.timestamp(key);
}

/** Reads `raw` (the j-th op of turn `turnId`, on `line`) and adds its usage to the turn's sum. */
export function readLedgerOp(raw: unknown, j: number, turnId: string, line: number, sum: UsageSum, ctx: LedgerOpContext, f: Fields): Operation | null {
  const op = elementFields(raw, f.name('ops'), f.warnings);
  if (!op) return null;
  const opIndex = op.number('opIndex');
  const id = ctx.uniqueId(op.string('opId') ?? `${turnId}-op-${opIndex ?? j + 1}`);
  const kind = op.string('kind') ?? 'unknown';
  if (!KNOWN_OP_KINDS.includes(kind)) ctx.noteKind(kind);
  const attrs = op.object('attributes');
  const model = op.string('model') ?? attrs?.string('model') ?? null;
  const provider = op.string('provider') ?? attrs?.string('provider') ?? null;
  const toolName = op.string('name') ?? attrs?.string('name') ?? null;
  const name = kind === 'llm' ? model : kind === 'system' ? (attrs?.string('label') ?? toolName) : toolName;
  const startedAt = time(op, 'startedAt');
  const endedAt = time(op, 'endedAt');
  const { usage, costUsd } = readTotals(op.object('accounting'));
  const cost = usage || costUsd !== null ? costOf(model, usage, costUsd) : null;
  sum.add(usage, cost);
  if (kind === 'llm' && model !== null) ctx.firstModel ??= { provider, name: model };

  const refs = [];
  for (const r of op.array('payloadRefs') ?? []) {
    const ref = ctx.payloads.read(r, op.name('payloadRefs[]'));
    if (ref) refs.push(ref);
  }
  const children = readChildSessions(op.array('childSessions'), op.name('childSessions'), op, ctx.childKeys);
  const error = op.string('error') ?? attrs?.string('error') ?? null;
  const detail: Record<string, unknown> = { provider, ...(model !== null ? { model } : {}), ...(opIndex !== null ? { opIndex } : {}) };
  if (attrs) detail.attributes = limitDepth(attrs.raw, f.warnings, attrs.path);
  if (error !== null) detail.error = error;
  if (refs.length) detail.payloads = refs;
  if (children.length) detail.childSessions = children;
  const started = startedAt ? Date.parse(startedAt) : null;
  const ended = endedAt ? Date.parse(endedAt) : null;
  const firstChild = children[0]?.sessionId;
  return {
    id,
    type: kind,
    name,
    timestamp: startedAt,
    endedAt,
    status: op.string('status'),
    latencyMs: op.number('durationMs') ?? (started !== null && ended !== null ? ended - started : null),
    detail,
    vcs: null,
    usage,
    cost,
    parentId: turnId,
    childSessionKey: typeof firstChild === 'string' ? `ai-agent:${firstChild}` : null,
    origin: { fileIndex: 0, line, pointer: `/ops/${j}` },
  };
}
