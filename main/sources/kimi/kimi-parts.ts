// Turns Kimi content parts (text, think, image_url, audio/video) and tool-call arguments into canonical parts.
import type { MessagePart } from '../../../shared/session.ts';
import { isRecord, kindOfJson, limitDepth, type WarningList } from '../coerce.ts';

export type BlockCounts = Map<string, number>;

function urlOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return isRecord(value) && typeof value.url === 'string' ? value.url : null;
}

/** An image given as a URL; a `data:` URL carries the bytes themselves. */
function imagePart(url: string | null): MessagePart {
  const data = url ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
  if (data) return { type: 'image', mediaType: data[1] ?? null, data: data[2] ?? null, url: null };
  return { type: 'image', mediaType: null, data: null, url };
}

/** One content part; null (and counted) when its type is not known. */
export function kimiPart(part: Record<string, unknown>, unknown: BlockCounts): MessagePart | null {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' && part.text !== '' ? { type: 'text', text: part.text } : null;
    case 'think': {
      const text = typeof part.think === 'string' ? part.think : typeof part.text === 'string' ? part.text : '';
      // An encrypted block keeps only its ciphertext: the model reasoned, the words are not in the file.
      return text || part.encrypted ? { type: 'thinking', text, redacted: !text && !!part.encrypted } : null;
    }
    case 'image_url':
      return imagePart(urlOf(part.image_url));
    case 'image':
      return imagePart(urlOf(part.url) ?? urlOf(part.source));
    case 'audio_url':
    case 'video_url': {
      const url = urlOf(part[part.type]);
      return { type: 'text', text: `[${part.type === 'audio_url' ? 'audio' : 'video'}${url && !url.startsWith('data:') ? `: ${url}` : ''}]` };
    }
    default: {
      const type = typeof part.type === 'string' ? part.type : 'part without a type';
      unknown.set(type, (unknown.get(type) ?? 0) + 1);
      return null;
    }
  }
}

/** The parts of a `content` value: a plain string, or a list of parts. */
export function kimiParts(content: unknown, field: string, warnings: WarningList, unknown: BlockCounts): MessagePart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) {
    if (content !== undefined && content !== null) warnings.wrongType(field, 'a string or a list of parts', content);
    return [];
  }
  const parts: MessagePart[] = [];
  for (const part of content) {
    if (!isRecord(part)) {
      warnings.add('wrong_type', `A part of "${field}" is ${kindOfJson(part)} instead of an object; it was skipped.`);
      continue;
    }
    const read = kimiPart(part, unknown);
    if (read) parts.push(read);
  }
  return parts;
}

/** Tool arguments: kimi-cli keeps them as a JSON string, Kimi Code as an object; unparsable text is kept as text. */
export function toolInput(args: unknown, warnings: WarningList): unknown {
  if (typeof args === 'string') {
    if (args.trim() === '') return {};
    try {
      return limitDepth(JSON.parse(args), warnings, 'arguments');
    } catch {
      return args;
    }
  }
  return limitDepth(args ?? null, warnings, 'arguments');
}

/** A tool's output: a string, or parts whose text is joined. */
export function outputText(output: unknown, warnings: WarningList): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.flatMap((p) => (isRecord(p) && typeof p.text === 'string' ? [p.text] : [])).join('\n');
  if (output === undefined || output === null) return '';
  return JSON.stringify(limitDepth(output, warnings, 'output'));
}

/** OpenAI-style calls (`{id, function: {name, arguments}}`) and Kimi Code's flat `{id, name, arguments}`. */
export function toolCallPart(call: unknown, warnings: WarningList): MessagePart | null {
  if (!isRecord(call)) return null;
  const fn = isRecord(call.function) ? call.function : call;
  const name = typeof fn.name === 'string' ? fn.name : null;
  if (name === null) return null;
  return { type: 'tool_call', callId: typeof call.id === 'string' ? call.id : null, name, input: toolInput(fn.arguments ?? call.args, warnings) };
}
