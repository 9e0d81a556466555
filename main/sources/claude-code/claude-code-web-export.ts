// Claude Code on the web's session document ({loglines: [...]}, the same records a local transcript has one per line), read as a Claude Code session.
import { basename, extname } from 'node:path';
import type { Origin, Session } from '../../../shared/session.ts';
import { isRecord, readDocument } from '../coerce.ts';
import type { Head } from '../head.ts';
import type { JsonLine } from '../jsonl.ts';
import { UnreadableError } from '../types.ts';

const CONVERSATION = new Set(['user', 'assistant', 'system']);

/** A logline that is one of Claude Code's conversation records. */
function isLogline(r: unknown): boolean {
  return isRecord(r) && CONVERSATION.has(r.type as string) && typeof r.uuid === 'string' && isRecord(r.message);
}

/** A JSON document whose `loglines` array holds Claude Code records (checked in the head, which may cut the document). */
export function recognizesClaudeWebExport(head: Head): boolean {
  const doc = head.document();
  if (!doc || !Array.isArray(doc.loglines)) return false;
  if (doc.loglines.length > 0) return doc.loglines.slice(0, 8).some(isLogline);
  // A long document: its head holds the array's first record's opening, with a uuid and a message among its keys.
  const first = /"loglines"\s*:\s*\[\s*(\{[^]{0,4000})/.exec(head.text)?.[1] ?? '';
  return /"type"\s*:\s*"(user|assistant|system)"/.test(first) && /"uuid"\s*:/.test(first) && /"message"\s*:\s*\{/.test(first);
}

/** The loglines as the transcript parser takes them; a record's place is its index in the array. */
export function loglinesOf(value: unknown): { records: JsonLine[]; sessionId: string | null } {
  if (!isRecord(value) || !Array.isArray(value.loglines)) {
    throw new UnreadableError('wrong_shape', 'Not a Claude Code web session: the document has no "loglines" array.');
  }
  const records = value.loglines.map((entry, i) => ({ value: entry as unknown, line: i + 1 }));
  const named = [value.session_id, value.sessionId, value.id].find((v): v is string => typeof v === 'string' && v.length > 0);
  const fromRecords = value.loglines.map((r) => (isRecord(r) && typeof r.sessionId === 'string' ? r.sessionId : null)).find((v) => v !== null);
  return { records, sessionId: named ?? fromRecords ?? null };
}

/** Points every record's origin into the document (`/loglines/<i>`) instead of at a line: the raw view finds it there. */
export function pointIntoDocument(session: Session): Session {
  const point = (o: Origin | null): Origin | null => (o && o.line !== null ? { fileIndex: o.fileIndex, line: null, pointer: `/loglines/${o.line - 1}` } : o);
  return {
    ...session,
    messages: session.messages.map((m) => ({ ...m, origin: point(m.origin) })),
    operations: session.operations.map((op) => ({ ...op, origin: point(op.origin) })),
  };
}

/** Reads the document and hands its loglines and id to the transcript parser. */
export async function readWebExportRecords(
  absPath: string,
): Promise<{ records: JsonLine[]; sessionId: string; ctx: Awaited<ReturnType<typeof readDocument>>['ctx'] }> {
  const { value, ctx } = await readDocument(absPath);
  const { records, sessionId } = loglinesOf(value);
  return { records, sessionId: sessionId ?? basename(absPath, extname(absPath)), ctx };
}
