// Turns Anthropic Messages content (a string or a list of blocks) and usage objects into canonical pieces.
import type { MessagePart, TokenUsage } from '../../../shared/session.ts';
import { emptyUsage, Fields, isRecord, limitDepth, type WarningList } from '../coerce.ts';

/** Facts found inside content that have no part of their own (e.g. a model fallback notice). */
export type BlockNotes = Record<string, unknown>;

/**
 * Text with unpaired UTF-16 surrogates (JSON escapes such as "\ud83d" cut from an emoji) cannot be encoded
 * as UTF-8 for the index or a browser; they are replaced with U+FFFD, with a warning.
 */
export function wellFormed(text: string, warnings: WarningList): string {
  if (text.isWellFormed()) return text;
  warnings.add('lone_surrogate', 'Some text holds unpaired UTF-16 surrogates (half of an emoji); they are shown as \uFFFD.');
  return text.toWellFormed();
}

const TOOL_CALL_BLOCKS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

function isToolResultBlock(type: string): boolean {
  return type === 'tool_result' || type.endsWith('_tool_result');
}

function imagePart(block: Fields): MessagePart {
  const source = block.object('source');
  const kind = source?.string('type') ?? null;
  return {
    type: 'image',
    mediaType: source?.string('media_type') ?? null,
    data: kind === 'base64' ? (source?.string('data') ?? null) : null,
    url: kind === 'url' ? (source?.string('url') ?? null) : null,
  };
}

/**
 * A tool result's output as text: strings stay, text blocks are joined, images become parts of their own
 * (pushed to `images`) and anything else is shown as JSON so nothing the tool returned disappears.
 */
function toolOutput(content: unknown, field: string, warnings: WarningList, images: MessagePart[]): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return wellFormed(content, warnings);
  if (!Array.isArray(content)) return JSON.stringify(limitDepth(content, warnings, field));
  const texts: string[] = [];
  for (const item of content) {
    if (isRecord(item) && item.type === 'text' && typeof item.text === 'string') texts.push(item.text);
    else if (isRecord(item) && item.type === 'image') images.push(imagePart(new Fields(item, `${field}[]`, warnings)));
    else texts.push(JSON.stringify(limitDepth(item, warnings, `${field}[]`)));
  }
  return wellFormed(texts.join('\n'), warnings);
}

function blockToParts(raw: unknown, field: string, warnings: WarningList, notes: BlockNotes): MessagePart[] {
  if (!isRecord(raw)) {
    warnings.wrongType(`${field}[]`, 'a content block object', raw);
    return [];
  }
  const block = new Fields(raw, `${field}[]`, warnings);
  const type = block.string('type');
  if (type === null) {
    warnings.add('unknown_block_type', 'Content blocks without a "type" were skipped.');
    return [];
  }
  if (type === 'text') return [{ type: 'text', text: wellFormed(block.string('text') ?? '', warnings) }];
  if (type === 'thinking') return [{ type: 'thinking', text: wellFormed(block.string('thinking') ?? '', warnings), redacted: false }];
  // The thinking is encrypted; only the fact that the model thought is visible.
  if (type === 'redacted_thinking') return [{ type: 'thinking', text: '', redacted: true }];
  if (TOOL_CALL_BLOCKS.has(type)) {
    return [{ type: 'tool_call', callId: block.string('id'), name: block.string('name') ?? type, input: block.value('input') ?? null }];
  }
  if (isToolResultBlock(type)) {
    const images: MessagePart[] = [];
    const output = toolOutput(raw.content, `${field}[].content`, warnings, images);
    const isError = typeof raw.is_error === 'boolean' ? raw.is_error : null;
    return [{ type: 'tool_result', callId: block.string('tool_use_id'), output, isError }, ...images];
  }
  if (type === 'image') return [imagePart(block)];
  if (type === 'document') {
    const source = block.object('source');
    const label = block.string('title') ?? source?.string('media_type') ?? 'document';
    return [{ type: 'text', text: `[Attached document: ${label}]` }];
  }
  if (type === 'fallback') {
    notes.modelFallback = { from: block.object('from')?.string('model') ?? null, to: block.object('to')?.string('model') ?? null };
    return [];
  }
  warnings.add('unknown_block_type', `Content blocks of unknown type "${type}" were skipped.`);
  return [];
}

/** Message content (a string or a list of blocks) as parts; any other JSON type is skipped with a warning. */
export function contentToParts(content: unknown, field: string, warnings: WarningList, notes: BlockNotes): MessagePart[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ type: 'text', text: wellFormed(content, warnings) }];
  if (!Array.isArray(content)) {
    warnings.wrongType(field, 'a string or a list of content blocks', content);
    return [];
  }
  return content.flatMap((block) => blockToParts(block, field, warnings, notes));
}

const USAGE_FIELDS: Array<[keyof TokenUsage, string]> = [
  ['input', 'input_tokens'],
  ['output', 'output_tokens'],
  ['cacheRead', 'cache_read_input_tokens'],
  ['cacheWrite', 'cache_creation_input_tokens'],
];

/**
 * Anthropic usage as canonical tokens. Thinking tokens are already inside output_tokens, so `reasoning`
 * stays 0 (counting them again would double the output). Counts that are not whole non-negative numbers
 * are skipped with a warning.
 */
export function readUsage(usage: Fields | null): TokenUsage | null {
  if (!usage) return null;
  const result = emptyUsage();
  let any = false;
  for (const [key, name] of USAGE_FIELDS) {
    const value = usage.number(name);
    if (value === null) continue;
    if (!Number.isSafeInteger(value) || value < 0) {
      usage.warnings.add('bad_value', `Field "${usage.name(name)}" should be a whole number of tokens of at least 0 but is ${value}; it was skipped.`);
      continue;
    }
    result[key] = value;
    any = true;
  }
  return any ? result : null;
}

/** Field-wise maximum: the lines of one split response repeat its usage, growing as the stream went on. */
export function maxUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: Math.max(a.input, b.input),
    output: Math.max(a.output, b.output),
    cacheRead: Math.max(a.cacheRead, b.cacheRead),
    cacheWrite: Math.max(a.cacheWrite, b.cacheWrite),
    reasoning: Math.max(a.reasoning, b.reasoning),
  };
}

/** The text of a list of parts, for titles and compaction summaries. */
export function textOf(parts: MessagePart[]): string {
  return parts
    .filter((p) => p.type === 'text')
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n');
}
