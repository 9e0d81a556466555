// Turns a Pi message's `content` (a string, or text / thinking / toolCall / toolResult / image blocks) into canonical parts.
import type { MessagePart } from '../../../shared/session.ts';
import { isRecord, kindOfJson, limitDepth, type WarningList } from '../coerce.ts';

/** Block types seen but not understood, counted, so each is reported once with its count. */
export type BlockCounts = Map<string, number>;

function imagePart(block: Record<string, unknown>): MessagePart {
  const mediaType = typeof block.mimeType === 'string' ? block.mimeType : typeof block.mediaType === 'string' ? block.mediaType : null;
  const data = typeof block.data === 'string' ? block.data : null;
  const url = typeof block.url === 'string' ? block.url : null;
  return { type: 'image', mediaType, data, url };
}

function blockPart(block: Record<string, unknown>, field: string, warnings: WarningList, unknown: BlockCounts): MessagePart | null {
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') return { type: 'text', text: block.text };
      warnings.wrongType(`${field}[].text`, 'a string', block.text);
      return null;
    case 'thinking': {
      const text = typeof block.thinking === 'string' ? block.thinking : '';
      // A redacted block keeps only its signature; the block still says the model reasoned here.
      return { type: 'thinking', text, redacted: block.redacted === true };
    }
    case 'toolCall':
      return {
        type: 'tool_call',
        callId: typeof block.id === 'string' ? block.id : null,
        name: typeof block.name === 'string' ? block.name : 'tool',
        // Some OpenClaw tools write the arguments under "input" too, or only there.
        input: limitDepth(block.arguments ?? block.input ?? null, warnings, `${field}[].arguments`),
      };
    case 'toolResult': {
      // OpenClaw puts a tool's output in a toolResult block of its toolResult message: its text, or its content.
      const text = typeof block.text === 'string' ? block.text : typeof block.content === 'string' ? block.content : null;
      if (text !== null) return { type: 'text', text };
      if (Array.isArray(block.content)) {
        const inner = contentParts(block.content, `${field}[].content`, warnings, unknown);
        const joined = inner.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
        return joined ? { type: 'text', text: joined } : null;
      }
      return null;
    }
    case 'image':
      return imagePart(block);
    default: {
      const type = typeof block.type === 'string' ? block.type : `block without a type`;
      unknown.set(type, (unknown.get(type) ?? 0) + 1);
      return null;
    }
  }
}

/** The parts of `content`; an empty string or list gives none. */
export function contentParts(content: unknown, field: string, warnings: WarningList, unknown: BlockCounts): MessagePart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) {
    if (content !== undefined && content !== null) warnings.wrongType(field, 'a string or a list of blocks', content);
    return [];
  }
  const parts: MessagePart[] = [];
  for (const block of content) {
    if (!isRecord(block)) {
      warnings.add('wrong_type', `A block of "${field}" is ${kindOfJson(block)} instead of an object; it was skipped.`);
      continue;
    }
    const part = blockPart(block, field, warnings, unknown);
    if (part) parts.push(part);
  }
  return parts;
}

/** A tool result's output text (its text blocks joined) and the images it returned. */
export function resultParts(content: unknown, field: string, warnings: WarningList, unknown: BlockCounts): { text: string; images: MessagePart[] } {
  const parts = contentParts(content, field, warnings, unknown);
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  return { text, images: parts.filter((p) => p.type === 'image') };
}
