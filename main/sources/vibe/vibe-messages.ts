// Turns Vibe's messages.jsonl records ({role, content, reasoning_content?, tool_calls?, tool_call_id?, images?}) into canonical messages.
import { pathToFileURL } from 'node:url';
import type { Message, MessagePart, MessageRole } from '../../../shared/session.ts';
import { elementFields, type Fields, isRecord, limitDepth, type WarningList } from '../coerce.ts';
import { wellFormed } from '../claude-code/claude-code-blocks.ts';
import type { JsonLine } from '../jsonl.ts';

/** Vibe wraps a failed tool's output in `<tool_error>…</tool_error>` (vibe/core/utils/tags.py). */
const TOOL_ERROR = /^\s*<tool_error>/;
const ROLES = new Set(['user', 'assistant', 'tool', 'system']);

/** Content is a string; older transcripts may hold a list of `{text}` parts, which Vibe itself joins with newlines. */
function contentText(value: unknown, warnings: WarningList, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return wellFormed(value, warnings);
  if (Array.isArray(value)) {
    return wellFormed(
      value.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : JSON.stringify(limitDepth(p, warnings, field)))).join('\n'),
      warnings,
    );
  }
  warnings.wrongType(field, 'a string', value);
  return null;
}

/** Arguments arrive as a JSON string (OpenAI wire shape) or an object; a string that is not JSON is kept as text. */
function argumentsOf(fn: Fields): unknown {
  const raw = fn.raw.arguments;
  if (typeof raw !== 'string') return fn.value('arguments') ?? null;
  if (raw.trim() === '') return {};
  try {
    return limitDepth(JSON.parse(raw), fn.warnings, fn.name('arguments'));
  } catch {
    fn.warnings.add('unparsable_arguments', 'Some tool calls have arguments that are not valid JSON; they are shown as text.');
    return raw;
  }
}

function toolCallParts(f: Fields): MessagePart[] {
  const calls = f.present('tool_calls') ? (f.array('tool_calls') ?? []) : [];
  return calls.flatMap((raw) => {
    const call = elementFields(raw, f.name('tool_calls'), f.warnings);
    if (!call) return [];
    const fn = call.object('function');
    const name = fn?.string('name') ?? 'tool';
    return [{ type: 'tool_call' as const, callId: call.string('id'), name, input: fn ? argumentsOf(fn) : null }];
  });
}

/** Images: `{source: {kind: file, path} | {kind: inline, data}, mime_type}` or the legacy flat `{path | data}`. */
function imageParts(f: Fields): MessagePart[] {
  const images = f.present('images') ? (f.array('images') ?? []) : [];
  return images.flatMap((raw) => {
    const image = elementFields(raw, f.name('images'), f.warnings);
    if (!image) return [];
    const source = image.present('source') ? image.object('source') : image;
    const path = source?.string('path') ?? null;
    const data = source?.string('data') ?? null;
    return [{ type: 'image' as const, mediaType: image.string('mime_type'), data, url: path ? pathToFileURL(path).href : null }];
  });
}

export interface VibeConversation {
  messages: Message[];
  unknownRoles: Map<string, number>;
  /** Records that held nothing to show (no content, no tool call, no image). */
  empty: number;
}

/** Converts every record in file order; the raw view finds each message by its line. */
export function readVibeMessages(records: readonly JsonLine[], warnings: WarningList): VibeConversation {
  const out: VibeConversation = { messages: [], unknownRoles: new Map(), empty: 0 };
  const ids = new Set<string>();
  for (const { value, line } of records) {
    const f = elementFields(value, 'messages.jsonl', warnings);
    if (!f) continue;
    const role = f.string('role');
    if (role === null || !ROLES.has(role)) {
      const label = role ?? 'without a role';
      out.unknownRoles.set(label, (out.unknownRoles.get(label) ?? 0) + 1);
      continue;
    }
    const text = contentText(f.raw.content, warnings, `line ${line} content`);
    const parts: MessagePart[] = [];
    const reasoning = contentText(f.raw.reasoning_content, warnings, `line ${line} reasoning_content`);
    if (reasoning) parts.push({ type: 'thinking', text: reasoning, redacted: false });
    if (role === 'tool') {
      parts.push({ type: 'tool_result', callId: f.string('tool_call_id'), output: text ?? '', isError: text !== null && TOOL_ERROR.test(text) });
    } else if (text) {
      parts.push({ type: 'text', text });
    }
    parts.push(...imageParts(f), ...toolCallParts(f));
    if (parts.length === 0) {
      out.empty++;
      continue;
    }
    const injected = f.raw.injected === true;
    let id = f.string('message_id') ?? `line-${line}`;
    if (ids.has(id)) id = `${id}#${line}`;
    ids.add(id);
    const message: Message = {
      id,
      // Injected records (compaction context, middleware notes) are Vibe's words under a user role.
      role: (injected || role === 'system' ? 'system' : role) as MessageRole,
      timestamp: null,
      model: f.present('model') ? f.string('model') : null,
      usage: null,
      cost: null,
      parts,
      agentId: null,
      origin: { fileIndex: 0, line, pointer: null },
    };
    if (injected) message.annotations = { injected: true, note: 'added by Vibe, not typed by the user' };
    if (role === 'tool' && f.present('name')) message.annotations = { tool: f.string('name') };
    out.messages.push(message);
  }
  return out;
}
