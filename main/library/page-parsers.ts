// The formats whose big sessions are paged from their own lines: each one's parse of a run of records, as its reader parses the whole file.
import type { Message, SourceFormat } from '../../shared/session.ts';
import type { JsonLine } from '../sources/jsonl.ts';
import { parseClaudeCode } from '../sources/claude-code/claude-code.ts';
import { layoutOf } from '../sources/claude-code/claude-code-subagents.ts';
import { parseCodexRollout } from '../sources/codex/codex.ts';
import { isExecStream, parseCodexExec } from '../sources/codex/codex-exec-json.ts';

/**
 * How a format's pages are parsed. `context` is what a page's messages take from the records before it, worked out
 * when the table is built (`contextAt`: from the full read's messages and the last record before the page whose
 * line starts with `marker`) and kept with the page; `parse` gives the messages a run of records makes with it.
 * The session-level facts (title, totals, operations) always come from the full read.
 */
export interface PageParser {
  marker?: string;
  contextAt(messages: readonly Message[], first: number, marked: unknown): string | null;
  parse(records: readonly JsonLine[], path: string, firstLine: number, context: string | null): Message[];
}

/** A fixed clock: messages never depend on it, only the session's status does, and that comes from the full read. */
const NOW = 0;

const claudeCode: PageParser = {
  // Every Claude Code record carries what its message needs.
  contextAt: () => null,
  parse: (records, path) => {
    const ctx = { path, size: 0, mtimeMs: 0, warnings: [], now: NOW, layout: layoutOf(path), meta: null, children: [], extraFiles: [] };
    return parseClaudeCode(records, ctx).messages;
  },
};

/** Records read before a page's own, numbered as the line before it (they make no message). */
function withContext(records: readonly JsonLine[], firstLine: number, context: string | null): JsonLine[] {
  const values = context === null ? [] : (JSON.parse(context) as unknown[]);
  return [...values.map((value) => ({ value, line: Math.max(1, firstLine - 1) })), ...records];
}

const codex: PageParser = {
  // A reply's usage is the difference between two token_count totals: the last one before the page is read first.
  marker: '"token_count"',
  // A reply takes its model from the last turn_context (or message) that named one: the page's first reply's model.
  contextAt: (messages, first, marked) => {
    const model = messages.slice(first).find((m) => m.role === 'assistant')?.model ?? null;
    const values = [...(model === null ? [] : [{ type: 'turn_context', payload: { model } }]), ...(marked === null ? [] : [marked])];
    return values.length ? JSON.stringify(values) : null;
  },
  parse: (records, path, firstLine, context) => {
    const ctx = { path, size: 0, mtimeMs: 0, warnings: [] };
    if (isExecStream(records)) return parseCodexExec(records, ctx).messages;
    return parseCodexRollout(withContext(records, firstLine, context), ctx, NOW).messages;
  },
};

const parsers: Partial<Record<SourceFormat, PageParser>> = { 'claude-code': claudeCode, codex };

/** The parser for a session's format, for plain `.jsonl` files only (a gzipped or document file is read whole). */
export function pageParserFor(format: SourceFormat, path: string): PageParser | null {
  if (!path.toLowerCase().endsWith('.jsonl')) return null;
  return parsers[format] ?? null;
}
