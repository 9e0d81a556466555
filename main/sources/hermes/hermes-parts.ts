// Turns the pieces of a Hermes (OpenAI-style) message into canonical parts: content, reasoning, tool calls.
import type { MessagePart } from '../../../shared/session.ts';
import { describeJson, isRecord, limitDepth, type WarningList } from '../coerce.ts';

const TEXT_TYPES = new Set(['text', 'input_text', 'output_text']);

/** Counts of content item types this reader does not know, reported once per session. */
export type UnknownCounts = Map<string, number>;

function bump(counts: UnknownCounts, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** `data:<type>;base64,<data>` embeds the image; any other URL is a link. */
function imageFromUrl(url: string): MessagePart {
  const match = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(url);
  if (match) return { type: 'image', mediaType: match[1] ?? null, data: match[2] ? (match[3] ?? '') : null, url: match[2] ? null : url };
  return { type: 'image', mediaType: null, data: null, url };
}

/** `content`: a string, or a list of text and image items (multimodal turns). */
export function contentParts(raw: unknown, field: string, warnings: WarningList, unknown: UnknownCounts): MessagePart[] {
  if (typeof raw === 'string') return raw.trim() ? [{ type: 'text', text: raw }] : [];
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) {
    warnings.wrongType(field, 'a string or a list of content items', raw);
    return [];
  }
  const parts: MessagePart[] = [];
  for (const item of raw) {
    if (typeof item === 'string') {
      if (item.trim()) parts.push({ type: 'text', text: item });
    } else if (!isRecord(item)) {
      warnings.wrongType(`${field}[]`, 'an object', item);
    } else if (typeof item.type === 'string' && TEXT_TYPES.has(item.type) && typeof item.text === 'string') {
      if (item.text.trim()) parts.push({ type: 'text', text: item.text });
    } else if (item.type === 'image_url' || item.type === 'input_image') {
      const ref = isRecord(item.image_url) ? item.image_url.url : item.image_url;
      if (typeof ref === 'string') parts.push(imageFromUrl(ref));
      else warnings.wrongType(`${field}[].image_url`, 'a URL', ref);
    } else {
      bump(unknown, typeof item.type === 'string' ? item.type : `item whose type is ${describeJson(item.type)}`);
    }
  }
  return parts;
}

/** Plain text of a tool's output: a string, or the text items of a list. */
export function outputText(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  if (raw === null || raw === undefined) return '';
  if (Array.isArray(raw)) {
    const texts = raw.map((item) => (typeof item === 'string' ? item : isRecord(item) && typeof item.text === 'string' ? item.text : null));
    if (texts.every((t) => t !== null)) return texts.join('\n');
  }
  return JSON.stringify(raw);
}

/** Readable text of a reasoning value: a string, `{text}`/`{summary}` objects, or lists of them (reasoning_details, codex items). */
function reasoningText(raw: unknown): string {
  if (typeof raw === 'string') return raw.trim();
  if (Array.isArray(raw)) return raw.map(reasoningText).filter(Boolean).join('\n\n');
  if (!isRecord(raw)) return '';
  return [raw.text, raw.summary, raw.content].map(reasoningText).find(Boolean) ?? '';
}

/** True when a reasoning value carries only encrypted content (the provider withheld the text). */
function encryptedOnly(raw: unknown): boolean {
  const items = Array.isArray(raw) ? raw : [raw];
  return items.some((i) => isRecord(i) && (typeof i.encrypted_content === 'string' || typeof i.data === 'string'));
}

/** One thinking part from the reasoning fields Hermes keeps (the first that has text; repeats of it are the same thought). */
export function thinkingParts(values: unknown[]): MessagePart[] {
  const texts = [...new Set(values.map(reasoningText).filter(Boolean))];
  if (texts.length) return texts.map((text) => ({ type: 'thinking', text, redacted: false }));
  return values.some(encryptedOnly) ? [{ type: 'thinking', text: '', redacted: true }] : [];
}

/** `arguments` as Hermes stores it: a JSON string (parsed when it is JSON), or an object already. */
function toolInput(raw: unknown, warnings: WarningList, field: string): unknown {
  if (typeof raw !== 'string') return limitDepth(raw ?? {}, warnings, field);
  if (!raw.trim()) return {};
  try {
    return limitDepth(JSON.parse(raw), warnings, field);
  } catch {
    return raw; // a model's malformed arguments are shown as they were sent
  }
}

/** `tool_calls`: OpenAI-style `{id, type, function: {name, arguments}}`, or flat `{id, name, arguments|input}`. */
export function toolCallParts(raw: unknown, field: string, warnings: WarningList): MessagePart[] {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) {
    warnings.wrongType(field, 'a list of tool calls', raw);
    return [];
  }
  const parts: MessagePart[] = [];
  for (const call of raw) {
    if (!isRecord(call)) {
      warnings.wrongType(`${field}[]`, 'an object', call);
      continue;
    }
    const fn = isRecord(call.function) ? call.function : call;
    const name = typeof fn.name === 'string' && fn.name ? fn.name : null;
    if (name === null) {
      warnings.add('missing_field', `A tool call in "${field}" has no name; it was skipped.`);
      continue;
    }
    const args = fn.arguments ?? call.input;
    parts.push({
      type: 'tool_call',
      callId: typeof call.id === 'string' && call.id ? call.id : null,
      name,
      input: toolInput(args, warnings, `${field}[].arguments`),
    });
  }
  return parts;
}
