// One ai-agent OperationNode (llm / tool / session / system) → a canonical Operation plus the messages it stands for.
import type { Message, MessagePart, Operation } from '../../../shared/session.ts';
import { elementFields, limitDepth, type Fields } from '../coerce.ts';
import { captureReplyParts, outputText, replyParts } from './ai-agent-content.ts';
import { bool } from './ai-agent-payloads.ts';
import { describeCapture, readLogs, readReasoning, readSide, type Side } from './ai-agent-op-parts.ts';
import type { NodeScope, TreeContext } from './ai-agent-tree-context.ts';
import { costOf, readAccountingEntry, UsageSum } from './ai-agent-usage.ts';

export const KNOWN_OP_KINDS = ['llm', 'tool', 'session', 'system'];

export interface TurnInfo {
  id: string;
  /** JSON pointer of the turn. */
  pointer: string;
  /** Field name of the turn's ops list, for warnings ("opTree.turns[].ops"). */
  field: string;
  /** Tool calls the LLM asked for are shown through these ops, so they are not repeated from the reply. */
  hasToolOps: boolean;
  /** Usage of the turn's own ops (not of sub-agents they spawn). */
  sum: UsageSum;
}

export type WalkChild = (node: Fields, scope: NodeScope) => void;

/** An op's AccountingEntry[]: its own usage and cost, also added to the whole tree's sum and tool-character tally. */
function accounting(f: Fields, model: string | null, ctx: TreeContext) {
  const sum = new UsageSum();
  const entries: Array<Record<string, unknown>> = [];
  let first: ReturnType<typeof readAccountingEntry> | null = null;
  for (const raw of f.array('accounting') ?? []) {
    const ef = elementFields(raw, f.name('accounting'), ctx.warnings);
    if (!ef) continue;
    const e = readAccountingEntry(ef);
    first ??= e;
    const cost = e.type === 'tool' ? (e.costUsd !== null ? { usd: e.costUsd, estimated: false } : null) : costOf(e.model ?? model, e.usage, e.costUsd);
    sum.add(e.usage, cost);
    ctx.usage.add(e.usage, cost);
    if (e.charactersIn !== null || e.charactersOut !== null) {
      ctx.toolCharacters.in += e.charactersIn ?? 0;
      ctx.toolCharacters.out += e.charactersOut ?? 0;
      ctx.toolCharacters.entries++;
    }
    const shown: Record<string, unknown> = { type: e.type, status: e.status };
    for (const [k, v] of Object.entries({
      costUsd: e.costUsd,
      stopReason: e.stopReason,
      actualProvider: e.actualProvider,
      error: e.error,
      charactersIn: e.charactersIn,
      charactersOut: e.charactersOut,
      mcpServer: e.mcpServer,
      command: e.command,
    })) {
      if (v !== null) shown[k] = v;
    }
    entries.push(shown);
  }
  return { sum, entries, first };
}

function message(id: string, role: Message['role'], timestamp: string | null, parts: MessagePart[], scope: NodeScope, pointer: string): Message {
  return { id, role, timestamp, model: null, usage: null, cost: null, parts, agentId: scope.agentId, origin: { fileIndex: 0, line: null, pointer } };
}

/** The assistant reply of an llm op: reasoning, then the inline response, else the captured response body. */
function llmParts(
  reasoning: string | null,
  response: Side,
  captures: ReturnType<typeof readLogs>['captures'],
  turn: TurnInfo,
): { parts: MessagePart[]; delegated: number } {
  let reply = replyParts(response.inline);
  if (reply.length === 0) {
    const capture = captures.find((c) => c.direction === 'response');
    if (capture) reply = captureReplyParts(capture.text, capture.format);
  }
  if (reasoning !== null) reply = [{ type: 'thinking', text: reasoning, redacted: false }, ...reply.filter((p) => p.type !== 'thinking')];
  if (!turn.hasToolOps) return { parts: reply, delegated: 0 };
  const parts = reply.filter((p) => p.type !== 'tool_call');
  return { parts, delegated: reply.length - parts.length };
}

function replyNote(response: Side, error: string | null): string {
  if (error) return `No reply: ${error}.`;
  const ref = response.refs.find((r) => r.path !== null);
  if (ref) return ref.captured === false ? 'The response body was not captured.' : `The response body is stored in ${ref.path}; it is not shown here.`;
  return 'The snapshot records no response text for this call.';
}

/** Reads op `raw` (the j-th of its turn) into ctx.operations / ctx.messages; sub-agents recurse through walkChild. */
export function readOp(raw: unknown, j: number, turn: TurnInfo, scope: NodeScope, ctx: TreeContext, walkChild: WalkChild): void {
  const f = elementFields(raw, turn.field, ctx.warnings);
  if (!f) return;
  const pointer = `${turn.pointer}/ops/${j}`;
  const id = ctx.uniqueId(`${scope.idPrefix}${f.string('opId') ?? `op-${j}`}`);
  const kind = f.string('kind') ?? 'unknown';
  if (!KNOWN_OP_KINDS.includes(kind)) ctx.noteKind(kind);
  const attrs = f.object('attributes');
  const provider = attrs?.string('provider') ?? null;
  const startedAt = ctx.time(f, 'startedAt');
  const endedAt = ctx.time(f, 'endedAt');
  const status = f.string('status');
  const acc = accounting(f, attrs?.string('model') ?? null, ctx);
  const model = attrs?.string('model') ?? acc.first?.model ?? null;
  const error = attrs?.string('error') ?? acc.first?.error ?? null;
  const request = readSide(f.object('request'), ctx);
  const response = readSide(f.object('response'), ctx);
  const reasoning = readReasoning(f.object('reasoning'));
  const logs = readLogs(f.array('logs'), f.name('logs'), ctx);
  const child = f.object('childSession');
  const childAgent = child?.string('agentId') ?? null;
  const toolName = attrs?.string('name') ?? acc.first?.command ?? null;
  const name = kind === 'llm' ? model : kind === 'session' ? (toolName ?? childAgent) : kind === 'system' ? (attrs?.string('label') ?? null) : toolName;
  const started = startedAt ? Date.parse(startedAt) : null;
  const ended = endedAt ? Date.parse(endedAt) : null;
  const usage = acc.sum.usage;
  const cost = acc.sum.cost();
  turn.sum.add(usage, cost);
  if (kind === 'llm' && model !== null) ctx.noteModel(scope.depth, { provider: provider ?? acc.first?.provider ?? null, name: model, parameters: {} });

  const detail: Record<string, unknown> = {
    provider,
    ...(model !== null ? { model } : {}),
    ...(attrs ? { attributes: limitDepth(attrs.raw, ctx.warnings, attrs.path) } : {}),
    ...(error !== null ? { error } : {}),
    ...(acc.entries.length ? { accounting: acc.entries } : {}),
    ...(request.detail ? { request: request.detail } : {}),
    ...(response.detail ? { response: response.detail } : {}),
    ...(reasoning.chunks || reasoning.text ? { reasoning: { chunks: reasoning.chunks, chars: reasoning.text?.length ?? 0 } } : {}),
    ...(logs.total ? { logs: logs.entries, logCount: logs.total } : {}),
    ...(logs.captures.length ? { captures: logs.captures.map(describeCapture) } : {}),
    ...(endedAt === null ? { unfinished: true } : {}),
  };
  if (child) {
    const childInfo = {
      agentId: childAgent,
      callPath: child.string('callPath'),
      traceId: child.string('traceId'),
      title: child.string('sessionTitle') || null,
      startedAt: ctx.time(child, 'startedAt'),
      endedAt: ctx.time(child, 'endedAt'),
      success: bool(child, 'success'),
      error: child.string('error'),
      operationId: id,
    };
    detail.childSession = childInfo;
    ctx.subAgents.push(childInfo);
  }
  const op: Operation = {
    id,
    type: kind,
    name,
    timestamp: startedAt,
    endedAt,
    status,
    latencyMs: started !== null && ended !== null ? ended - started : (attrs?.number('latency') ?? acc.first?.latencyMs ?? null),
    detail,
    vcs: null,
    usage,
    cost,
    parentId: turn.id,
    childSessionKey: null,
    origin: { fileIndex: 0, line: null, pointer },
  };
  ctx.operations.push(op);

  const childScope: NodeScope = {
    pointer: `${pointer}/childSession`,
    idPrefix: `${id}/`,
    parentOpId: id,
    agentId: childAgent ?? child?.string('callPath') ?? id,
    depth: scope.depth + 1,
  };
  if (kind === 'llm') {
    const { parts, delegated } = llmParts(reasoning.text, response, logs.captures, turn);
    const m = message(`${id}:reply`, 'assistant', endedAt ?? startedAt, parts, scope, pointer);
    Object.assign(m, { model, usage, cost });
    if (delegated) m.annotations = { note: `Asked for ${delegated === 1 ? '1 tool call' : `${delegated} tool calls`}, shown below as tool runs.` };
    else if (parts.length === 0) m.annotations = { note: replyNote(response, error) };
    ctx.messages.push(m);
  }
  if (kind !== 'tool' && kind !== 'session') {
    if (child) walkChild(child, childScope);
    return;
  }
  const call: MessagePart = {
    type: 'tool_call',
    callId: id,
    name: name ?? kind,
    input: request.inline ?? (request.refs.length ? { payloadRefs: request.refs.map((r) => r.path) } : null),
  };
  // A result part only when something came back; an op that ended silently is still visible as an operation.
  const hasResult = response.inline !== undefined || error !== null || response.refs.length > 0;
  const result: MessagePart = {
    type: 'tool_result',
    callId: id,
    output: response.inline !== undefined ? outputText(response.inline) : (error ?? replyNote(response, null)),
    isError: status === 'failed' || error !== null ? true : status === 'ok' ? false : null,
  };
  if (!child) {
    ctx.messages.push(message(`${id}:call`, 'tool', startedAt, hasResult ? [call, result] : [call], scope, pointer));
    return;
  }
  // A sub-agent's own conversation sits between the call that started it and the result it returned.
  ctx.messages.push(message(`${id}:call`, 'tool', startedAt, [call], scope, pointer));
  walkChild(child, childScope);
  if (hasResult) ctx.messages.push(message(`${id}:result`, 'tool', endedAt, [result], scope, pointer));
}
