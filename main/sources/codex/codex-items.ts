// Turns Codex response_item payloads (messages, reasoning, tool calls and their outputs) into messages and tool operations.
import type { MessagePart, MessageRole, Operation } from '../../../shared/session.ts';
import type { Fields } from '../coerce.ts';
import { heldKeys, showsNothing, warnMissingContent } from '../missing-content.ts';
import { contentParts, outputText, parseArguments, textOf } from './codex-content.ts';
import { bump, newMessage, newOperation, type CodexState } from './codex-state.ts';
import { spokenKey } from './spoken-key.ts';
import { between } from './codex-turns.ts';

/** Text Codex itself puts into user messages (environment, AGENTS.md, instructions); never a prompt the person typed. */
const INJECTED =
  /^\s*(<(environment_context|user_instructions|INSTRUCTIONS|permissions instructions|turn_aborted|user_shell_command|skill|collaboration_mode)\b|# AGENTS\.md instructions)/;

export function isInjected(text: string): boolean {
  return INJECTED.test(text);
}

/** Known response_item kinds that carry nothing shown in the transcript. */
const QUIET_ITEMS = new Set(['ghost_snapshot', 'other', 'compaction', 'compaction_summary']);

const OUTPUT_KINDS = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output', 'function_result', 'tool_result']);

function remember(state: CodexState, role: MessageRole, kind: 'text' | 'thinking', text: string): void {
  if (!text.trim()) return;
  const key = spokenKey(role, kind, text);
  state.spoken.set(key, (state.spoken.get(key) ?? 0) + 1);
}

function toRole(raw: string | null): MessageRole | null {
  if (raw === 'user' || raw === 'assistant' || raw === 'system') return raw;
  if (raw === 'developer') return 'system';
  return null;
}

function readMessage(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const roleText = f.string('role');
  const role = toRole(roleText);
  if (role === null) {
    const why = roleText === null ? 'no role' : `the unknown role ${JSON.stringify(roleText)}`;
    state.warnings.add('unknown_role', `A Codex message with ${why} was skipped.`);
    return;
  }
  const model = f.string('model');
  if (model !== null) {
    state.currentModel = model;
    state.models.add(model);
  }
  // Hand-edited and very early rollouts hold the text in `message` or a plain-string `content`.
  const raw = f.present('content') ? f.raw.content : f.raw.message;
  const parts = contentParts(state, raw, f.name('content'));
  if (showsNothing(parts)) {
    const found = f.present('content') || f.present('message') ? 'none of it can be shown' : heldKeys(f.raw, ['type', 'role']);
    return warnMissingContent(state.warnings, `A Codex ${roleText} message`, { found });
  }
  const message = newMessage(state, line, role, ts, parts);
  const annotations: Record<string, unknown> = {};
  if (roleText === 'developer') annotations.role = 'developer';
  const phase = f.string('phase');
  if (phase !== null) annotations.phase = phase;
  const text = textOf(parts);
  if (role === 'user' && isInjected(text)) annotations.injected = true;
  if (Object.keys(annotations).length) message.annotations = annotations;
  remember(state, role, 'text', text);
}

/** Messages one agent thread sent another (multi-agent mode); they reach this thread's model as input. */
function readAgentMessage(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const parts = contentParts(state, f.raw.content, f.name('content'));
  const message = newMessage(state, line, 'user', ts, parts);
  message.annotations = { kind: 'agent_message', from: f.string('author'), to: f.string('recipient') };
}

function readReasoning(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const summaries = contentParts(state, f.raw.summary, f.name('summary'))
    .map((p) => (p.type === 'text' ? p.text : ''))
    .filter(Boolean);
  const raw = textOf(contentParts(state, f.raw.content, f.name('content')));
  const encrypted = f.string('encrypted_content');
  let part: MessagePart | null = null;
  if (summaries.length) part = { type: 'thinking', text: summaries.join('\n\n'), redacted: false };
  else if (raw) part = { type: 'thinking', text: raw, redacted: false };
  else if (encrypted) part = { type: 'thinking', text: '', redacted: true };
  if (!part) {
    bump(state.otherRecords, 'response_item/reasoning (empty)');
    return;
  }
  newMessage(state, line, 'assistant', ts, [part]);
  for (const s of summaries) remember(state, 'assistant', 'thinking', s);
  if (summaries.length > 1) remember(state, 'assistant', 'thinking', summaries.join('\n\n'));
  if (!summaries.length && raw) remember(state, 'assistant', 'thinking', raw);
}

function startTool(state: CodexState, line: number, ts: string | null, name: string, callId: string | null, input: unknown, status: string | null): Operation {
  const parts: MessagePart[] = [{ type: 'tool_call', callId, name, input }];
  newMessage(state, line, 'assistant', ts, parts);
  const op = newOperation(state, line, 'tool', name, ts, callId === null ? {} : { callId });
  if (status !== null && status !== 'completed' && status !== 'in_progress') op.status = status;
  if (callId !== null) state.toolsByCallId.set(callId, op);
  else {
    const waiting = state.waitingByName.get(name) ?? [];
    waiting.push(op);
    state.waitingByName.set(name, waiting);
  }
  return op;
}

function toolName(f: Fields, fallback: string): string {
  const name = f.present('name') ? f.string('name') : (f.object('function')?.string('name') ?? null);
  return name ?? fallback;
}

function readCall(state: CodexState, f: Fields, kind: string, line: number, ts: string | null, enveloped: boolean): void {
  const callId = f.string('call_id');
  const status = f.string('status');
  if (kind === 'function_call' || kind === 'tool_call') {
    const name = toolName(f, 'unknown');
    // The drift shapes (`tool_call`, flat records) store arguments as an object; only the enveloped function_call promises a string.
    const input = enveloped && kind === 'function_call' ? parseArguments(f, 'arguments') : f.present('arguments') ? f.value('arguments') : null;
    const op = startTool(state, line, ts, name, callId, input, status);
    const namespace = f.string('namespace');
    if (namespace !== null) (op.detail as Record<string, unknown>).namespace = namespace;
  } else if (kind === 'custom_tool_call') {
    // Custom tools take free-form text (the apply_patch grammar, for one), so the input is shown as written.
    startTool(state, line, ts, toolName(f, 'unknown'), callId, f.present('input') ? f.value('input') : null, status);
  } else if (kind === 'local_shell_call') {
    startTool(state, line, ts, 'local_shell', callId ?? f.string('id'), f.present('action') ? f.value('action') : null, status);
  } else if (kind === 'web_search_call') {
    const op = startTool(state, line, ts, 'web_search', f.string('id'), f.present('action') ? f.value('action') : null, null);
    if (status !== null) op.status = status;
    state.webSearches.push(op);
  } else if (kind === 'tool_search_call') {
    startTool(state, line, ts, 'tool_search', callId, f.present('arguments') ? f.value('arguments') : null, status);
  } else if (kind === 'image_generation_call') {
    const prompt = f.string('revised_prompt');
    const op = startTool(state, line, ts, 'image_generation', f.string('id'), prompt === null ? null : { revised_prompt: prompt }, null);
    op.status = status;
    const result = f.string('result');
    const message = state.messages.at(-1);
    if (result && message) message.parts.push({ type: 'image', mediaType: 'image/png', data: result, url: null });
  }
}

function readOutput(state: CodexState, f: Fields, kind: string, line: number, ts: string | null): void {
  const callId = f.string('call_id');
  const key = kind === 'tool_search_output' ? 'tools' : f.present('output') ? 'output' : 'result';
  const raw = Object.hasOwn(f.raw, key) ? f.value(key) : null;
  const { text, isError } = outputText(raw, state.warnings, f.name(key));
  newMessage(state, line, 'tool', ts, [{ type: 'tool_result', callId, output: text, isError }]);
  let op = callId !== null ? state.toolsByCallId.get(callId) : undefined;
  if (!op && callId === null) op = state.waitingByName.get(f.string('name') ?? '')?.shift();
  if (!op) return;
  op.endedAt ??= ts;
  op.latencyMs ??= between(op.timestamp, ts);
  // An exec_command_end or patch_apply_end that already reported the outcome knows better.
  if (op.status === null || op.status === 'in_progress') op.status = isError ? 'failed' : 'completed';
}

/** One response_item payload (or a flat record from a writer that had no envelope). */
export function readResponseItem(state: CodexState, f: Fields, line: number, ts: string | null, enveloped: boolean): void {
  const kind = f.string('type') ?? (f.present('role') ? 'message' : null);
  if (kind === null) {
    bump(state.unknownRecords, enveloped ? 'response_item without a type' : 'record without a type');
    return;
  }
  if (kind === 'message') readMessage(state, f, line, ts);
  else if (kind === 'agent_message') readAgentMessage(state, f, line, ts);
  else if (kind === 'reasoning') readReasoning(state, f, line, ts);
  else if (OUTPUT_KINDS.has(kind)) readOutput(state, f, kind, line, ts);
  else if (
    ['function_call', 'tool_call', 'custom_tool_call', 'local_shell_call', 'web_search_call', 'tool_search_call', 'image_generation_call'].includes(kind)
  ) {
    readCall(state, f, kind, line, ts, enveloped);
  } else if (QUIET_ITEMS.has(kind)) bump(state.otherRecords, `response_item/${kind}`);
  else {
    bump(state.unknownRecords, enveloped ? `response_item/${kind}` : kind);
    return;
  }
  state.recognised++;
}

/** A `compacted` record: Codex replaced the history with a summary (the `message`, empty for remote compaction). */
export function readCompacted(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const summary = f.string('message');
  const history = f.present('replacement_history') ? f.array('replacement_history') : null;
  const message = newMessage(state, line, 'system', ts, [{ type: 'compaction', summary: summary ? summary : null, trigger: null, tokensBefore: null }]);
  if (history) message.annotations = { replacementHistoryItems: history.length };
  state.recognised++;
}
