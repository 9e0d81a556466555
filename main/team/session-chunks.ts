// How the team store keeps a session.json: its head (everything but the messages) and its messages in chunks, each with its SHA-256, so a session that grew sends only its new and changed tail chunks.
import { isUtf8 } from 'node:buffer';
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

/** Where session.json's messages lie in its text: the array's inside (`from` to `end`) and each chunk's slice of it. */
interface MessageCuts {
  from: number;
  end: number;
  chunks: Array<[number, number]>;
}

/**
 * Where session.json as Share writes it (`JSON.stringify(session, null, 2)`) cuts into a head and message chunks:
 * each chunk a slice of the text (its messages and the commas between them). `messageCount` is checked against the
 * messages found; null when the text is not laid out so.
 */
function messageCuts(json: string, messageCount: number, chunkChars: number): MessageCuts | null {
  const open = json.indexOf(MESSAGES_OPEN);
  if (open < 0) return null;
  const from = open + MESSAGES_OPEN.length;
  if (json.startsWith(']', from)) return messageCount === 0 ? { from, end: from, chunks: [] } : null;
  const end = json.indexOf('\n  ]', from);
  if (end < 0 || !json.startsWith('\n    {', from) || !json.startsWith('\n    }', end - 6)) return null;
  const chunks: Array<[number, number]> = [];
  let chunkStart = from;
  let found = 0;
  for (let at = from; ;) {
    const between = json.indexOf(BETWEEN, at);
    const last = between < 0 || between >= end;
    const messageEnd = last ? end : between + 6;
    found++;
    if (last) {
      chunks.push([chunkStart, messageEnd]);
      break;
    }
    // The comma after this message is not the chunk's: the next chunk starts at the next message.
    if (messageEnd - chunkStart >= chunkChars) {
      chunks.push([chunkStart, messageEnd]);
      chunkStart = messageEnd + 1;
    }
    at = messageEnd + 1;
  }
  return found === messageCount ? { from, end, chunks } : null;
}

/**
 * The head and message chunks of session.json as Share writes it, cut from its text, with no second
 * serialization: each chunk is a slice of the text in brackets, a JSON array. Null when the text is not laid out
 * so (then `sessionHead` and `messageChunks` do it from the parsed session).
 */
export function splitSessionJson(json: string, messageCount: number, chunkChars = MESSAGE_CHUNK_CHARS): { head: string; messages: MessageChunk[] } | null {
  const cuts = messageCuts(json, messageCount, chunkChars);
  if (!cuts) return null;
  const messages = cuts.chunks.map(([a, b], chunk) => {
    const body = `[${json.slice(a, b)}]`;
    return { chunk, body, sha256: sha256Text(body) };
  });
  return { head: cuts.chunks.length ? `${json.slice(0, cuts.from)}${json.slice(cuts.end)}` : json, messages };
}

/** A message chunk as UTF-8 bytes. */
export type MessageChunkBytes = Omit<MessageChunk, 'body'> & { body: Buffer };

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/**
 * `splitSessionJson` of `json` given its UTF-8 bytes too (`bytes`, what it was decoded from): the same head and
 * chunks, as UTF-8 bytes cut from `bytes` (copies: `bytes` may be reused after) and hashed as bytes, so no body is
 * encoded again (hashing a string encodes it first). Null where `splitSessionJson` gives null, or when `bytes` is not valid UTF-8 (then its text is not
 * the bytes decoded one for one, and the caller cuts the text).
 */
export function splitSessionBytes(
  json: string,
  bytes: Buffer,
  messageCount: number,
  chunkChars = MESSAGE_CHUNK_CHARS,
): { head: Buffer; messages: MessageChunkBytes[] } | null {
  const cuts = messageCuts(json, messageCount, chunkChars);
  if (!cuts || !isUtf8(bytes)) return null;
  // Each place in the text as a byte offset, in order: the bytes of the text between two places, counted once.
  let char = 0;
  let byte = 0;
  const byteAt = (at: number) => {
    byte += Buffer.byteLength(json.slice(char, at), 'utf8');
    char = at;
    return byte;
  };
  const from = byteAt(cuts.from);
  const messages = cuts.chunks.map(([a, b], chunk) => {
    const body = Buffer.concat([OPEN, bytes.subarray(byteAt(a), byteAt(b)), CLOSE]);
    return { chunk, body, sha256: createHash('sha256').update(body).digest('hex') };
  });
  if (!messages.length) return { head: Buffer.from(bytes), messages };
  const end = byteAt(cuts.end);
  return { head: Buffer.concat([bytes.subarray(0, from), bytes.subarray(end)]), messages };
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
