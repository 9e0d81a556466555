// Converts Codex content arrays, tool arguments and tool outputs into canonical message parts and text.
import type { MessagePart } from '../../../shared/session.ts';
import { describeJson, isRecord, limitDepth, type Fields, type WarningList } from '../coerce.ts';
import { bump, type CodexState } from './codex-state.ts';

const TEXT_TYPES = new Set(['input_text', 'output_text', 'text', 'summary_text', 'reasoning_text']);

/** `data:<type>;base64,<data>` URLs embed the image; anything else is a link. */
export function imagePart(url: string | null): MessagePart {
  const match = url ? /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(url) : null;
  if (match) return { type: 'image', mediaType: match[1] ?? null, data: match[2] ? (match[3] ?? '') : null, url: match[2] ? null : url };
  return { type: 'image', mediaType: null, data: null, url };
}

/** A message's `content`: a string or a list of typed items (input_text, output_text, input_image, refusal ...). */
export function contentParts(state: CodexState, raw: unknown, field: string): MessagePart[] {
  if (typeof raw === 'string') return raw.length ? [{ type: 'text', text: raw }] : [];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    state.warnings.wrongType(field, 'a list of content items', raw);
    return [];
  }
  const parts: MessagePart[] = [];
  for (const item of raw) {
    if (typeof item === 'string') {
      parts.push({ type: 'text', text: item });
      continue;
    }
    if (!isRecord(item)) {
      state.warnings.wrongType(`${field}[]`, 'an object', item);
      continue;
    }
    const type = typeof item.type === 'string' ? item.type : null;
    if (type !== null && TEXT_TYPES.has(type) && typeof item.text === 'string') parts.push({ type: 'text', text: item.text });
    else if (type === 'input_image' || type === 'image') parts.push(imagePart(typeof item.image_url === 'string' ? item.image_url : null));
    else if (type === 'refusal' && typeof item.refusal === 'string') parts.push({ type: 'text', text: item.refusal });
    else if (type === 'encrypted_content') parts.push({ type: 'thinking', text: '', redacted: true });
    else bump(state.unknownBlocks, type ?? describeJson(item.type));
  }
  return parts;
}

export function textOf(parts: MessagePart[]): string {
  return parts
    .filter((p) => p.type === 'text')
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n');
}

/**
 * `function_call.arguments` is a JSON string; it is parsed for display. Text that is not JSON is kept as it is,
 * with a warning; an already-parsed value (seen in hand-edited files) is accepted with a warning.
 */
export function parseArguments(f: Fields, key: string): unknown {
  if (!Object.hasOwn(f.raw, key)) return null;
  const raw = f.raw[key];
  f.used.add(key);
  if (raw === null) return null;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return null;
    try {
      return limitDepth(JSON.parse(raw), f.warnings, f.name(key));
    } catch {
      f.warnings.add('unparsable_arguments', `Some tool-call arguments (${f.name(key)}) are not valid JSON; the raw text is shown instead.`);
      return raw;
    }
  }
  f.warnings.add('wrong_type', `Field "${f.name(key)}" should be a JSON string but is ${describeJson(raw)}; it was used as it is.`);
  return limitDepth(raw, f.warnings, f.name(key));
}

function itemsText(items: unknown[]): string {
  return items
    .map((item) => {
      if (typeof item === 'string') return item;
      if (isRecord(item) && typeof item.text === 'string') return item.text;
      if (isRecord(item) && (item.type === 'input_image' || item.type === 'image')) return '[image]';
      return '';
    })
    .filter((t) => t.length > 0)
    .join('\n');
}

/**
 * A tool output: a string, a list of content items, `{content, success}` (function_call_output of some
 * writers) or a single content item. `isError` is only known when the output says `success`.
 */
/**
 * A drift writer's command result `{stdout, stderr, exitCode}`: the streams as the command printed them (as JSON
 * their lines would be glued to the `\n` escapes between them, and a search for a word that starts a line would miss it).
 */
function commandStreams(raw: Record<string, unknown>): { text: string; isError: boolean | null } | null {
  if (typeof raw.stdout !== 'string' && typeof raw.stderr !== 'string') return null;
  const text = [raw.stdout, raw.stderr].filter((s): s is string => typeof s === 'string' && s !== '').join('\n');
  const exit = typeof raw.exitCode === 'number' ? raw.exitCode : typeof raw.exit_code === 'number' ? raw.exit_code : null;
  return { text, isError: exit === null ? null : exit !== 0 };
}

/**
 * Codex CLIs of 2025 wrote a shell call's result as a JSON string, `{"output": "...", "metadata": {"exit_code", ...}}`:
 * the output is what the command printed. Shown as JSON, its lines would be glued to the `\n` escapes between them,
 * and a search for a word that starts a line would miss it.
 */
function wrappedOutput(raw: string): { text: string; isError: boolean | null } | null {
  if (!/^\s*\{\s*"output"/.test(raw)) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value) || typeof value.output !== 'string' || Object.keys(value).some((k) => k !== 'output' && k !== 'metadata')) return null;
  const exit = isRecord(value.metadata) && typeof value.metadata.exit_code === 'number' ? value.metadata.exit_code : null;
  return { text: value.output, isError: exit === null ? null : exit !== 0 };
}

export function outputText(raw: unknown, warnings: WarningList, field: string): { text: string; isError: boolean | null } {
  if (raw === undefined || raw === null) return { text: '', isError: null };
  if (typeof raw === 'string') return wrappedOutput(raw) ?? { text: raw, isError: null };
  if (Array.isArray(raw)) return { text: itemsText(raw), isError: null };
  if (isRecord(raw)) {
    const success = typeof raw.success === 'boolean' ? raw.success : null;
    const isError = success === null ? null : !success;
    if ('content' in raw) return { text: outputText(raw.content, warnings, `${field}.content`).text, isError };
    if (typeof raw.text === 'string') return { text: raw.text, isError };
    if ('output' in raw) return { text: outputText(raw.output, warnings, `${field}.output`).text, isError };
    const streams = commandStreams(raw);
    if (streams) return streams;
    return { text: JSON.stringify(limitDepth(raw, warnings, field)), isError };
  }
  return { text: String(raw), isError: null };
}

/** Codex writes durations as `{secs, nanos}`. */
export function durationMs(raw: unknown): number | null {
  if (!isRecord(raw)) return null;
  const secs = typeof raw.secs === 'number' ? raw.secs : null;
  const nanos = typeof raw.nanos === 'number' ? raw.nanos : 0;
  const ms = secs === null ? null : Math.round(secs * 1000 + nanos / 1e6);
  // A damaged duration (1e308 seconds) is no duration: Infinity fails the session's schema.
  return ms !== null && Number.isFinite(ms) ? ms : null;
}
