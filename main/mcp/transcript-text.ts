// One message of a transcript as plain text for an assistant: what was said in full, tool calls and results summarized to a line.
import type { Message, MessagePart } from '../../shared/session.ts';

/** A tool call's line: the argument that says what it works on, clipped. */
const CALL_ARGUMENT_MAX = 200;
/** A tool result's line: the start of its output, clipped. */
const RESULT_PREVIEW_MAX = 300;
/** A compaction's carried summary, clipped. */
const COMPACTION_MAX = 2000;

/** Arguments that name what a call works on, most telling first. */
const PRIMARY_KEYS = [
  'command',
  'cmd',
  'pattern',
  'query',
  'q',
  'file_path',
  'filePath',
  'path',
  'absolute_path',
  'file',
  'url',
  'description',
  'prompt',
  'task',
  'name',
  'text',
];

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function scalar(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() ? value : null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length && value.every((v) => typeof v === 'string')) return value.join(' ');
  return null;
}

/** The call's telling argument (`command: ls -la`), else its arguments as compact JSON. */
export function callArgument(input: unknown): string {
  if (typeof input === 'string') {
    // Some formats keep the arguments as the JSON text the model wrote (Codex's function calls).
    if (/^\s*\{/.test(input)) {
      try {
        const parsed: unknown = JSON.parse(input);
        if (parsed && typeof parsed === 'object') return callArgument(parsed);
      } catch {
        // Not JSON after all: shown as written.
      }
    }
    return oneLine(input, CALL_ARGUMENT_MAX);
  }
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    const record = input as Record<string, unknown>;
    for (const key of PRIMARY_KEYS) {
      const value = scalar(record[key]);
      if (value !== null) return oneLine(`${key}: ${value}`, CALL_ARGUMENT_MAX);
    }
  }
  if (input === null || input === undefined) return '';
  let json: string;
  try {
    json = JSON.stringify(input) ?? '';
  } catch {
    json = String(input);
  }
  return oneLine(json, CALL_ARGUMENT_MAX);
}

const count = (n: number) => n.toLocaleString('en-US');

function partText(part: MessagePart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'thinking':
      return `[thinking${part.redacted ? ', redacted by the tool' : ''}: ${count(part.text.length)} characters, left out]`;
    case 'tool_call': {
      const argument = callArgument(part.input);
      return `[tool call ${part.name}${argument ? `] ${argument}` : ']'}`;
    }
    case 'tool_result': {
      const status = part.isError ? 'error' : 'result';
      const preview = oneLine(part.output, RESULT_PREVIEW_MAX);
      return `[tool ${status}, ${count(part.output.length)} characters]${preview ? ` ${preview}` : ''}`;
    }
    case 'image':
      return `[image${part.mediaType ? ` ${part.mediaType}` : ''}]`;
    case 'compaction':
      return `[context compacted${part.trigger ? ` (${part.trigger})` : ''}]${part.summary ? ` ${oneLine(part.summary, COMPACTION_MAX)}` : ''}`;
  }
}

/** `### #12 assistant (sub-agent a1) · 2026-03-04T10:00:01Z`, then the parts, one paragraph each; ends with a blank line. */
export function messageText(message: Message, index: number): string {
  const who = `${message.role}${message.agentId ? ` (sub-agent ${message.agentId})` : ''}`;
  const head = `### #${index} ${who}${message.timestamp ? ` · ${message.timestamp}` : ''}`;
  const parts = message.parts.map(partText).filter((t) => t.trim() !== '');
  return `${[head, ...parts].join('\n')}\n\n`;
}
