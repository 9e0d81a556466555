// Recognises a Cursor agent transcript from its first records: bare {role, message: {content: [...]}} lines, nothing else.
import { isRecord } from '../coerce.ts';
import type { Head } from '../head.ts';

const ROLES = new Set(['user', 'assistant']);

function isCursorLine(r: Record<string, unknown>): boolean {
  const keys = Object.keys(r);
  if (typeof r.role === 'string') {
    return (
      ROLES.has(r.role) &&
      keys.every((k) => k === 'role' || k === 'message') &&
      isRecord(r.message) &&
      Array.isArray(r.message.content) &&
      Object.keys(r.message).every((k) => k === 'content')
    );
  }
  return r.type === 'turn_ended' && keys.every((k) => k === 'type' || k === 'status');
}

/** Every head record is such a line (Claude Code and others add ids, types and times), and one has a role. */
export function recognizesCursor(head: Head): boolean {
  const records = head.records();
  return records.length > 0 && records.every(isCursorLine) && records.some((r) => typeof r.role === 'string');
}
