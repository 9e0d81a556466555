// Converts Cursor transcript content (Anthropic-style blocks, with drifting names) into canonical message parts.
import type { MessagePart } from '../../../shared/session.ts';
import { isRecord, limitDepth, type WarningList } from '../coerce.ts';

export interface BlockAcc {
  warnings: WarningList;
  /** Block types this reader does not know, with their count (one warning each). */
  unknownBlocks: Map<string, number>;
  /** Set when a block of the current line was a `<user_query>` the reader unwrapped (the caller resets it per line). */
  unwrappedQuery?: boolean;
  /** What Cursor put beside the `<user_query>` of the current line (`<context>`, attached files...), kept for the message. */
  queryContext?: string;
}

const QUERY = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/;

/**
 * User text is wrapped in `<user_query>`: the query is what the user typed (the wrapper is noted in `acc`). Cursor can
 * add its own context beside it (`<context>…</context>`, files it attached): the query alone is shown, the rest kept
 * in `acc.queryContext`.
 */
export function unwrapQuery(text: string, acc: BlockAcc): string {
  const found = QUERY.exec(text);
  if (!found) return text;
  acc.unwrappedQuery = true;
  const rest = (text.slice(0, found.index) + text.slice(found.index + found[0].length)).trim();
  if (rest) acc.queryContext = acc.queryContext ? `${acc.queryContext}\n${rest}` : rest;
  return found[1] ?? '';
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** A tool result's content: a string, or a list of text blocks (anything else as JSON). */
function resultText(content: unknown, acc: BlockAcc): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : JSON.stringify(limitDepth(c, acc.warnings, 'tool_result.content'))))
      .join('\n');
  }
  return content === undefined || content === null ? '' : JSON.stringify(limitDepth(content, acc.warnings, 'tool_result.content'));
}

function imageOf(block: Record<string, unknown>): MessagePart {
  const source = isRecord(block.source) ? block.source : {};
  return {
    type: 'image',
    mediaType: str(source.media_type) ?? str(block.mimeType) ?? str(block.media_type),
    data: str(source.data) ?? str(block.data),
    url: str(source.url) ?? str(block.url),
  };
}

/** One content block: text, thinking, tool_use / tool_call / tool-call, tool_result / tool-result, image, command_output; others warned about. */
export function blockPart(block: unknown, role: string, acc: BlockAcc): MessagePart | null {
  if (typeof block === 'string') return { type: 'text', text: role === 'user' ? unwrapQuery(block, acc) : block };
  if (!isRecord(block)) {
    acc.warnings.wrongType('message.content[]', 'a content block', block);
    return null;
  }
  const type = typeof block.type === 'string' ? block.type.toLowerCase() : '';
  switch (type) {
    case 'text':
      return { type: 'text', text: role === 'user' ? unwrapQuery(str(block.text) ?? '', acc) : (str(block.text) ?? '') };
    case 'thinking':
    case 'reasoning':
      return { type: 'thinking', text: str(block.thinking) ?? str(block.text) ?? '', redacted: false };
    case 'redacted_thinking':
      return { type: 'thinking', text: '', redacted: true };
    case 'tool_use':
    case 'tool-use':
    case 'tool_call':
    case 'tool-call': {
      const input = block.input ?? block.args ?? block.arguments ?? null;
      return {
        type: 'tool_call',
        callId: str(block.id) ?? str(block.toolCallId) ?? str(block.tool_call_id),
        name: str(block.name) ?? str(block.tool) ?? str(block.toolName) ?? 'unknown',
        input: limitDepth(input, acc.warnings, 'tool_use.input'),
      };
    }
    case 'tool_result':
    case 'tool-result':
      return {
        type: 'tool_result',
        callId: str(block.tool_use_id) ?? str(block.toolCallId) ?? str(block.tool_call_id) ?? str(block.id),
        output: resultText(block.content ?? block.output ?? block.result, acc),
        isError: typeof block.is_error === 'boolean' ? block.is_error : typeof block.isError === 'boolean' ? block.isError : null,
      };
    case 'image':
      return imageOf(block);
    case 'command_output': {
      // A shell's output Cursor shows on its own, paired with no call.
      const output = str(block.output)?.trim();
      return output ? { type: 'text', text: output } : null;
    }
    default: {
      acc.unknownBlocks.set(type || 'without a type', (acc.unknownBlocks.get(type || 'without a type') ?? 0) + 1);
      // A drifted block that still carries text keeps it: the text is what the user saw.
      const text = str(block.text) ?? str(block.content);
      return text ? { type: 'text', text } : null;
    }
  }
}

/** `message.content`: a string or a list of blocks; empty text dropped. */
export function contentParts(content: unknown, role: string, acc: BlockAcc): MessagePart[] {
  const list = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
  return list.map((b) => blockPart(b, role, acc)).filter((p): p is MessagePart => p !== null && !(p.type === 'text' && p.text.trim() === ''));
}
