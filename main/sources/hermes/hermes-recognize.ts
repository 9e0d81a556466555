// Recognises a Hermes transcript (one JSON document) from its head, wherever the file lies.
import type { Head } from '../head.ts';

/** `{session_id, session_start, messages: [...]}` with the platform or last_updated Hermes writes beside them. */
export function recognizesHermes(head: Head): boolean {
  const doc = head.document();
  if (!doc || typeof doc.session_id !== 'string' || typeof doc.session_start !== 'string' || !Array.isArray(doc.messages)) return false;
  return typeof doc.platform === 'string' || typeof doc.last_updated === 'string';
}
