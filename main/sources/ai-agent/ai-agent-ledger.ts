// Reads ai-agent v3 session ledgers (<sessions>/session/<sessionId>.jsonl: session_start, turn_start/turn_end, session_summary/error).
import type { Operation, Outcome, Session } from '../../../shared/session.ts';
import { Fields, isRecord, lastSegment, limitDepth, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { readChildSessions, readLedgerOp, type LedgerOpContext } from './ai-agent-ledger-op.ts';
import { ledgerRoot } from './ai-agent-paths.ts';
import { recentlyActive } from '../../../shared/activity.ts';
import { bool, PayloadRefs } from './ai-agent-payloads.ts';
import { readTotals, UsageSum } from './ai-agent-usage.ts';
import { UnreadableError } from '../types.ts';
import { statPath } from '../file-bytes.ts';
import { cannotRead } from '../read-failure.ts';

export const LEDGER_VERSION = 3;

interface Turn {
  op: Operation;
  ended: boolean;
}

/** What the walk over the records collects before the session is assembled. */
class LedgerState {
  start: Fields | null = null;
  summary: Fields | null = null;
  error: { text: string; at: string | null } | null = null;
  firstTs: string | null = null;
  lastTs: string | null = null;
  lastSeq: number | null = null;
  outOfOrder = 0;
  anySessionId: string | null = null;
  readonly turns = new Map<number, Turn>();
  readonly operations: Operation[] = [];
  readonly turnSums = new UsageSum();
  readonly opSums = new UsageSum();
  turnAccounting = false;
  readonly otherVersions = new Map<string, number>();
  readonly unknownTypes = new Map<string, number>();
  readonly unknownKinds = new Map<string, number>();
  readonly ids = new Set<string>();
}

function turnOf(state: LedgerState, n: number, at: string | null, line: number): Turn {
  let turn = state.turns.get(n);
  if (!turn) {
    const op: Operation = {
      id: `turn-${n}`,
      type: 'turn',
      name: `Turn ${n}`,
      timestamp: at,
      endedAt: null,
      status: null,
      latencyMs: null,
      detail: { index: n },
      vcs: null,
      usage: null,
      cost: null,
      parentId: null,
      childSessionKey: null,
      origin: { fileIndex: 0, line, pointer: null },
    };
    state.ids.add(op.id);
    turn = { op, ended: false };
    state.turns.set(n, turn);
    state.operations.push(op);
  }
  return turn;
}

function turnEnd(f: Fields, line: number, at: string | null, state: LedgerState, opCtx: LedgerOpContext): void {
  const n = f.number('turn') ?? state.turns.size + 1;
  const turn = turnOf(state, n, null, line);
  const sum = new UsageSum();
  const ops = (f.array('ops') ?? []).map((raw, j) => readLedgerOp(raw, j, turn.op.id, line, sum, opCtx, f)).filter((o) => o !== null);
  state.operations.push(...ops);
  state.opSums.add(sum.usage, sum.cost());
  const recorded = readTotals(f.object('accounting'));
  if (recorded.usage || recorded.costUsd !== null) {
    state.turnAccounting = true;
    turn.op.usage = recorded.usage;
    turn.op.cost = recorded.costUsd !== null ? { usd: recorded.costUsd, estimated: false } : sum.cost();
  } else {
    turn.op.usage = sum.usage;
    turn.op.cost = sum.cost();
  }
  state.turnSums.add(turn.op.usage, turn.op.cost);
  turn.op.timestamp ??= ops.map((o) => o.timestamp).find((t) => t !== null) ?? null;
  turn.op.endedAt = at;
  turn.op.status = f.string('status');
  if (turn.op.timestamp && at) turn.op.latencyMs = Date.parse(at) - Date.parse(turn.op.timestamp);
  const detail = turn.op.detail as Record<string, unknown>;
  for (const key of ['warnings', 'errors']) {
    const list = f.array(key);
    if (list?.length) detail[key] = limitDepth(list, f.warnings, f.name(key));
  }
  turn.ended = true;
}

function readRecord(rec: JsonLine, state: LedgerState, warnings: WarningList, opCtx: LedgerOpContext): void {
  if (!isRecord(rec.value)) {
    warnings.wrongType(`line ${rec.line}`, 'a ledger record object', rec.value);
    return;
  }
  const type = typeof rec.value.recordType === 'string' ? rec.value.recordType : null;
  const f = new Fields(rec.value, type ?? `line ${rec.line}`, warnings);
  const version = f.raw.version;
  if (version !== LEDGER_VERSION) {
    const label = typeof version === 'number' || typeof version === 'string' ? String(version) : 'missing';
    state.otherVersions.set(label, (state.otherVersions.get(label) ?? 0) + 1);
    return;
  }
  const seq = f.number('seq');
  if (seq !== null) {
    if (state.lastSeq !== null && seq <= state.lastSeq) state.outOfOrder++;
    state.lastSeq = Math.max(seq, state.lastSeq ?? seq);
  }
  const at = f.timestamp('ts');
  if (at !== null) {
    state.firstTs ??= at;
    if (state.lastTs === null || at > state.lastTs) state.lastTs = at;
  }
  state.anySessionId ??= f.string('sessionId');
  if (type === 'session_start') state.start ??= f;
  else if (type === 'turn_start') turnOf(state, f.number('turn') ?? state.turns.size + 1, at, rec.line).op.timestamp ??= at;
  else if (type === 'turn_end') turnEnd(f, rec.line, at, state, opCtx);
  else if (type === 'session_summary') state.summary = f;
  else if (type === 'session_error') {
    const err = f.raw.error;
    state.error = { text: typeof err === 'string' ? err : JSON.stringify(limitDepth(err ?? 'unknown error', warnings, 'session_error.error')), at };
  } else {
    const label = type ?? '(none)';
    state.unknownTypes.set(label, (state.unknownTypes.get(label) ?? 0) + 1);
  }
}

function outcomeOf(state: LedgerState): Outcome | null {
  if (state.error) return { status: 'failed', summary: state.error.text, commitSha: null };
  const s = state.summary;
  if (!s) return null;
  const raw = s.string('status');
  const status = raw === 'ok' || raw === 'success' ? 'success' : raw === 'error' || raw === 'failed' ? 'failed' : (raw ?? 'unknown');
  return { status, summary: s.string('error'), commitSha: null };
}

function flushWarnings(state: LedgerState, warnings: WarningList): void {
  for (const [type, n] of state.unknownTypes) {
    warnings.add(
      'unknown_record_type',
      `Ledger record type ${JSON.stringify(type)} is not known to this app (${n === 1 ? '1 record' : `${n} records`}); skipped.`,
    );
  }
  for (const [kind, n] of state.unknownKinds) {
    warnings.add(
      'unknown_record_type',
      `Operation kind ${JSON.stringify(kind)} is not known to this app (${n === 1 ? '1 operation' : `${n} operations`}); shown as is.`,
    );
  }
  for (const [version, n] of state.otherVersions) {
    warnings.add(
      'unsupported_record_version',
      `${n === 1 ? '1 record has' : `${n} records have`} ledger version ${version} (this app reads version ${LEDGER_VERSION}); skipped.`,
    );
  }
  if (state.outOfOrder)
    warnings.add('out_of_order', `${state.outOfOrder} record(s) do not follow the previous one's sequence number; they are shown in file order.`);
}

/** Builds the session from parsed ledger lines; payload refs are kept so `read` can look their files up afterwards. */
export function buildLedgerSession(records: JsonLine[], ctx: DocumentContext): { session: Session; payloads: PayloadRefs; warnings: WarningList } {
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const state = new LedgerState();
  const payloads = new PayloadRefs(ledgerRoot(ctx.path), warnings);
  const opCtx: LedgerOpContext = {
    payloads,
    childKeys: new Set(),
    firstModel: null,
    uniqueId: (wanted) => {
      let id = wanted;
      for (let n = 2; state.ids.has(id); n++) id = `${wanted}#${n}`;
      state.ids.add(id);
      return id;
    },
    noteKind: (kind) => state.unknownKinds.set(kind, (state.unknownKinds.get(kind) ?? 0) + 1),
  };
  for (const rec of records) readRecord(rec, state, warnings, opCtx);

  const v3Records = records.length - [...state.otherVersions.values()].reduce((a, b) => a + b, 0);
  if (v3Records === 0) {
    const versions = [...state.otherVersions.keys()].join(', ');
    throw new UnreadableError(
      'unsupported_version',
      `No record of this ledger is version ${LEDGER_VERSION} (found version ${versions}); this app reads ai-agent ledger version ${LEDGER_VERSION}.`,
    );
  }
  const start = state.start;
  if (!start && state.turns.size === 0 && !state.summary && !state.error) {
    throw new UnreadableError('wrong_shape', 'Not a usable ai-agent ledger: no session_start, turn, session_summary or session_error record.');
  }
  flushWarnings(state, warnings);
  const summary = state.summary;
  if (summary) readChildSessions(summary.array('childSessions'), 'session_summary.childSessions', summary, opCtx.childKeys);

  const id = start?.string('sessionId') ?? state.anySessionId ?? (lastSegment(ctx.path) ?? ctx.path).replace(/\.jsonl$/i, '');
  const closedAt = summary ? (summary.timestamp('ts') ?? state.lastTs) : (state.error?.at ?? null);
  const closed = summary !== null || state.error !== null;
  const status = closed ? 'closed' : recentlyActive(Date.now(), ctx.mtimeMs, state.lastTs) ? 'active' : 'unknown';
  const open = [...state.turns.values()].filter((t) => !t.ended).map((t) => t.op);
  for (const op of open) (op.detail as Record<string, unknown>).unfinished = true;
  if (status === 'unknown') {
    const what = open.length ? `turn ${open.map((o) => (o.detail as { index: number }).index).join(', ')} started but never ended, and ` : '';
    warnings.add(
      'incomplete_session',
      `The ledger stops without a session_summary or session_error: ${what}the file has not changed for over 10 minutes. ai-agent was probably interrupted.`,
    );
  }
  const recorded = readTotals(summary?.object('accounting') ?? null);
  const sums = state.turnAccounting ? state.turnSums : state.opSums;
  const parentSessionId = start?.string('parentSessionId') ?? null;
  const agentId = start?.string('agentId') ?? null;
  const extra: Record<string, unknown> = {
    originId: start?.string('originId') ?? null,
    agentId,
    callPath: start?.string('callPath') ?? null,
    headendId: start?.string('headendId') ?? null,
  };
  const capture = start ? bool(start, 'capturePayloads') : null;
  if (capture !== null) extra.capturePayloads = capture;
  if (start?.present('attributes')) extra.attributes = start.value('attributes');
  if (summary?.present('finalReport')) extra.finalReport = summary.value('finalReport');
  if (state.lastSeq !== null) extra.lastSeq = state.lastSeq;

  const session: Session = {
    key: `ai-agent:${id}`,
    id,
    format: 'ai-agent',
    formatVersion: String(LEDGER_VERSION),
    title: titleFromText(agentId) ?? `ai-agent session ${id.slice(0, 8)}`,
    project: { path: null, name: null, branch: null, headCommit: null },
    createdAt: start?.timestamp('ts') ?? state.firstTs,
    updatedAt: state.lastTs,
    closedAt,
    status,
    outcome: outcomeOf(state),
    model: opCtx.firstModel ? { ...opCtx.firstModel, parameters: {} } : null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages: [],
    operations: state.operations,
    todos: [],
    summary: null,
    artifacts: [],
    usage: recorded.usage ?? sums.usage,
    cost: recorded.costUsd !== null ? { usd: recorded.costUsd, estimated: false } : sums.cost(),
    parentKey: parentSessionId !== null && parentSessionId !== id ? `ai-agent:${parentSessionId}` : null,
    childKeys: [...opCtx.childKeys].filter((k) => k !== `ai-agent:${id}`),
    sourceFiles: [primarySourceFile(ctx)],
    warnings: [],
    extra,
  };
  session.warnings = warnings.list();
  return { session, payloads, warnings };
}

/** Parses the lines of one ledger (pure: payload files are not looked up). */
export function parseAiAgentLedger(records: JsonLine[], ctx: DocumentContext): Session {
  return buildLedgerSession(records, ctx).session;
}

/** Streams one v3 ledger and checks which captured payload files it references are on disk. */
export async function readAiAgentLedger(absPath: string): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  const { records, warnings: lineWarnings } = await readJsonLines(absPath);
  const { session, payloads, warnings } = buildLedgerSession(records, { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings: lineWarnings });
  await payloads.probe();
  session.warnings = warnings.list();
  return session;
}
