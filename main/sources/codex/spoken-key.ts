// The key an event's echo and the Codex response item it repeats share, so the echo is dropped when the item is there.
import type { MessageRole } from '../../../shared/session.ts';

/** Whether a UTF-16 code unit is whitespace as a JavaScript regular expression's `\s` matches it. */
function isSpace(c: number): boolean {
  if (c > 32 && c < 0xa0) return false;
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * What an event's echo and the response item it repeats have in common: the role, the kind, and the text with each run
 * of whitespace as one space and none at either end, as two 32-bit hashes and its length (not the text itself: on the
 * realistic corpus's Codex rollouts, collapsing the whitespace of every message with a regular expression, and using
 * the long result as a map key, was a third of their read).
 */
export function spokenKey(role: MessageRole, kind: 'text' | 'thinking', text: string): string {
  let fnv = 0x811c9dc5;
  let poly = 0;
  let length = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      space = length > 0;
      continue;
    }
    if (space) {
      fnv = Math.imul(fnv ^ 32, 0x01000193);
      poly = (Math.imul(poly, 31) + 32) | 0;
      length++;
      space = false;
    }
    fnv = Math.imul(fnv ^ c, 0x01000193);
    poly = (Math.imul(poly, 31) + c) | 0;
    length++;
  }
  return `${role}\u0000${kind}\u0000${length}:${fnv >>> 0}:${poly >>> 0}`;
}
