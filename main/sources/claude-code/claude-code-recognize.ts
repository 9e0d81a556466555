// Recognises a Claude Code transcript from its first records, wherever the file lies.
import { isRecord } from '../coerce.ts';
import type { Head } from '../head.ts';

const CONVERSATION = new Set(['user', 'assistant', 'system']);

function isClaudeRecord(r: Record<string, unknown>): boolean {
  if (CONVERSATION.has(r.type as string)) {
    if (typeof r.uuid !== 'string' || typeof r.sessionId !== 'string' || !('parentUuid' in r)) return false;
    const message = isRecord(r.message) ? r.message : null;
    // Qwen Code writes the same envelope around Gemini-style `parts`: not Claude Code's.
    if (message && 'parts' in message) return false;
    return typeof r.isSidechain === 'boolean' || (message !== null && 'content' in message);
  }
  if (r.type === 'summary') return typeof r.leafUuid === 'string';
  if (r.type === 'file-history-snapshot') return typeof r.messageId === 'string' && 'snapshot' in r;
  return false;
}

/** A conversation record (uuid, parentUuid, sessionId, and `isSidechain` or a `message.content`), a `summary` with `leafUuid` or a file-history snapshot. */
export function recognizesClaudeCode(head: Head): boolean {
  return head.records().some(isClaudeRecord);
}
