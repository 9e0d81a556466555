// Pulls readable text, thinking and tool calls out of the LLM payloads ai-agent keeps (Anthropic / OpenAI JSON, HTTP and SSE captures).
import type { MessagePart } from '../../../shared/session.ts';
import { isRecord, type WarningList } from '../coerce.ts';

/** Captured bodies larger than this are not decoded: they are kept for the raw view only. */
export const MAX_CAPTURE_BYTES = 1024 * 1024;
const PREVIEW = 160;

type ToolCall = Extract<MessagePart, { type: 'tool_call' }>;

function parseMaybeJson(text: string): unknown {
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/** Tool arguments arrive as objects or as JSON text (OpenAI); text that is not JSON stays text. */
function toolInput(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? null;
  const parsed = parseMaybeJson(raw);
  return parsed === undefined ? raw : parsed;
}

function anthropicBlocks(blocks: unknown[], out: MessagePart[]): void {
  for (const b of blocks) {
    if (!isRecord(b)) continue;
    if (b.type === 'text' && typeof b.text === 'string') out.push({ type: 'text', text: b.text });
    else if (b.type === 'thinking' && typeof b.thinking === 'string') out.push({ type: 'thinking', text: b.thinking, redacted: false });
    else if (b.type === 'redacted_thinking') out.push({ type: 'thinking', text: '', redacted: true });
    else if (b.type === 'tool_use' && typeof b.name === 'string') {
      out.push({ type: 'tool_call', callId: typeof b.id === 'string' ? b.id : null, name: b.name, input: b.input ?? null });
    }
  }
}

function openAiToolCalls(calls: unknown[], out: MessagePart[]): void {
  for (const c of calls) {
    if (!isRecord(c)) continue;
    const fn = isRecord(c.function) ? c.function : c;
    if (typeof fn.name !== 'string') continue;
    out.push({ type: 'tool_call', callId: typeof c.id === 'string' ? c.id : null, name: fn.name, input: toolInput(fn.arguments ?? fn.input) });
  }
}

/**
 * The assistant's reply inside a response payload: a plain string, an Anthropic message
 * (`content[]` blocks), an OpenAI completion (`choices[].message`) or ai-agent's own
 * `{content?, tool_calls[{name, arguments}]}`. Returns [] when the shape is not one of these.
 */
export function replyParts(payload: unknown, depth = 0): MessagePart[] {
  if (typeof payload === 'string') {
    const parsed = depth === 0 ? parseMaybeJson(payload) : undefined;
    const inner = parsed === undefined ? [] : replyParts(parsed, depth + 1);
    return inner.length ? inner : payload.trim() ? [{ type: 'text', text: payload }] : [];
  }
  const out: MessagePart[] = [];
  if (Array.isArray(payload)) {
    anthropicBlocks(payload, out);
    return out;
  }
  if (!isRecord(payload)) return out;
  const choice = Array.isArray(payload.choices) ? payload.choices[0] : undefined;
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : payload;
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (typeof reasoning === 'string' && reasoning) out.push({ type: 'thinking', text: reasoning, redacted: false });
  if (Array.isArray(message.content)) anthropicBlocks(message.content, out);
  else if (typeof message.content === 'string' && message.content) out.push({ type: 'text', text: message.content });
  else if (typeof message.text === 'string' && message.text) out.push({ type: 'text', text: message.text });
  if (Array.isArray(message.tool_calls)) openAiToolCalls(message.tool_calls, out);
  return out;
}

/** Anthropic and OpenAI streaming events folded back into text, thinking and tool calls. */
export function sseReplyParts(text: string): MessagePart[] {
  let reply = '';
  let thinking = '';
  const calls = new Map<string, { id: string | null; name: string; args: string }>();
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const event = parseMaybeJson(line.slice(5));
    if (!isRecord(event)) continue;
    const delta = isRecord(event.delta) ? event.delta : null;
    const block = isRecord(event.content_block) ? event.content_block : null;
    if (block?.type === 'tool_use' && typeof block.name === 'string') {
      calls.set(`a${String(event.index)}`, { id: typeof block.id === 'string' ? block.id : null, name: block.name, args: '' });
    }
    if (delta?.type === 'text_delta' && typeof delta.text === 'string') reply += delta.text;
    if (delta?.type === 'thinking_delta' && typeof delta.thinking === 'string') thinking += delta.thinking;
    if (delta?.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
      const call = calls.get(`a${String(event.index)}`);
      if (call) call.args += delta.partial_json;
    }
    const choice = Array.isArray(event.choices) && isRecord(event.choices[0]) ? event.choices[0] : null;
    const d = choice && isRecord(choice.delta) ? choice.delta : null;
    if (!d) continue;
    if (typeof d.content === 'string') reply += d.content;
    const r = d.reasoning_content ?? d.reasoning;
    if (typeof r === 'string') thinking += r;
    for (const tc of Array.isArray(d.tool_calls) ? d.tool_calls : []) {
      if (!isRecord(tc)) continue;
      const key = `o${String(tc.index ?? 0)}`;
      const fn = isRecord(tc.function) ? tc.function : {};
      const call = calls.get(key) ?? { id: null, name: '', args: '' };
      if (typeof tc.id === 'string') call.id = tc.id;
      if (typeof fn.name === 'string') call.name += fn.name;
      if (typeof fn.arguments === 'string') call.args += fn.arguments;
      calls.set(key, call);
    }
  }
  const parts: MessagePart[] = [];
  if (thinking) parts.push({ type: 'thinking', text: thinking, redacted: false });
  if (reply) parts.push({ type: 'text', text: reply });
  for (const c of calls.values()) {
    if (c.name) parts.push({ type: 'tool_call', callId: c.id, name: c.name, input: c.args ? toolInput(c.args) : null } satisfies ToolCall);
  }
  return parts;
}

/** Splits an HTTP capture into its start line and body (headers are dropped: they may hold secrets). */
export function splitHttp(text: string): { startLine: string | null; body: string } {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (!/^(?:HTTP\/\d|[A-Z]+ \S+ HTTP\/\d)/.test(firstLine)) return { startLine: null, body: text };
  const gap = /\r?\n\r?\n/.exec(text);
  return { startLine: firstLine, body: gap ? text.slice(gap.index + gap[0].length) : '' };
}

/** Decodes a base64 capture body, refusing oversized ones with a warning. */
export function decodeCapture(body: string, warnings: WarningList, what: string): string | null {
  if (Math.floor((body.length * 3) / 4) > MAX_CAPTURE_BYTES) {
    warnings.add('payload_too_large', `A captured ${what} body is larger than ${MAX_CAPTURE_BYTES / (1024 * 1024)} MiB; it was not decoded.`);
    return null;
  }
  return Buffer.from(body, 'base64').toString('utf8');
}

/** The reply inside a captured HTTP or SSE response body. */
export function captureReplyParts(text: string, format: string | null): MessagePart[] {
  const { body } = splitHttp(text);
  if (format === 'sse' || /^(?:event|data):/m.test(body)) return sseReplyParts(body);
  const parsed = parseMaybeJson(body);
  return parsed === undefined ? [] : replyParts(parsed, 1);
}

/** A short, bounded description of an inline payload for operation details. */
export function describeInline(payload: unknown): Record<string, unknown> | null {
  if (payload === undefined || payload === null) return null;
  if (typeof payload === 'string') {
    return { type: 'text', chars: payload.length, preview: payload.length > PREVIEW ? `${payload.slice(0, PREVIEW - 1)}…` : payload };
  }
  if (Array.isArray(payload)) return { type: 'json', items: payload.length };
  if (isRecord(payload)) return { type: 'json', keys: Object.keys(payload).slice(0, 12), chars: JSON.stringify(payload).length };
  return { type: 'json', value: payload };
}

/** Tool output as text: strings verbatim, anything else as JSON. */
export function outputText(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  if (payload === undefined || payload === null) return '';
  return JSON.stringify(payload, null, 2);
}
