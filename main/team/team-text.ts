// The search text a team store keeps per session, from the same extraction as the local index: weighted chunks and the identifiers.
import type { Session } from '../../shared/session.ts';
import { extractIndexText, MESSAGE_SEPARATOR } from '../search-index/index-text.ts';
import { createHash } from 'node:crypto';

export type TextWeight = 'A' | 'B' | 'C';

export interface TextChunk {
  weight: TextWeight;
  /** Its place among the chunks of its weight, from 0: a prompt added at the end changes the last prompt chunk only, never the others' places. */
  seq: number;
  body: string;
  /**
   * Where each message begins in the body, in characters (Unicode code points, as PostgreSQL counts them), from 0,
   * in order: a chunk that goes on with a message cut before it starts with 0. Empty for the title's chunk.
   */
  starts: number[];
  /** The message each of `starts` begins (its index in the session), or null for text of no message (project, paths, summary). */
  messages: Array<number | null>;
  /** SHA-256 of the body and its starts: a re-push sends only the chunks whose hash the store does not have at their place. */
  sha256: string;
}

/** A piece of search text and the message it is of (null for none). */
interface Piece {
  text: string;
  message: number | null;
}

export interface TeamText {
  /** Title (A), the user's prompts (B), everything else (C): replies, tool calls and results, summaries, project and paths. */
  chunks: TextChunk[];
  /** Distinct identifiers and paths, space-separated, for substring search through trigrams. */
  idents: string;
}

/**
 * A chunk's most characters: its tsvector stays far below PostgreSQL's 1 MB, and its word positions below 16,383
 * (past which every position is 16,383, so phrases could match across words).
 */
export const CHUNK_CHARS = 24 * 1024;

/** PostgreSQL's text holds no NUL character. */
function clean(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', ' ') : text;
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Characters of `text` as PostgreSQL counts them (code points): a JS string's length counts a pair of UTF-16 surrogates as two. */
export function codePoints(text: string): number {
  let pairs = 0;
  if (/[\uD800-\uDBFF]/.test(text)) for (const _ of text.matchAll(SURROGATE_PAIR)) pairs++;
  return text.length - pairs;
}

/** The chunk's hash: its body, then its starts (a NUL between, which no body holds), so a chunk whose messages moved is sent again. */
function chunkHash(body: string, starts: readonly number[], messages: ReadonlyArray<number | null>): string {
  return createHash('sha256')
    .update(body, 'utf8')
    .update(`\u0000${starts.join(',')}\u0000${messages.join(',')}`, 'utf8')
    .digest('hex');
}

/**
 * Packs pieces into chunks of at most CHUNK_CHARS, one line apart, cutting an overlong piece at a space where one
 * is near; each chunk with where its pieces' messages begin.
 */
function pack(weight: TextWeight, pieces: Piece[], into: TextChunk[]): void {
  let current = '';
  let currentPoints = 0;
  let starts: number[] = [];
  let messages: Array<number | null> = [];
  let seq = 0;
  const flush = () => {
    if (current.trim()) into.push({ weight, seq: seq++, body: current, starts, messages, sha256: chunkHash(current, starts, messages) });
    current = '';
    currentPoints = 0;
    starts = [];
    messages = [];
  };
  const begin = (at: number, message: number | null) => {
    if (message === null && weight === 'A') return;
    starts.push(at);
    messages.push(message);
  };
  for (const raw of pieces) {
    let piece = clean(raw.text);
    if (!piece.trim()) continue;
    if (current && current.length + 1 + piece.length > CHUNK_CHARS) flush();
    while (piece.length > CHUNK_CHARS) {
      const space = piece.lastIndexOf(' ', CHUNK_CHARS);
      let cut = space > CHUNK_CHARS / 2 ? space : CHUNK_CHARS;
      // Never between the two halves of a surrogate pair (each half would become U+FFFD on the way to the server).
      if (cut === CHUNK_CHARS && /[\uD800-\uDBFF]/.test(piece[cut - 1] ?? '')) cut--;
      current = piece.slice(0, cut);
      begin(0, raw.message);
      flush();
      piece = piece.slice(cut);
    }
    const at = current ? currentPoints + 1 : 0;
    begin(at, raw.message);
    current = current ? `${current}\n${piece}` : piece;
    currentPoints = at + codePoints(piece);
  }
  flush();
}

/** The team store's search text of a (redacted) session. */
export function teamText(session: Session): TeamText {
  const text = extractIndexText(session);
  const segments = text.body ? text.body.split(MESSAGE_SEPARATOR) : [];
  const prompts: Piece[] = [];
  const rest: Piece[] = [];
  segments.forEach((segment, i) => (session.messages[i]?.role === 'user' ? prompts : rest).push({ text: segment, message: i }));
  rest.push({ text: text.meta, message: null });
  const chunks: TextChunk[] = [];
  pack('A', [{ text: text.title, message: null }], chunks);
  pack('B', prompts, chunks);
  pack('C', rest, chunks);
  return { chunks, idents: clean(text.idents) };
}
