// Goose's content_json blocks (text, thinking, toolRequest, toolResponse, image, notifications ...) as canonical parts and notes.
import type { MessagePart } from '../../../shared/session.ts';
import { describeJson, isRecord, limitDepth, type WarningList } from '../coerce.ts';

/** The parts of one message, the notes worth showing beside them, and block types this reader does not know. */
export interface GooseContent {
  parts: MessagePart[];
  notes: string[];
}

export type UnknownCounts = Map<string, number>;

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v : null;
}

function imagePart(block: Record<string, unknown>): MessagePart {
  return { type: 'image', mediaType: str(block.mimeType) ?? str(block.mime_type), data: str(block.data), url: null };
}

/** `toolRequest.toolCall`: `{status: success, value: {name, arguments}}`, or `{status: error, error}` for a call the model got wrong. */
function toolCall(block: Record<string, unknown>, warnings: WarningList, field: string): MessagePart {
  const callId = str(block.id);
  const call = isRecord(block.toolCall) ? block.toolCall : {};
  const value = isRecord(call.value) ? call.value : null;
  if (call.status === 'success' && value && str(value.name)) {
    return { type: 'tool_call', callId, name: value.name as string, input: limitDepth(value.arguments ?? {}, warnings, `${field}.arguments`) };
  }
  const error = str(call.error) ?? (call.status ? `status ${String(call.status)}` : 'no tool call recorded');
  return { type: 'tool_call', callId, name: str(value?.name) ?? 'invalid tool call', input: { error } };
}

/** MCP content items (text, image, resource) of a tool's output: the text joined, the images as parts of their own. */
function toolOutput(items: unknown[]): { text: string; images: MessagePart[] } {
  const texts: string[] = [];
  const images: MessagePart[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    if (item.type === 'text' && typeof item.text === 'string') texts.push(item.text);
    else if (item.type === 'image') images.push(imagePart(item));
    else if (item.type === 'resource' && isRecord(item.resource)) texts.push(str(item.resource.text) ?? `[resource ${String(item.resource.uri ?? '')}]`);
    else texts.push(JSON.stringify(item));
  }
  return { text: texts.join('\n'), images };
}

/** `toolResponse.toolResult`: `{status: success, value: {content, isError?} | content[]}` or `{status: error, error}`. */
function toolResult(block: Record<string, unknown>): MessagePart[] {
  const callId = str(block.id);
  const result = isRecord(block.toolResult) ? block.toolResult : {};
  if (result.status === 'error' || (result.status !== 'success' && str(result.error))) {
    return [{ type: 'tool_result', callId, output: str(result.error) ?? 'The tool failed.', isError: true }];
  }
  if (result.status !== 'success') {
    // A result still pending (or of a status Goose may add): not a failure, and nothing to show yet.
    return [{ type: 'tool_result', callId, output: `(no result: status ${String(result.status ?? 'missing')})`, isError: null }];
  }
  const value = result.value;
  const items = Array.isArray(value) ? value : isRecord(value) && Array.isArray(value.content) ? value.content : [];
  const { text, images } = toolOutput(items);
  const isError = isRecord(value) && typeof value.isError === 'boolean' ? value.isError : null;
  return [{ type: 'tool_result', callId, output: text, isError }, ...images];
}

/** The text of a notification-like block: a message, a prompt, or the text inside `data`. */
function noteText(block: Record<string, unknown>): string | null {
  const data = isRecord(block.data) ? block.data : {};
  return str(block.msg) ?? str(block.message) ?? str(block.text) ?? str(block.prompt) ?? str(data.message) ?? str(data.prompt) ?? str(data.toolName);
}

const NOTE_LABELS: Record<string, string> = {
  actionRequired: 'Action required',
  toolConfirmationRequest: 'Confirmation asked',
  systemNotification: '',
  contextLengthExceeded: 'Context length exceeded',
  summarizationRequested: 'Summarization requested',
};

/** Converts one message's blocks; unknown block types are counted in `unknown` for one warning per session. */
export function gooseContent(blocks: unknown[], field: string, warnings: WarningList, unknown: UnknownCounts): GooseContent {
  const out: GooseContent = { parts: [], notes: [] };
  for (const block of blocks) {
    if (!isRecord(block)) {
      warnings.wrongType(`${field}[]`, 'an object', block);
      continue;
    }
    const type = typeof block.type === 'string' ? block.type : null;
    if (type === 'text') {
      if (str(block.text)) out.parts.push({ type: 'text', text: block.text as string });
    } else if (type === 'thinking') {
      if (str(block.thinking)) out.parts.push({ type: 'thinking', text: block.thinking as string, redacted: false });
    } else if (type === 'redactedThinking') {
      out.parts.push({ type: 'thinking', text: '', redacted: true });
    } else if (type === 'toolRequest' || type === 'frontendToolRequest') {
      out.parts.push(toolCall(block, warnings, field));
    } else if (type === 'toolResponse') {
      out.parts.push(...toolResult(block));
    } else if (type === 'image') {
      out.parts.push(imagePart(block));
    } else if (type !== null && type in NOTE_LABELS) {
      const text = noteText(block);
      const label = NOTE_LABELS[type]!;
      out.notes.push(label && text ? `${label}: ${text}` : (text ?? label));
    } else {
      const key = type ?? `block whose type is ${describeJson(block.type)}`;
      unknown.set(key, (unknown.get(key) ?? 0) + 1);
    }
  }
  return out;
}
