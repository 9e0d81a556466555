// Recognises a Gemini CLI chat (JSON document or 0.40+ JSONL) from its head, wherever the file lies.
import type { Head } from '../head.ts';

function isGeminiHeader(v: Record<string, unknown>): boolean {
  return typeof v.sessionId === 'string' && typeof v.projectHash === 'string';
}

/** JSONL: a `{sessionId, projectHash, ...}` header line. JSON: that header with `messages`, or the legacy `history` of role/parts turns. */
export function recognizesGemini(head: Head): boolean {
  const first = head.records(1)[0];
  if (first && isGeminiHeader(first) && !('messages' in first)) return true;
  const doc = head.document();
  if (!doc) return false;
  if (isGeminiHeader(doc) && Array.isArray(doc.messages)) return true;
  return Array.isArray(doc.history) && (typeof doc.start_time === 'string' || typeof doc.lastUpdated === 'string') && /"parts"\s*:/.test(head.text);
}
