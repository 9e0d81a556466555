// A session's totals for the header diff: tokens by kind, cost, start, end and duration, whatever the format recorded.
import type { Cost, Operation, Session, TokenUsage } from '../session.ts';

function addUsage(a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null {
  if (!a || !b) return a ?? b;
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    reasoning: a.reasoning + b.reasoning,
  };
}

function addCost(a: Cost | null, b: Cost | null): Cost | null {
  if (!a || !b) return a ?? b;
  return { usd: a.usd + b.usd, estimated: a.estimated || b.estimated };
}

/** Operations nest (a turn holds its llm calls): count only the deepest ones that recorded a figure, never twice. */
function leafSum<T>(ops: readonly Operation[], pick: (op: Operation) => T | null, add: (x: T | null, y: T | null) => T | null): T | null {
  const byId = new Map(ops.map((op) => [op.id, op]));
  const covered = new Set<string>();
  for (const op of ops) {
    if (pick(op) === null) continue;
    const seen = new Set<string>();
    for (let p = op.parentId; p !== null && !seen.has(p); p = byId.get(p)?.parentId ?? null) {
      seen.add(p);
      covered.add(p);
    }
  }
  let total: T | null = null;
  for (const op of ops) if (!covered.has(op.id)) total = add(total, pick(op));
  return total;
}

/** The tool's own totals when recorded; else the sum over messages; else over operations. */
export function sessionUsage(session: Session): TokenUsage | null {
  if (session.usage) return session.usage;
  let sum: TokenUsage | null = null;
  for (const m of session.messages) sum = addUsage(sum, m.usage);
  return sum ?? leafSum(session.operations, (op) => op.usage, addUsage);
}

export function sessionCost(session: Session): Cost | null {
  if (session.cost) return session.cost;
  let sum: Cost | null = null;
  for (const m of session.messages) sum = addCost(sum, m.cost);
  return sum ?? leafSum(session.operations, (op) => op.cost, addCost);
}

function time(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

function firstMessageTime(session: Session, fromEnd: boolean): number | null {
  const n = session.messages.length;
  for (let k = 0; k < n; k++) {
    const t = time(session.messages[fromEnd ? n - 1 - k : k]?.timestamp);
    if (t !== null) return t;
  }
  return null;
}

/** Start and end as epoch ms: the session's own dates, else its first and last timestamped message. */
export function sessionSpan(session: Session): { start: number | null; end: number | null; durationMs: number | null } {
  const start = time(session.createdAt) ?? firstMessageTime(session, false);
  const end = time(session.closedAt) ?? time(session.updatedAt) ?? firstMessageTime(session, true);
  const durationMs = start !== null && end !== null && end >= start ? end - start : null;
  return { start, end, durationMs };
}
