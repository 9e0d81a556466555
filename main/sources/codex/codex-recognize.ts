// Recognises a Codex CLI rollout from its first records, wherever the file lies.
import type { Head } from '../head.ts';

const ENVELOPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

/** A rollout opens with `{timestamp, type: "session_meta", payload}`; a first line too long for the head still shows its prefix. */
export function recognizesCodex(head: Head): boolean {
  const first = head.records(1)[0];
  if (first) return typeof first.timestamp === 'string' && ENVELOPES.has(first.type as string) && typeof first.payload === 'object';
  return /^\{"timestamp":"[^"]{10,40}","type":"session_meta","payload":\{/.test(head.text);
}
