// Reads Cursor's older plain-text agent transcripts (`<id>.txt`: "user:" / "assistant:" lines, with [Thinking], [Tool call] and [Tool result] blocks) into the records its JSONL transcripts hold.
import type { JsonLine } from '../jsonl.ts';

type Block = Record<string, unknown>;

/** A role marker: `user:` or `assistant:` alone on its line. */
function roleOf(line: string): 'user' | 'assistant' | null {
  const trimmed = line.trim();
  return trimmed === 'user:' ? 'user' : trimmed === 'assistant:' ? 'assistant' : null;
}

const isMarker = (trimmed: string) => trimmed.startsWith('[Thinking]') || trimmed.startsWith('[Tool call] ') || trimmed.startsWith('[Tool result]');

/** A block's body is its indented and empty lines: a marker, or prose at the left margin, ends it. */
function endsBody(line: string): boolean {
  const trimmed = line.trim();
  return isMarker(trimmed) || (trimmed !== '' && line[0] !== ' ' && line[0] !== '\t');
}

/** The body's lines with their common indent removed, joined, without leading or trailing blank lines. */
function bodyText(lines: readonly string[]): string {
  let indent = Infinity;
  for (const line of lines) if (line.trim()) indent = Math.min(indent, line.length - line.trimStart().length);
  const cut = Number.isFinite(indent) ? indent : 0;
  return lines
    .map((l) => (l.length >= cut ? l.slice(cut) : l.trimStart()))
    .join('\n')
    .replace(/^\s*\n|\s+$/g, '');
}

/**
 * A call's arguments as Cursor printed them: JSON, `key=value` lines, or (ApplyPatch) a raw patch; anything else is
 * kept as the text it is.
 */
function callInput(name: string, body: string): unknown {
  if (body === '') return null;
  try {
    return JSON.parse(body);
  } catch {
    // not JSON: key=value lines or raw text
  }
  if (name.toLowerCase() === 'applypatch' && (body.includes('*** Begin Patch') || body.startsWith('@@'))) return { patch: body };
  const params: Record<string, string> = {};
  for (const line of body.split('\n')) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    const key = at > 0 ? line.slice(0, at).trim() : '';
    if (!key) return body;
    params[key] = line.slice(at + 1).trim();
  }
  return params;
}

/**
 * The records of a text transcript, one per user turn, per run of assistant output, and per tool result (as a `tool`
 * line). Cursor prints a call's result right after it, so a result belongs to the latest call still without one (each
 * call is given an id from its line). `line` is where each record starts in the file (a turn: its role line).
 */
export function cursorTextRecords(text: string): JsonLine[] {
  const lines = text.split(/\r?\n/);
  const records: JsonLine[] = [];
  const waiting: string[] = [];
  let i = 0;
  while (i < lines.length && roleOf(lines[i]!) === null) i++;
  while (i < lines.length) {
    const role = roleOf(lines[i]!)!;
    const start = ++i;
    while (i < lines.length && roleOf(lines[i]!) === null) i++;
    if (role === 'user') {
      const typed = lines.slice(start, i).join('\n').trim();
      if (typed) records.push({ value: { role, message: { content: [{ type: 'text', text: typed }] } }, line: start });
    } else assistantRecords(lines, start, i, records, waiting);
  }
  return records;
}

/** An assistant's lines `[from, to)`: its prose, thinking and calls in order, each tool result a record of its own. */
function assistantRecords(lines: readonly string[], from: number, to: number, records: JsonLine[], waiting: string[]): void {
  let blocks: Block[] = [];
  let blocksLine = from + 1;
  let prose: string[] = [];
  const flushProse = () => {
    const said = prose.join('\n').trim();
    if (said) blocks.push({ type: 'text', text: said });
    prose = [];
  };
  const flush = () => {
    flushProse();
    if (blocks.length) records.push({ value: { role: 'assistant', message: { content: blocks } }, line: blocksLine });
    blocks = [];
  };
  let i = from;
  while (i < to) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (!isMarker(trimmed)) {
      if (!blocks.length && !prose.length) blocksLine = i + 1;
      prose.push(line);
      i++;
      continue;
    }
    const at = i + 1;
    const bodyStart = ++i;
    while (i < to && !endsBody(lines[i]!)) i++;
    const body = bodyText(lines.slice(bodyStart, i));
    if (trimmed.startsWith('[Tool result]')) {
      flush();
      const callId = waiting.pop();
      records.push({
        value: { role: 'tool', message: { content: [{ type: 'tool_result', ...(callId ? { tool_use_id: callId } : {}), content: body }] } },
        line: at,
      });
      blocksLine = i + 1;
      continue;
    }
    flushProse();
    if (!blocks.length) blocksLine = at;
    if (trimmed.startsWith('[Thinking]')) {
      if (body) blocks.push({ type: 'thinking', thinking: body });
    } else {
      const name = trimmed.slice('[Tool call] '.length).trim() || 'unknown';
      const id = `call-${at}`;
      waiting.push(id);
      blocks.push({ type: 'tool_use', id, name, input: callInput(name, body) });
    }
  }
  flush();
}
