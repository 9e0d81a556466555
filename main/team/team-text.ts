// The search text a team store keeps per session, from the same extraction as the local index: weighted chunks and the identifiers.
import type { Session } from '../../shared/session.ts';
import { extractIndexText, MESSAGE_SEPARATOR } from '../search-index/index-text.ts';
import { sha256Text } from './session-chunks.ts';

export type TextWeight = 'A' | 'B' | 'C';

export interface TextChunk {
  weight: TextWeight;
  /** Its place among the chunks of its weight, from 0: a prompt added at the end changes the last prompt chunk only, never the others' places. */
  seq: number;
  body: string;
  /** SHA-256 of the body: a re-push sends only the chunks whose hash the store does not have at their place. */
  sha256: string;
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

/** Packs pieces into chunks of at most CHUNK_CHARS, cutting an overlong piece at a space where one is near. */
function pack(weight: TextWeight, pieces: string[], into: TextChunk[]): void {
  let current = '';
  let seq = 0;
  const flush = () => {
    if (current.trim()) into.push({ weight, seq: seq++, body: current, sha256: sha256Text(current) });
    current = '';
  };
  for (const raw of pieces) {
    let piece = clean(raw);
    if (!piece.trim()) continue;
    if (current && current.length + 1 + piece.length > CHUNK_CHARS) flush();
    while (piece.length > CHUNK_CHARS) {
      const space = piece.lastIndexOf(' ', CHUNK_CHARS);
      const cut = space > CHUNK_CHARS / 2 ? space : CHUNK_CHARS;
      current = piece.slice(0, cut);
      flush();
      piece = piece.slice(cut);
    }
    current = current ? `${current}\n${piece}` : piece;
  }
  flush();
}

/** The team store's search text of a (redacted) session. */
export function teamText(session: Session): TeamText {
  const text = extractIndexText(session);
  const segments = text.body ? text.body.split(MESSAGE_SEPARATOR) : [];
  const prompts: string[] = [];
  const rest: string[] = [];
  segments.forEach((segment, i) => (session.messages[i]?.role === 'user' ? prompts : rest).push(segment));
  rest.push(text.meta);
  const chunks: TextChunk[] = [];
  pack('A', [text.title], chunks);
  pack('B', prompts, chunks);
  pack('C', rest, chunks);
  return { chunks, idents: clean(text.idents) };
}
