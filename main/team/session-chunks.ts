// How the team store keeps a session.json: its head (everything but the messages) and its messages in chunks, each with its SHA-256, so a session that grew sends only its new and changed tail chunks.
import { createHash } from 'node:crypto';
import type { Session } from '../../shared/session.ts';

/**
 * A chunk closes once its JSON reaches this many characters. Chunks are cut from the first message on, so the
 * messages a session gains change only its last chunk (and add new ones): the earlier ones keep their hashes.
 */
export const MESSAGE_CHUNK_CHARS = 64 * 1024;

export interface MessageChunk {
  /** Its place among the session's chunks, from 0. */
  chunk: number;
  /** A JSON array of the chunk's messages, as JSON.stringify writes it. */
  body: string;
  sha256: string;
}

export const sha256Text = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The session without its messages (an empty array where they were, so the key order stays as it was). */
export function sessionHead(session: Session): string {
  return JSON.stringify({ ...session, messages: [] });
}

/** The session's messages in chunks of about `chunkChars` characters of JSON (a message is never cut). */
export function messageChunks(messages: readonly unknown[], chunkChars = MESSAGE_CHUNK_CHARS): MessageChunk[] {
  const chunks: MessageChunk[] = [];
  let pieces: string[] = [];
  let chars = 0;
  const close = () => {
    const body = `[${pieces.join(',')}]`;
    chunks.push({ chunk: chunks.length, body, sha256: sha256Text(body) });
    pieces = [];
    chars = 0;
  };
  for (const message of messages) {
    const json = JSON.stringify(message);
    pieces.push(json);
    chars += json.length + 1;
    if (chars >= chunkChars) close();
  }
  if (pieces.length) close();
  return chunks;
}

/** Where the top-level messages array opens in session.json as Share writes it (two-space indentation: no other key is at this depth). */
const MESSAGES_OPEN = '\n  "messages": [';
/** Between two messages of that array: one closes at four spaces' indentation and the next opens (a string holds no raw line break). */
const BETWEEN = '\n    },\n    {';

/**
 * The head and message chunks of session.json as Share writes it (`JSON.stringify(session, null, 2)`), cut from
 * its text, with no second serialization: each chunk is a slice of the text (its messages and the commas between
 * them) in brackets, a JSON array. `messageCount` is checked against the messages found; null when the text is not
 * laid out so (then `sessionHead` and `messageChunks` do it from the parsed session).
 */
export function splitSessionJson(json: string, messageCount: number, chunkChars = MESSAGE_CHUNK_CHARS): { head: string; messages: MessageChunk[] } | null {
  const open = json.indexOf(MESSAGES_OPEN);
  if (open < 0) return null;
  const from = open + MESSAGES_OPEN.length;
  if (json.startsWith(']', from)) return messageCount === 0 ? { head: json, messages: [] } : null;
  const end = json.indexOf('\n  ]', from);
  if (end < 0 || !json.startsWith('\n    {', from) || !json.startsWith('\n    }', end - 6)) return null;
  const messages: MessageChunk[] = [];
  let chunkStart = from;
  let found = 0;
  const close = (at: number) => {
    const body = `[${json.slice(chunkStart, at)}]`;
    messages.push({ chunk: messages.length, body, sha256: sha256Text(body) });
  };
  for (let at = from; ;) {
    const between = json.indexOf(BETWEEN, at);
    const last = between < 0 || between >= end;
    const messageEnd = last ? end : between + 6;
    found++;
    if (last) {
      close(messageEnd);
      break;
    }
    // The comma after this message is not the chunk's: the next chunk starts at the next message.
    if (messageEnd - chunkStart >= chunkChars) {
      close(messageEnd);
      chunkStart = messageEnd + 1;
    }
    at = messageEnd + 1;
  }
  if (found !== messageCount) return null;
  return { head: `${json.slice(0, from)}${json.slice(end)}`, messages };
}

/** The stored session again: its head with the messages of its chunks, in order. */
export function assembleSession(head: string, bodies: readonly string[]): Session {
  const session = JSON.parse(head) as Session;
  const messages: Session['messages'] = [];
  for (const body of bodies) for (const m of JSON.parse(body) as Session['messages']) messages.push(m);
  session.messages = messages;
  return session;
}

/** session.json as a bundle carries it (and as its content hash was taken): byte for byte what Share writes. */
export function sessionJsonText(session: Session): string {
  return `${JSON.stringify(session, null, 2)}\n`;
}
