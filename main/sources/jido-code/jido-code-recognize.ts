// Recognises a JidoCode session (one JSON document) from its head, wherever the file lies.
import type { Head } from '../head.ts';

/** Fields JidoCode writes beside them; a cut head may show only those before the long `conversation`. */
const SESSION_FIELDS = ['project_path', 'created_at', 'closed_at', 'updated_at'];

/** Top-level `conversation` (array) and `config` (object), with one of the session fields JidoCode writes. */
export function recognizesJidoCode(head: Head): boolean {
  const doc = head.document();
  if (!doc || !Array.isArray(doc.conversation) || typeof doc.config !== 'object' || doc.config === null) return false;
  return SESSION_FIELDS.some((f) => typeof doc[f] === 'string');
}
