// Turns Droid message content (Claude-style blocks: text, tool_use, tool_result, thinking, image) into canonical parts.
import type { MessagePart } from '../../../shared/session.ts';
import { isRecord, kindOfJson, limitDepth, type WarningList } from '../coerce.ts';

export type BlockCounts = Map<string, number>;

/** A tool result's content: a string, or blocks whose text is joined. */
function resultText(content: unknown, warnings: WarningList): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.flatMap((b) => (isRecord(b) && typeof b.text === 'string' ? [b.text] : [])).join('\n');
  }
  if (content === undefined || content === null) return '';
  return JSON.stringify(limitDepth(content, warnings, 'tool_result.content'));
}

function imagePart(block: Record<string, unknown>): MessagePart {
  const source = isRecord(block.source) ? block.source : {};
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { type: 'image', mediaType: text(source.media_type) ?? text(block.mediaType), data: text(source.data), url: text(source.url) ?? text(block.url) };
}

function blockPart(block: Record<string, unknown>, warnings: WarningList, unknown: BlockCounts): MessagePart | null {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? { type: 'text', text: block.text } : null;
    case 'tool_use':
      return {
        type: 'tool_call',
        callId: typeof block.id === 'string' ? block.id : null,
        name: typeof block.name === 'string' ? block.name : 'tool',
        input: limitDepth(block.input ?? null, warnings, 'tool_use.input'),
      };
    case 'tool_result':
      return {
        type: 'tool_result',
        callId: typeof block.tool_use_id === 'string' ? block.tool_use_id : null,
        output: resultText(block.content, warnings),
        isError: typeof block.is_error === 'boolean' ? block.is_error : null,
      };
    case 'thinking':
      return { type: 'thinking', text: typeof block.thinking === 'string' ? block.thinking : '', redacted: false };
    case 'redacted_thinking':
      return { type: 'thinking', text: '', redacted: true };
    case 'image':
      return imagePart(block);
    default: {
      const type = typeof block.type === 'string' ? block.type : 'block without a type';
      unknown.set(type, (unknown.get(type) ?? 0) + 1);
      return null;
    }
  }
}

/** The parts of a message's `content`: a plain string, or a list of blocks. */
export function droidParts(content: unknown, warnings: WarningList, unknown: BlockCounts): MessagePart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) {
    if (content !== undefined && content !== null) warnings.wrongType('message.content', 'a string or a list of blocks', content);
    return [];
  }
  const parts: MessagePart[] = [];
  for (const block of content) {
    if (!isRecord(block)) {
      warnings.add('wrong_type', `A content block is ${kindOfJson(block)} instead of an object; it was skipped.`);
      continue;
    }
    const part = blockPart(block, warnings, unknown);
    if (part) parts.push(part);
  }
  return parts;
}

const REMINDER = /^\s*<system-reminder>([\s\S]*?)<\/system-reminder>\s*/;

/** Droid prefixes a prompt with `<system-reminder>` blocks; they are split off so the prompt reads as typed. */
export function splitReminders(text: string): { reminders: string[]; prompt: string } {
  const reminders: string[] = [];
  let rest = text;
  for (let m = REMINDER.exec(rest); m; m = REMINDER.exec(rest)) {
    reminders.push(m[1]!.trim());
    rest = rest.slice(m[0].length);
  }
  return { reminders, prompt: rest };
}
