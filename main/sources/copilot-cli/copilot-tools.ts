// Copilot CLI tool executions, sub-agent runs, hooks and skills: results paired with their calls by id, each run an operation.
import type { MessagePart, Operation } from '../../../shared/session.ts';
import { elementFields, isRecord, limitDepth, type Fields } from '../coerce.ts';
import { addMessage, between, newOperation, type CopilotState, type EventCtx } from './copilot-state.ts';

function toolOperation(state: CopilotState, ev: EventCtx, callId: string, name: string | null): Operation {
  let op = state.toolOps.get(callId);
  if (!op) {
    op = newOperation(ev, `tool:${callId}`, 'tool', name, { callId });
    if (ev.agentId !== null && state.subagentOps.has(ev.agentId)) op.parentId = `subagent:${ev.agentId}`;
    state.toolOps.set(callId, op);
    state.operations.push(op);
  }
  return op;
}

export function onToolStart(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const callId = data.string('toolCallId');
  if (callId === null) {
    state.warnings.add('missing_field', 'A tool.execution_start event has no toolCallId; it was skipped.');
    return;
  }
  const name = data.string('toolName');
  const op = toolOperation(state, ev, callId, name);
  op.name ??= name;
  op.timestamp = ev.ts;
  op.status = 'running';
  const mcp = data.string('mcpServerName');
  if (mcp) (op.detail as Record<string, unknown>).mcpServer = mcp;
  // A call no assistant message requests (the request was never written) still shows, from its execution.
  if (!state.requested.has(callId)) {
    const input = data.present('arguments') ? data.value('arguments') : null;
    addMessage(state, ev, 'assistant', [{ type: 'tool_call', callId, name: name ?? 'unknown', input }], {
      model: data.string('model') ?? state.model,
      annotations: { note: 'tool call recorded only by its execution' },
    });
  }
}

/**
 * The text a tool returned: result.content, else its detailed content, else the error's message. A result that is not
 * `{content, detailedContent}` (a string, a list, another object: older builds and MCP tools) is shown as it is.
 */
function resultOf(data: Fields): { output: string; images: MessagePart[] } {
  const raw = data.raw.result;
  const result = isRecord(raw) ? data.object('result') : null;
  const error = data.raw.error;
  const errorText = typeof error === 'string' ? error : isRecord(error) && typeof error.message === 'string' ? error.message : null;
  const shaped = result?.string('content') ?? result?.string('detailedContent') ?? null;
  const copilotShape = isRecord(raw) && ('content' in raw || 'detailedContent' in raw || 'contents' in raw);
  const asIs =
    typeof raw === 'string'
      ? raw
      : raw !== undefined && raw !== null && !copilotShape
        ? JSON.stringify(limitDepth(raw, data.warnings, data.name('result')))
        : null;
  const output = shaped ?? asIs ?? errorText ?? '';
  const images: MessagePart[] = [];
  for (const raw of result?.present('contents') ? (result.array('contents') ?? []) : []) {
    const c = elementFields(raw, result!.name('contents'), data.warnings);
    if (c?.string('type') === 'image') images.push({ type: 'image', mediaType: c.string('mimeType'), data: c.string('data'), url: null });
  }
  return { output, images };
}

export function onToolComplete(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const callId = data.string('toolCallId');
  const success = typeof data.raw.success === 'boolean' ? data.raw.success : null;
  const { output, images } = resultOf(data);
  const known = callId !== null && (state.requested.has(callId) || state.toolOps.has(callId));
  const annotations: Record<string, unknown> = known ? {} : { note: 'result of a call this session does not record' };
  addMessage(state, ev, 'tool', [{ type: 'tool_result', callId, output, isError: success === null ? null : !success }, ...images], { annotations });
  if (callId === null) return;
  const op = toolOperation(state, ev, callId, null);
  op.endedAt = ev.ts;
  op.status = success === false ? 'failed' : 'completed';
  const telemetry = data.present('toolTelemetry') ? data.object('toolTelemetry') : null;
  const metrics = telemetry?.present('metrics') ? telemetry.object('metrics') : null;
  op.latencyMs = metrics?.number('durationMs') ?? between(op.timestamp, op.endedAt);
}

/** subagent.started / completed / failed: one operation per run, keyed by its spawning tool call. */
export function onSubagent(state: CopilotState, ev: EventCtx, phase: 'started' | 'completed' | 'failed'): void {
  const { data } = ev;
  const callId = data.string('toolCallId');
  if (callId === null) {
    state.warnings.add('missing_field', `A subagent.${phase} event has no toolCallId; it was skipped.`);
    return;
  }
  let op = state.subagentOps.get(callId);
  if (!op) {
    op = newOperation(ev, `subagent:${callId}`, 'subagent', null, { callId });
    state.subagentOps.set(callId, op);
    state.operations.push(op);
  }
  const detail = op.detail as Record<string, unknown>;
  op.name ??= data.string('agentDisplayName') ?? data.string('agentName');
  for (const key of ['agentName', 'agentDescription', 'model', 'error'] as const) {
    const v = data.string(key);
    if (v !== null) detail[key] = v;
  }
  for (const key of ['totalToolCalls', 'totalTokens', 'durationMs'] as const) {
    const v = data.number(key);
    if (v !== null) detail[key] = v;
  }
  if (phase === 'started') {
    op.timestamp = ev.ts;
    op.status = 'running';
    return;
  }
  op.endedAt = ev.ts;
  op.status = phase === 'failed' ? 'failed' : data.raw.cancelled === true ? 'cancelled' : 'completed';
  op.latencyMs = data.number('durationMs') ?? between(op.timestamp, op.endedAt);
}

/** hook.start / hook.end: the user's hook scripts, run around tools and prompts. */
export function onHook(state: CopilotState, ev: EventCtx, phase: 'start' | 'end'): void {
  const { data } = ev;
  const id = data.string('hookInvocationId') ?? `line-${ev.line}`;
  let op = state.hookOps.get(id);
  if (!op) {
    op = newOperation(ev, `hook:${id}`, 'hook', data.string('hookType'), {});
    state.hookOps.set(id, op);
    state.operations.push(op);
  }
  const input = data.present('input') ? data.object('input') : null;
  const tool = input?.string('toolName');
  if (tool) (op.detail as Record<string, unknown>).toolName = tool;
  if (phase === 'start') {
    op.timestamp = ev.ts;
    op.status = 'running';
    return;
  }
  op.endedAt = ev.ts;
  op.status = data.raw.success === false ? 'failed' : 'completed';
  op.latencyMs = between(op.timestamp, op.endedAt);
  const error = data.raw.error;
  if (isRecord(error) && typeof error.message === 'string') (op.detail as Record<string, unknown>).error = error.message;
}

/** skill.invoked: a skill's instructions loaded into the conversation. */
export function onSkill(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const op = newOperation(ev, `skill:${ev.eventId ?? ev.line}#${ev.line}`, 'skill', data.string('name'), {});
  for (const key of ['path', 'description', 'trigger', 'source'] as const) {
    const v = data.string(key);
    if (v !== null) (op.detail as Record<string, unknown>)[key] = v;
  }
  op.status = 'completed';
  state.operations.push(op);
}
