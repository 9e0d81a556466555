// Recognises a Droid file from its first records: a `session_start` line, or the stream-json records of `droid exec`.
import type { Head } from '../head.ts';

const STREAM_TYPES = new Set(['system', 'message', 'tool_call', 'tool_result', 'completion', 'error']);

function sessionIdOf(r: Record<string, unknown>): boolean {
  return typeof r.session_id === 'string' || typeof r.sessionId === 'string';
}

/**
 * A stream record only Droid writes: a flat message with `role` and its text (`text`, or `content`), a call with
 * `toolName`, a `completion` with its final text, an `error` naming its `source` (a run that failed before any message).
 */
function isStreamSignal(r: Record<string, unknown>): boolean {
  if (r.type === 'message') return typeof r.role === 'string' && (typeof r.text === 'string' || typeof r.content === 'string');
  if (r.type === 'tool_call') return typeof r.toolName === 'string' && 'parameters' in r;
  if (r.type === 'error') return typeof r.message === 'string' && typeof r.source === 'string';
  return r.type === 'completion' && (typeof r.finalText === 'string' || typeof r.final === 'string');
}

export type DroidDialect = 'session' | 'stream';

/** Which of Droid's two dialects these records are, if either. */
export function droidDialectOf(records: readonly Record<string, unknown>[]): DroidDialect | null {
  const first = records[0];
  if (first?.type === 'session_start' && typeof first.id === 'string') return 'session';
  const stream = records.filter((r) => typeof r.type === 'string' && STREAM_TYPES.has(r.type));
  if (stream.length < 2 || !stream.some(sessionIdOf)) return null;
  return stream.some(isStreamSignal) ? 'stream' : null;
}

export function recognizesDroid(head: Head): boolean {
  return droidDialectOf(head.records()) !== null;
}
