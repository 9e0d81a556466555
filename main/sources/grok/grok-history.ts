// Turns Grok's chat_history.jsonl rows into canonical messages: the typed rows of chat format 1 and the legacy role rows.
import type { Message, MessagePart, MessageRole } from '../../../shared/session.ts';
import { elementFields, type Fields, isRecord, limitDepth, type WarningList } from '../coerce.ts';
import { wellFormed } from '../claude-code/claude-code-blocks.ts';
import type { JsonLine } from '../jsonl.ts';

export interface GrokHistory {
  messages: Message[];
  systemPrompt: string | null;
  /** Per prompt turn (a user prompt and what followed it), the index of its last assistant message, or -1. */
  turnEnds: number[];
  unknownTypes: Map<string, number>;
  empty: number;
}

const BASE64 = /^[A-Za-z0-9+/=\s]+$/;

/** `data:<type>;base64,<bytes>` URLs become embedded images; the fixtures scrub the bytes, which are then left out. */
function imagePart(url: string | null): MessagePart {
  const m = url ? /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(url) : null;
  if (!m) return { type: 'image', mediaType: null, data: null, url: url && /^https?:/i.test(url) ? url : null };
  const data = m[2] && BASE64.test(m[3] ?? '') ? (m[3] ?? null) : null;
  return { type: 'image', mediaType: m[1] ?? null, data, url: null };
}

/** Content as parts: a string, or a list of `{type: text|image|input_text, ...}`. */
function contentParts(value: unknown, f: Fields): MessagePart[] {
  const { warnings } = f;
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.trim() === '' ? [] : [{ type: 'text', text: wellFormed(value, warnings) }];
  if (!Array.isArray(value)) {
    warnings.wrongType(f.name('content'), 'a string or a list of parts', value);
    return [];
  }
  return value.flatMap((raw): MessagePart[] => {
    if (!isRecord(raw)) return [];
    if (typeof raw.text === 'string' && raw.type !== 'image') return raw.text.trim() === '' ? [] : [{ type: 'text', text: wellFormed(raw.text, warnings) }];
    if (raw.type === 'image' || raw.type === 'image_url') {
      const url = typeof raw.url === 'string' ? raw.url : isRecord(raw.image_url) && typeof raw.image_url.url === 'string' ? raw.image_url.url : null;
      return [imagePart(url)];
    }
    return [{ type: 'text', text: JSON.stringify(limitDepth(raw, warnings, f.name('content'))) }];
  });
}

function partsText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value.flatMap((p) => (isRecord(p) && typeof p.text === 'string' && p.text.trim() ? [p.text.trim()] : [])).join('\n\n');
}

/** Readable reasoning: `summary[].text` (and `content[].text`); `encrypted_content` is opaque. */
function reasoningPart(f: Fields): MessagePart | null {
  const text = [partsText(f.raw.summary), partsText(f.raw.content)].filter(Boolean).join('\n\n');
  if (text) return { type: 'thinking', text: wellFormed(text, f.warnings), redacted: false };
  return typeof f.raw.encrypted_content === 'string' ? { type: 'thinking', text: '', redacted: true } : null;
}

/** Arguments are a JSON string (OpenAI style); one that does not parse is kept as text. */
function argumentsOf(value: unknown, f: Fields): unknown {
  if (typeof value !== 'string') return limitDepth(value ?? null, f.warnings, f.name('arguments'));
  if (value.trim() === '') return {};
  try {
    return limitDepth(JSON.parse(value), f.warnings, f.name('arguments'));
  } catch {
    f.warnings.add('unparsable_arguments', 'Some tool calls have arguments that are not valid JSON; they are shown as text.');
    return value;
  }
}

/** `tool_calls`: `{id, name, arguments}` (chat format 1) or `{id, function: {name, arguments}}` (legacy). */
function toolCalls(f: Fields): MessagePart[] {
  const list = f.present('tool_calls') ? (f.array('tool_calls') ?? []) : [];
  return list.flatMap((raw): MessagePart[] => {
    const call = elementFields(raw, f.name('tool_calls'), f.warnings);
    if (!call) return [];
    const fn = call.present('function') ? call.object('function') : null;
    const name = call.string('name') ?? fn?.string('name') ?? 'tool';
    const args = call.present('arguments') ? call.raw.arguments : fn?.raw.arguments;
    return [{ type: 'tool_call', callId: call.string('id') ?? call.string('tool_call_id'), name, input: argumentsOf(args, call) }];
  });
}

/** A server-side tool (web search, X search, code interpreter): its call and what the record says it found. */
function backendParts(kind: Fields, fallbackName = 'backend_tool'): MessagePart[] {
  const name = kind.string('tool_type') ?? fallbackName;
  const callId = kind.string('id');
  // A code interpreter's call is its code (and container); what it printed is in `outputs` (logs, errors).
  const code = kind.string('code');
  const action = kind.present('action')
    ? kind.value('action')
    : kind.present('input')
      ? kind.value('input')
      : code !== null
        ? { code, ...(kind.string('container_id') ? { container_id: kind.string('container_id') } : {}) }
        : null;
  const sources =
    isRecord(action) && Array.isArray(action.sources) ? action.sources.flatMap((s) => (isRecord(s) && typeof s.url === 'string' ? [s.url] : [])) : [];
  const printed = (kind.present('outputs') ? (kind.array('outputs') ?? []) : []).flatMap((o) =>
    isRecord(o) ? [o.logs, o.error, o.text].filter((t): t is string => typeof t === 'string' && t !== '') : [],
  );
  const status = kind.string('status');
  const output = printed.length
    ? printed.join('\n')
    : sources.length
      ? sources.join('\n')
      : status
        ? `(${status}; ${code !== null ? 'no output recorded' : 'no sources recorded'})`
        : '';
  return [
    { type: 'tool_call', callId, name, input: action },
    { type: 'tool_result', callId, output, isError: status === 'failed' ? true : null },
  ];
}

/**
 * An answer's `raw_output` items (older Grok Build): its reasoning, and the server-side tool calls it made (each
 * `<tool>_call` item), unless a backend_tool_call row already showed that call.
 */
function rawOutput(f: Fields, shown: ReadonlySet<string>): { thinking: MessagePart[]; calls: MessagePart[] } {
  const out: { thinking: MessagePart[]; calls: MessagePart[] } = { thinking: [], calls: [] };
  const items = f.present('raw_output') ? (f.array('raw_output') ?? []) : [];
  for (const raw of items) {
    const item = elementFields(raw, f.name('raw_output'), f.warnings);
    const type = item?.string('type') ?? null;
    if (!item || type === null) continue;
    if (type === 'reasoning') {
      const part = reasoningPart(item);
      if (part) out.thinking.push(part);
    } else if (type.endsWith('_call') && !shown.has(item.string('id') ?? '')) {
      // A raw item names its tool by its type (`web_search_call`), not by a tool_type.
      out.calls.push(...backendParts(item, type.slice(0, -'_call'.length)));
    }
  }
  return out;
}

/** A row's kind: the typed `type` of chat format 1, or the legacy `role`. */
function kindOf(f: Fields): string | null {
  const type = f.present('type') ? f.string('type') : null;
  if (type) return type;
  const role = f.present('role') ? f.string('role') : null;
  return role === 'tool' ? 'tool_result' : role;
}

/** Reads every row in order; `fileIndex` is chat_history.jsonl's place in the session's source files. */
export function readGrokHistory(records: readonly JsonLine[], fileIndex: number, warnings: WarningList): GrokHistory {
  const out: GrokHistory = { messages: [], systemPrompt: null, turnEnds: [], unknownTypes: new Map(), empty: 0 };
  let thinking: MessagePart[] = [];
  // Server-side tool calls a backend_tool_call row showed, by id: an answer's raw_output repeats them.
  const backendIds = new Set<string>();
  let thinkingLine = 0;
  const push = (line: number, role: MessageRole, parts: MessagePart[], extra: Partial<Message> = {}): void => {
    if (parts.length === 0) {
      out.empty++;
      return;
    }
    if (role === 'assistant' && out.turnEnds.length) out.turnEnds[out.turnEnds.length - 1] = out.messages.length;
    out.messages.push({
      id: `line-${line}`,
      role,
      timestamp: null,
      model: null,
      usage: null,
      cost: null,
      parts,
      agentId: null,
      origin: { fileIndex, line, pointer: null },
      ...extra,
    });
  };
  // Reasoning rows precede the reply they belong to; reasoning no reply followed stands alone.
  const flushThinking = () => {
    if (thinking.length) push(thinkingLine, 'assistant', thinking);
    thinking = [];
  };
  for (const { value, line } of records) {
    const f = elementFields(value, 'chat_history', warnings);
    if (!f) continue;
    const kind = kindOf(f);
    switch (kind) {
      case 'system': {
        const text = typeof f.raw.content === 'string' ? f.raw.content : partsText(f.raw.content);
        if (out.systemPrompt === null) out.systemPrompt = wellFormed(text, warnings);
        else push(line, 'system', contentParts(f.raw.content, f));
        break;
      }
      case 'user': {
        flushThinking();
        const reason = f.present('synthetic_reason') ? f.string('synthetic_reason') : null;
        const notes: Record<string, unknown> = {};
        if (f.present('prior_turn_interrupt')) notes.note = `the turn before was interrupted (${f.string('prior_turn_interrupt') ?? 'unknown'})`;
        // Injected context (environment, project instructions) is Grok's, under a user role; an interjection is typed mid-turn.
        if (reason !== null && reason !== 'interjection') {
          push(line, 'system', contentParts(f.raw.content, f), { annotations: { ...notes, syntheticReason: reason, note: `added by Grok (${reason})` } });
          break;
        }
        if (reason === null) out.turnEnds.push(-1);
        push(
          line,
          'user',
          contentParts(f.raw.content, f),
          Object.keys(notes).length || reason ? { annotations: { ...notes, ...(reason ? { interjection: true } : {}) } } : {},
        );
        break;
      }
      case 'reasoning': {
        const part = reasoningPart(f);
        if (part && thinking.length === 0) thinkingLine = line;
        if (part) thinking.push(part);
        break;
      }
      case 'assistant': {
        const inline = f.present('reasoning_content') ? f.string('reasoning_content') : null;
        // Older rows carry the answer's reasoning on the row itself (`reasoning: {text}`), which stands for any
        // reasoning row before it, or the model's raw output items (reasoning, server-side tool calls).
        const own = isRecord(f.raw.reasoning) && typeof f.raw.reasoning.text === 'string' ? f.raw.reasoning.text : null;
        if (own) thinking = [{ type: 'thinking', text: wellFormed(own, warnings), redacted: false }];
        const raw = rawOutput(f, backendIds);
        if (raw.calls.length) push(line, 'assistant', raw.calls);
        const parts = [
          ...thinking,
          ...raw.thinking,
          ...(inline ? [{ type: 'thinking' as const, text: wellFormed(inline, warnings), redacted: false }] : []),
          ...contentParts(f.raw.content, f),
          ...toolCalls(f),
        ];
        thinking = [];
        push(line, 'assistant', parts, { model: f.present('model_id') ? f.string('model_id') : null });
        break;
      }
      case 'tool_result': {
        flushThinking();
        const images = Array.isArray(f.raw.images) ? f.raw.images.filter((u): u is string => typeof u === 'string').map(imagePart) : [];
        const content = f.raw.content;
        const output =
          typeof content === 'string'
            ? content
            : partsText(content) || (content == null ? '' : JSON.stringify(limitDepth(content, warnings, f.name('content'))));
        push(line, 'tool', [{ type: 'tool_result', callId: f.string('tool_call_id'), output: wellFormed(output, warnings), isError: null }, ...images]);
        break;
      }
      case 'backend_tool_call': {
        const payload = f.present('kind') ? f.object('kind') : f;
        const parts = payload ? backendParts(payload) : [];
        const id = payload?.string('id');
        if (id) backendIds.add(id);
        push(line, 'assistant', [...thinking, ...parts]);
        thinking = [];
        break;
      }
      default: {
        const label = kind ?? 'without a type';
        out.unknownTypes.set(label, (out.unknownTypes.get(label) ?? 0) + 1);
      }
    }
  }
  flushThinking();
  return out;
}
