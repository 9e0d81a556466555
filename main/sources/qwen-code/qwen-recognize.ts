// Recognises a Qwen Code chat from its first records: Claude-like uuid/parentUuid envelopes around Gemini-style `parts`.
import { isRecord } from '../coerce.ts';
import type { Head } from '../head.ts';
import { splitGlued } from './qwen-lines.ts';

const TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);

/** Where two records on one line meet. */
const GLUE = /\}\s*\{/;

function isQwenRecord(r: unknown): boolean {
  if (!isRecord(r) || typeof r.uuid !== 'string' || !('parentUuid' in r) || typeof r.sessionId !== 'string' || !TYPES.has(r.type as string)) return false;
  return isRecord(r.message) && Array.isArray(r.message.parts) && typeof r.cwd === 'string';
}

/** One such record among the first lines; a first line of records glued together (a crashed append) is read apart. */
export function recognizesQwen(head: Head): boolean {
  if (head.records().some(isQwenRecord)) return true;
  const end = head.text.indexOf('\n');
  if (end < 0 && !head.complete) return false;
  const line = end < 0 ? head.text : head.text.slice(0, end);
  // Two records glued together meet at a `}` and a `{`: a line without one is not read again character by character
  // (every other format's file was, 5-8% of recognising 10,000 loose files).
  if (!GLUE.test(line)) return false;
  const first = splitGlued(line);
  return first !== null && isQwenRecord(first[0]);
}
