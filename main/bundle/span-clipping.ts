// Where a found secret may be replaced without breaking its file: inside one JSON string, across the JSON strings a PEM block was split into, inside one run of HTML text.

function backslashesBefore(text: string, at: number): number {
  let n = 0;
  while (at - n - 1 >= 0 && text[at - n - 1] === '\\') n++;
  return n;
}

/** The last `\u` starting at `at` or up to 5 characters before it (where a `\uXXXX` covering `at` starts), or -1. */
function unicodeEscapeAt(text: string, at: number): number {
  for (let u = Math.min(at, text.length - 2); u >= 0 && u > at - 6; u--) if (text.charCodeAt(u) === 0x5c && text.charCodeAt(u + 1) === 0x75) return u;
  return -1;
}

/**
 * Keeps a span inside one JSON string: it starts on no escape's tail, stops at a line break or an
 * unescaped quote, and ends on no escape's head, so replacing it leaves valid JSON.
 */
export function clipToJsonString(text: string, span: { start: number; end: number }): { start: number; end: number } | null {
  let start = span.start;
  if (backslashesBefore(text, start) % 2 === 1) start--;
  else {
    // A `\uXXXX` the span starts inside begins at most 5 characters before it: looked for there only (a search
    // back through the whole text made each finding in a big window cost a pass over it).
    const u = unicodeEscapeAt(text, start);
    if (u !== -1 && backslashesBefore(text, u) % 2 === 0) start = u;
  }
  let end = start;
  while (end < span.end) {
    const c = text[end];
    if (c === '\n' || c === '\r' || c === '"') break;
    end += c === '\\' ? (text[end + 1] === 'u' ? 6 : 2) : 1;
  }
  end = Math.min(end, text.length);
  return end > start ? { start, end } : null;
}

/** Rules whose match is a PEM block, which a format may keep line by line in separate JSON strings (a store's rows document). */
export const PEM_RULES = new Set(['private-key', 'privatekey']);
/** A PEM key of 4096 bits is ~3.3 KB; with a JSON record around each of its lines, well under this. */
const MAX_PEM_SPAN = 16 * 1024;
/** A JSON string's content that can only be part of a PEM block: base64 (escaped line breaks allowed), a header, or its END line. */
const PEM_PIECE = /^(?:[A-Za-z0-9+/=\s]|\\[nrt])*$|^[A-Za-z-]+: [^"\\]*$|^-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/;

/** Where the JSON string whose content starts at `from` ends (its closing quote), or -1 at a line break or `limit`. */
function stringEnd(text: string, from: number, limit: number): number {
  for (let i = from; i < limit; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i;
    else if (c === '\n' || c === '\r') return -1;
  }
  return -1;
}

/**
 * A PEM block that begins in one JSON string and ends in a later one (each line of a text in a string of its own):
 * one span per string value it covers (never an object key or the JSON between), or null when it lies in one
 * string, runs past MAX_PEM_SPAN, does not end in its END line, or passes a string that cannot be part of a key.
 */
export function pemAcrossJsonStrings(text: string, span: { start: number; end: number }): Array<{ start: number; end: number }> | null {
  if (span.end - span.start > MAX_PEM_SPAN || !/PRIVATE KEY(?: BLOCK)?-----$/.test(text.slice(span.start, span.end))) return null;
  const first = clipToJsonString(text, span);
  if (!first || first.end >= span.end || text[first.end] !== '"') return null;
  const pieces = [first];
  let at = first.end + 1;
  while (at < span.end) {
    const open = text.indexOf('"', at);
    if (open === -1 || open >= span.end) break;
    const close = stringEnd(text, open + 1, text.length);
    if (close === -1) return null;
    at = close + 1;
    let next = at;
    while (next < text.length && /\s/.test(text[next] as string)) next++;
    if (text[next] === ':') continue; // an object key
    const end = Math.min(close, span.end);
    if (!PEM_PIECE.test(text.slice(open + 1, end))) return null;
    if (end > open + 1) pieces.push({ start: open + 1, end });
  }
  return pieces.length > 1 ? pieces : null;
}

/** Keeps a span inside one run of HTML text: it stops at the next tag. */
export function clipToHtmlText(text: string, span: { start: number; end: number }): { start: number; end: number } | null {
  const tag = text.indexOf('<', span.start);
  const end = tag === -1 ? span.end : Math.min(span.end, tag);
  return end > span.start ? { start: span.start, end } : null;
}
