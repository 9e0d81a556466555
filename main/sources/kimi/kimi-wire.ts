// Reads kimi-cli's wire.jsonl: `{timestamp, message: {type, payload}}` events (turns, steps, parts, tool calls, usage).
import type { Message, TokenUsage } from '../../../shared/session.ts';
import { Fields, isRecord } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';
import { kimiPart, kimiParts, outputText, toolCallPart } from './kimi-parts.ts';
import { addTokens, bump, isoFromEpoch, noteTime, pushMessage, stepMessage, type KimiState } from './kimi-state.ts';

/** Events the UI shows that add nothing to the transcript (approvals, hooks, MCP loading, notifications ...). */
const QUIET = new Set([
  'StepRetry',
  'CompactionEnd',
  'ToolCallPart',
  'ApprovalRequest',
  'ApprovalResponse',
  'ApprovalRequestResolved',
  'QuestionRequest',
  'QuestionResponse',
  'ToolCallRequest',
  'HookRequest',
  'HookResponse',
  'HookTriggered',
  'HookResolved',
  'MCPLoadingBegin',
  'MCPLoadingEnd',
  'Notification',
  'PlanDisplay',
  'BtwBegin',
  'BtwEnd',
]);

/** Events that carry the conversation: a wire with any of them holds the whole session, not only its markers. */
const CONVERSATION = new Set(['ContentPart', 'ToolCall', 'ToolResult']);

/** True when some TurnBegin carries its input or some event carries content (older wires held bare markers). */
export function wireHasConversation(records: readonly JsonLine[]): boolean {
  return records.some(({ value }) => {
    const message = isRecord(value) && isRecord(value.message) ? value.message : null;
    if (!message || typeof message.type !== 'string') return false;
    const payload = isRecord(message.payload) ? message.payload : null;
    if (payload === null) return false;
    return message.type === 'TurnBegin' ? payload.user_input !== undefined : CONVERSATION.has(message.type) && Object.keys(payload).length > 0;
  });
}

export function legacyUsage(usage: Fields | null): TokenUsage | null {
  if (!usage) return null;
  const n = (key: string) => Math.max(0, usage.number(key) ?? 0);
  const found = ['input_other', 'output', 'input_cache_read', 'input_cache_creation'].some((k) => usage.present(k));
  return found ? { input: n('input_other'), output: n('output'), cacheRead: n('input_cache_read'), cacheWrite: n('input_cache_creation'), reasoning: 0 } : null;
}

function userInput(state: KimiState, payload: Fields, line: number, ts: string | null, steer: boolean): void {
  state.step = null;
  const parts = kimiParts(payload.raw.user_input, 'payload.user_input', state.warnings, state.unknownBlocks);
  if (parts.length) pushMessage(state, line, 'user', ts, parts, steer ? { steer: true } : undefined);
}

function toolResult(state: KimiState, payload: Fields, line: number, ts: string | null): void {
  state.step = null;
  const value = payload.object('return_value');
  let output = outputText(value?.raw.output, state.warnings);
  const note = value?.string('message') ?? null;
  if (output === '' && note !== null) output = note;
  const isError = typeof value?.raw.is_error === 'boolean' ? value.raw.is_error : null;
  pushMessage(state, line, 'tool', ts, [{ type: 'tool_result', callId: payload.string('tool_call_id'), output, isError }]);
}

/** Usage is reported after the step's call; it belongs to the step's message (or the last answer before it). */
function statusUpdate(state: KimiState, payload: Fields): void {
  const context = payload.number('context_tokens');
  if (context !== null) state.contextTokens = context;
  const usage = legacyUsage(payload.object('token_usage'));
  if (!usage) return;
  addTokens(state, usage);
  const owner: Message | undefined = state.step ?? state.messages.findLast((m) => m.role === 'assistant');
  if (owner && !owner.usage) owner.usage = usage;
  else if (owner?.usage) for (const k of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) owner.usage[k] += usage[k];
}

function event(state: KimiState, type: string, payload: Fields, line: number, ts: string | null): void {
  switch (type) {
    case 'TurnBegin':
      state.turns++;
      state.openTurn = true;
      state.turnTimes.push(ts);
      return userInput(state, payload, line, ts, false);
    case 'SteerInput':
      return userInput(state, payload, line, ts, true);
    case 'TurnEnd':
      state.openTurn = false;
      state.step = null;
      return;
    case 'StepBegin':
      state.step = null;
      return;
    case 'StepInterrupted':
      if (state.step) state.step.annotations = { ...(state.step.annotations as object | undefined), interrupted: true };
      state.step = null;
      return;
    case 'CompactionBegin':
      state.step = null;
      pushMessage(state, line, 'system', ts, [{ type: 'compaction', summary: null, trigger: null, tokensBefore: null }]);
      return;
    case 'ContentPart': {
      const part = kimiPart(payload.raw, state.unknownBlocks);
      if (part) stepMessage(state, line, ts).parts.push(part);
      return;
    }
    case 'ToolCall': {
      const part = toolCallPart(payload.raw, state.warnings);
      if (part) stepMessage(state, line, ts).parts.push(part);
      return;
    }
    case 'ToolResult':
      return toolResult(state, payload, line, ts);
    case 'StatusUpdate':
      return statusUpdate(state, payload);
    case 'SubagentEvent': {
      const call = payload.string('parent_tool_call_id');
      const agent = payload.string('agent_id');
      if (call !== null && agent !== null) state.childByCall.set(call, agent);
      return bump(state.otherRecords, type);
    }
    default:
      if (QUIET.has(type)) bump(state.otherRecords, type);
      else bump(state.unknownTypes, type);
  }
}

export function readWire(state: KimiState, records: readonly JsonLine[]): void {
  for (const { value, line } of records) {
    if (!isRecord(value)) continue;
    // The first line is a header: {"type":"metadata",...} now, {"type":"hello",...} in protocol 1.
    if (value.type === 'metadata' || value.type === 'hello') {
      if (typeof value.protocol_version === 'string' || typeof value.protocol_version === 'number') state.extra.wireProtocol = String(value.protocol_version);
      continue;
    }
    const rec = new Fields(value, '', state.warnings);
    const ts = isoFromEpoch(rec.raw.timestamp, 's');
    noteTime(state, ts);
    const message = rec.object('message');
    const type = message?.string('type') ?? null;
    if (type === null) {
      bump(state.unknownTypes, 'wire record without a message type');
      continue;
    }
    event(state, type, message?.object('payload') ?? new Fields({}, 'message.payload', state.warnings), line, ts);
  }
  state.step = null;
}
