// Turns one Amp message's content (a string or Anthropic-style blocks, with Amp's own tool_result shape) into canonical parts.
import type { MessagePart } from '../../../shared/session.ts';
import { Fields, isRecord, limitDepth, type WarningList } from '../coerce.ts';
import { wellFormed } from '../claude-code/claude-code-blocks.ts';

/** Block types seen per message that this reader does not know, counted for one warning each. */
export type UnknownBlocks = Map<string, number>;

function imagePart(block: Fields): MessagePart {
  const source = block.object('source');
  const kind = source?.string('type') ?? null;
  return {
    type: 'image',
    mediaType: source?.string('media_type') ?? source?.string('mediaType') ?? null,
    data: kind === 'base64' ? (source?.string('data') ?? null) : null,
    url: kind === 'url' ? (source?.string('url') ?? null) : null,
  };
}

/** What a tool returned, as text: strings stay, the usual display fields are taken, anything else is shown as JSON. */
export function resultText(value: unknown, warnings: WarningList, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return wellFormed(value, warnings);
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) return wellFormed(value.join('\n'), warnings);
    if (value.every((v) => isRecord(v) && v.type === 'text' && typeof v.text === 'string')) {
      return wellFormed(value.map((v) => (v as { text: string }).text).join('\n'), warnings);
    }
  }
  if (isRecord(value)) {
    // Bash results carry `output`, Read `content`, edits `diff`: the text a person wants to see.
    for (const key of ['output', 'content', 'diff']) {
      if (typeof value[key] === 'string' && value[key] !== '') return wellFormed(value[key], warnings);
    }
  }
  return JSON.stringify(limitDepth(value, warnings, field));
}

/**
 * Amp writes tool results two ways: Anthropic's `{tool_use_id, content, is_error}` and its own
 * `{toolUseID, run: {status, result, error}}`, where `run.status` is done, error, cancelled or rejected.
 */
function toolResultPart(block: Fields): MessagePart {
  const { raw, warnings } = block;
  const anthropicId = typeof raw.tool_use_id === 'string' && raw.tool_use_id !== '' ? raw.tool_use_id : null;
  if (anthropicId !== null || !isRecord(raw.run)) {
    const isError = typeof raw.is_error === 'boolean' ? raw.is_error : null;
    return { type: 'tool_result', callId: anthropicId ?? block.string('toolUseID'), output: resultText(raw.content, warnings, block.name('content')), isError };
  }
  const run = new Fields(raw.run, block.name('run'), warnings);
  const status = run.string('status');
  let output = resultText(run.raw.result, warnings, run.name('result'));
  if (status === 'error') output = output || (run.object('error')?.string('message') ?? 'The tool failed (no message recorded).');
  else if ((status === 'cancelled' || status === 'rejected-by-user') && output === '') output = `[${status}]`;
  const isError = status === 'error' ? true : status === 'done' ? false : null;
  return { type: 'tool_result', callId: block.string('toolUseID'), output, isError };
}

function blockParts(raw: unknown, field: string, warnings: WarningList, unknown: UnknownBlocks): MessagePart[] {
  if (!isRecord(raw)) {
    warnings.wrongType(`${field}[]`, 'a content block object', raw);
    return [];
  }
  const block = new Fields(raw, `${field}[]`, warnings);
  const type = block.string('type');
  switch (type) {
    case 'text':
      return [{ type: 'text', text: wellFormed(block.string('text') ?? '', warnings) }];
    case 'thinking':
      return [{ type: 'thinking', text: wellFormed(block.string('thinking') ?? block.string('text') ?? '', warnings), redacted: false }];
    case 'redacted_thinking':
      return [{ type: 'thinking', text: '', redacted: true }];
    case 'tool_use':
    case 'server_tool_use':
      return [{ type: 'tool_call', callId: block.string('id'), name: block.string('name') ?? type, input: block.value('input') ?? null }];
    case 'tool_result':
      return [toolResultPart(block)];
    case 'image':
      return [imagePart(block)];
    default: {
      const label = type ?? 'without a type';
      unknown.set(label, (unknown.get(label) ?? 0) + 1);
      return [];
    }
  }
}

/** A message's `content` as parts; a string is one text part, anything but a list of blocks is a wrong type. */
export function ampContentParts(content: unknown, field: string, warnings: WarningList, unknown: UnknownBlocks): MessagePart[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: wellFormed(content, warnings) }];
  if (!Array.isArray(content)) {
    warnings.wrongType(field, 'a string or a list of content blocks', content);
    return [];
  }
  return content.flatMap((block) => blockParts(block, field, warnings, unknown));
}
