// Copilot CLI conversation events: user prompts (with attachments), assistant replies with reasoning and tool requests.
import { warnMissingContent } from '../missing-content.ts';
import type { Message, MessagePart } from '../../../shared/session.ts';
import { elementFields, isRecord, limitDepth, sumCounts, type Fields } from '../coerce.ts';
import { addMessage, bump, type CopilotState, type EventCtx } from './copilot-state.ts';

/** Prompts the CLI injects for a skill rather than the user typing them (agentsview drops them; here they are meta). */
function isSkillContext(data: Fields, content: string): boolean {
  const source = typeof data.raw.source === 'string' ? data.raw.source : '';
  return source.startsWith('skill-') || content.trimStart().startsWith('<skill-context');
}

/** One line per attachment: files, folders, selections, GitHub references... by the name the CLI showed. */
function attachmentParts(data: Fields): MessagePart[] {
  const parts: MessagePart[] = [];
  for (const raw of data.present('attachments') ? (data.array('attachments') ?? []) : []) {
    const a = elementFields(raw, data.name('attachments'), data.warnings);
    if (!a) continue;
    const type = a.string('type') ?? 'attachment';
    const label = a.string('displayName') ?? a.string('path') ?? a.string('url') ?? a.string('title') ?? '';
    const path = a.string('path');
    parts.push({ type: 'text', text: `[${type}: ${label}${path && path !== label ? ` (${path})` : ''}]` });
  }
  return parts;
}

export function onUserMessage(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const content = data.string('content') ?? data.string('transformedContent') ?? '';
  const parts: MessagePart[] = content ? [{ type: 'text', text: content }] : [];
  parts.push(...attachmentParts(data));
  if (!parts.length) {
    warnMissingContent(state.warnings, 'A Copilot user.message event', { found: 'no text or attachments' });
    return;
  }
  const annotations: Record<string, unknown> = {};
  if (isSkillContext(data, content)) annotations.isMeta = true;
  if (data.raw.delivery === 'queued' || data.raw.delivery === 'steering') annotations.queued = true;
  const mode = data.string('agentMode');
  if (mode) annotations.agentMode = mode;
  addMessage(state, ev, 'user', parts, { annotations });
}

/** Tool request arguments arrive as an object or as a JSON string (older CLIs): both become the call's input. */
function argumentsOf(raw: unknown, fields: Fields): unknown {
  if (typeof raw === 'string') {
    try {
      return limitDepth(JSON.parse(raw), fields.warnings, fields.name('arguments'));
    } catch {
      return raw;
    }
  }
  return raw === undefined ? null : limitDepth(raw, fields.warnings, fields.name('arguments'));
}

function toolRequestParts(data: Fields): MessagePart[] {
  const parts: MessagePart[] = [];
  for (const raw of data.present('toolRequests') ? (data.array('toolRequests') ?? []) : []) {
    const r = elementFields(raw, data.name('toolRequests'), data.warnings);
    if (!r) continue;
    parts.push({ type: 'tool_call', callId: r.string('toolCallId'), name: r.string('name') ?? 'unknown', input: argumentsOf(r.raw.arguments, r) });
  }
  return parts;
}

/** The `intentionSummary` of each tool request ("List the directory"), placed with its call once the run is known (placeIntentions). */
function noteIntentions(state: CopilotState, data: Fields, message: Message): void {
  for (const raw of data.present('toolRequests') ? (data.array('toolRequests') ?? []) : []) {
    if (!isRecord(raw) || typeof raw.toolCallId !== 'string' || typeof raw.intentionSummary !== 'string') continue;
    if (raw.intentionSummary.trim() !== '') state.intentions.set(raw.toolCallId, { text: raw.intentionSummary, message });
  }
}

/**
 * A call's intention goes to the detail of the operation that ran it (shown with the run, found by search); a call
 * that never ran keeps it on the message that requested it (`intentions`, by call id).
 */
export function placeIntentions(state: CopilotState): void {
  for (const [callId, { text, message }] of state.intentions) {
    const op = state.toolOps.get(callId);
    if (op) {
      (op.detail as Record<string, unknown>).intention = text;
      continue;
    }
    const notes = (message.annotations ?? {}) as Record<string, unknown>;
    message.annotations = { ...notes, intentions: { ...((notes.intentions as Record<string, string> | undefined) ?? {}), [callId]: text } };
  }
}

const threadOf = (ev: EventCtx) => ev.agentId ?? '';

/** `assistant.reasoning` events: held until the assistant.message of the same thread that follows them. */
export function onReasoning(state: CopilotState, ev: EventCtx): void {
  const content = ev.data.string('content');
  if (!content) return;
  const list = state.pendingReasoning.get(threadOf(ev)) ?? [];
  list.push(content);
  state.pendingReasoning.set(threadOf(ev), list);
}

function reasoningParts(state: CopilotState, ev: EventCtx): MessagePart[] {
  const { data } = ev;
  const held = state.pendingReasoning.get(threadOf(ev)) ?? [];
  state.pendingReasoning.delete(threadOf(ev));
  const inline = data.string('reasoningText');
  const texts = inline && !held.includes(inline) ? [...held, inline] : held;
  if (texts.length) return texts.map((text) => ({ type: 'thinking', text, redacted: false }));
  // Encrypted reasoning (OpenAI models, reasoningOpaque): the model reasoned, the text is not readable.
  const sealed = [data.raw.encryptedContent, data.raw.reasoningOpaque].some((v) => typeof v === 'string' && v !== '');
  return sealed ? [{ type: 'thinking', text: '', redacted: true }] : [];
}

export function onAssistantMessage(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const content = data.string('content') ?? '';
  const parts: MessagePart[] = [...reasoningParts(state, ev)];
  if (content) parts.push({ type: 'text', text: content });
  parts.push(...toolRequestParts(data));
  const model = data.string('model') ?? state.model;
  const outputTokens = data.number('outputTokens');
  if (outputTokens !== null && outputTokens > 0) {
    const tail = state.tailOutput.get(model ?? '') ?? { output: 0, ts: null, line: ev.line };
    state.tailOutput.set(model ?? '', { output: sumCounts(tail.output, outputTokens), ts: ev.ts ?? tail.ts, line: ev.line });
  }
  if (!parts.length) {
    warnMissingContent(state.warnings, 'A Copilot assistant.message event', { found: 'no text, reasoning or tool requests' });
    return;
  }
  const annotations: Record<string, unknown> = {};
  if (outputTokens !== null) annotations.outputTokens = outputTokens;
  const phase = data.string('phase');
  if (phase) annotations.phase = phase;
  const message = addMessage(state, ev, 'assistant', parts, { model, annotations });
  noteIntentions(state, data, message);
  if (model && ev.agentId === null) bump(state.models, model);
}

/** Reasoning no assistant.message took (the session ended first) becomes a message of its own. */
export function flushReasoning(state: CopilotState, ev: EventCtx): void {
  for (const [thread, texts] of state.pendingReasoning) {
    addMessage(
      state,
      { ...ev, agentId: thread || null },
      'assistant',
      texts.map((text) => ({ type: 'thinking', text, redacted: false })),
      { idSuffix: ':reasoning' },
    );
  }
  state.pendingReasoning.clear();
}
