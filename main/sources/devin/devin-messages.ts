// One Devin chat_message ({message_id, role, content, thinking, tool_calls, tool_call_id, images, metadata}) as a canonical message.
import { warnMissingContent } from '../missing-content.ts';
import type { Message, MessagePart, MessageRole } from '../../../shared/session.ts';
import { describeJson, isRecord, limitDepth, type WarningList } from '../coerce.ts';
import type { TreeNode } from './devin-store.ts';
import { devinTime, pointerToken } from './devin-time.ts';

/** What converting one session's messages collects for its warnings. */
export interface DevinTally {
  warnings: WarningList;
  unknownRoles: Map<string, number>;
  unknownBlocks: Map<string, number>;
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** The image type a base64 payload starts with (Devin stores only the data, its width and height). */
function sniffImageType(base64: string): string | null {
  if (base64.startsWith('iVBORw0KGgo')) return 'image/png';
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return null;
}

/** `images: [{width, height, base64_data}]`: inline images, kept as image parts. */
function imageParts(raw: unknown): MessagePart[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((img): MessagePart[] => {
    if (!isRecord(img) || typeof img.base64_data !== 'string') return [];
    return [{ type: 'image', mediaType: sniffImageType(img.base64_data), data: img.base64_data, url: null }];
  });
}

/** `content`: a string (always, in the CLI versions surveyed) or a list of text items. */
function textParts(raw: unknown, tally: DevinTally): MessagePart[] {
  if (typeof raw === 'string') return raw.trim() ? [{ type: 'text', text: raw }] : [];
  if (!Array.isArray(raw)) return [];
  const parts: MessagePart[] = [];
  for (const item of raw) {
    if (isRecord(item) && item.type === 'text' && typeof item.text === 'string') {
      if (item.text.trim()) parts.push({ type: 'text', text: item.text });
    } else bump(tally.unknownBlocks, isRecord(item) && typeof item.type === 'string' ? item.type : describeJson(item));
  }
  return parts;
}

/** `thinking: {signature, thinking}` (or a string); a signature with no text is reasoning the provider withheld. */
function thinkingParts(raw: unknown): MessagePart[] {
  if (typeof raw === 'string') return raw.trim() ? [{ type: 'thinking', text: raw, redacted: false }] : [];
  if (!isRecord(raw)) return [];
  if (typeof raw.thinking === 'string' && raw.thinking.trim()) return [{ type: 'thinking', text: raw.thinking, redacted: false }];
  return typeof raw.signature === 'string' || typeof raw.data === 'string' ? [{ type: 'thinking', text: '', redacted: true }] : [];
}

/** `tool_calls: [{id, index, kind, name, arguments}]`, arguments an object (or, OpenAI-style, `function: {name, arguments}` with a JSON string). */
function toolCalls(raw: unknown, warnings: WarningList): MessagePart[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((call): MessagePart[] => {
    if (!isRecord(call)) return [];
    const fn = isRecord(call.function) ? call.function : call;
    if (typeof fn.name !== 'string' || !fn.name) {
      warnings.add('missing_field', 'A Devin tool call has no name; it was skipped.');
      return [];
    }
    let input: unknown = fn.arguments ?? {};
    if (typeof input === 'string') {
      try {
        input = JSON.parse(input);
      } catch {
        // kept as the text the model sent
      }
    }
    return [
      { type: 'tool_call', callId: typeof call.id === 'string' ? call.id : null, name: fn.name, input: limitDepth(input, warnings, 'tool_calls[].arguments') },
    ];
  });
}

function roleOf(role: unknown): MessageRole | null {
  if (role === 'agent') return 'assistant';
  return role === 'system' || role === 'user' || role === 'assistant' || role === 'tool' ? role : null;
}

/** The message of one chain node, or null (with a warning or a count) for one that is not a message or is empty. */
export function devinMessage(node: TreeNode, stored: unknown, tally: DevinTally): Message | null {
  const base = {
    timestamp: devinTime(node.createdAt),
    model: null,
    usage: null,
    cost: null,
    agentId: null,
    origin: { fileIndex: 0, line: null, pointer: `/rows/message_nodes/${pointerToken(node.key)}` },
  };
  let value: unknown;
  try {
    value = typeof stored === 'string' ? JSON.parse(stored) : stored;
  } catch {
    tally.warnings.add('invalid_json', `Node ${node.nodeId}'s chat_message is not valid JSON; it is shown as stored.`);
    return { ...base, id: `node-${node.nodeId}`, role: 'system', parts: [{ type: 'text', text: String(stored) }] };
  }
  if (!isRecord(value)) {
    tally.warnings.wrongType(`message_nodes[${node.rowId}].chat_message`, 'a JSON object', value);
    return null;
  }
  const role = roleOf(value.role);
  if (role === null) {
    bump(tally.unknownRoles, typeof value.role === 'string' ? value.role : 'without a role');
    return null;
  }
  const images = imageParts(value.images);
  const parts: MessagePart[] =
    role === 'tool'
      ? [
          {
            type: 'tool_result',
            callId: typeof value.tool_call_id === 'string' ? value.tool_call_id : null,
            output: typeof value.content === 'string' ? value.content : JSON.stringify(value.content ?? ''),
            isError: null,
          },
          ...images,
        ]
      : [
          ...(role === 'assistant' ? thinkingParts(value.thinking) : []),
          ...textParts(value.content, tally),
          ...images,
          ...(role === 'assistant' ? toolCalls(value.tool_calls, tally.warnings) : []),
        ];
  if (parts.length === 0 || (role === 'tool' && value.content == null && value.tool_call_id == null && images.length === 0)) {
    warnMissingContent(tally.warnings, `A Devin ${role} message (node ${node.nodeId})`);
    return null;
  }
  const id = typeof value.message_id === 'string' && value.message_id ? value.message_id : `node-${node.nodeId}`;
  return { ...base, id, role, parts };
}
