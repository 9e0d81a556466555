// One pushed session as the team store's columns: facts for filters and lists, the redacted session.json (its head and message chunks), and its search text.
import type { Session } from '../../shared/session.ts';
import { messageChunks, sessionHead, splitSessionBytes, splitSessionJson, type MessageChunk } from './session-chunks.ts';
import { teamText, type TextChunk } from './team-text.ts';

/** A row's session.json bodies are its text (`string`), or that text's UTF-8 bytes where they were cut from session.json's bytes. */
export interface SessionRow<Body extends string | Buffer = string> {
  key: string;
  format: string;
  title: string;
  status: string;
  outcome: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  model: string | null;
  projectName: string | null;
  projectPath: string | null;
  branch: string | null;
  parentKey: string | null;
  messageCount: number;
  totalTokens: number | null;
  costUsd: number | null;
  hasSummary: boolean;
  idents: string;
  /** Bytes of the whole session.json. */
  sizeBytes: number;
  /** SHA-256 of the whole session.json. */
  contentHash: string;
  /** session.json without its messages. */
  head: Body;
  /** Its messages, in chunks with their hashes. */
  messages: Array<Omit<MessageChunk, 'body'> & { body: Body }>;
  /** Its search text, in weighted chunks with their hashes. */
  texts: TextChunk[];
}

/** An ISO time PostgreSQL accepts, or null for a missing or unparsable one. */
function isoOrNull(value: string | null): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * The session's tokens in all, or null where no count can be stored: a damaged count (1e308, which readers hold
 * finite) is past PostgreSQL's bigint, and writing it failed the push's whole batch, again at every push after.
 */
function totalTokens(session: Session): number | null {
  const u = session.usage;
  if (!u) return null;
  const total = Math.round(u.input + u.output + u.cacheRead + u.cacheWrite + u.reasoning);
  return Number.isSafeInteger(total) ? total : null;
}

/**
 * The row of a session from its redacted session.json (`json`, the text that goes out): every column, the title
 * included, is read from that text, never from the session as parsed, so nothing the scan redacted is stored.
 */
export function sessionRow(json: string, contentHash: string, sizeBytes: number, messageChunkChars?: number): SessionRow {
  const session = JSON.parse(json) as Session;
  return rowOf(session, textSplit(json, session, messageChunkChars), contentHash, sizeBytes);
}

/** Head and message chunks cut from the text as it is (no second serialization); from the parsed session if it is laid out otherwise. */
function textSplit(json: string, session: Session, messageChunkChars: number | undefined): Pick<SessionRow, 'head' | 'messages'> {
  return (
    splitSessionJson(json, session.messages.length, messageChunkChars) ?? {
      head: sessionHead(session),
      messages: messageChunks(session.messages, messageChunkChars),
    }
  );
}

/**
 * `sessionRow` given session.json's UTF-8 bytes as well (`bytes`, which `json` was decoded from): the same row, its
 * head and message chunks cut from the bytes (no body encoded again, each hashed as bytes) where the text is laid
 * out as Share writes it. The bodies are copies: `bytes` may be reused once this returns.
 */
export function sessionRowFromBytes(
  json: string,
  bytes: Buffer,
  contentHash: string,
  sizeBytes: number,
  messageChunkChars?: number,
): SessionRow<string | Buffer> {
  const session = JSON.parse(json) as Session;
  const split = splitSessionBytes(json, bytes, session.messages.length, messageChunkChars) ?? textSplit(json, session, messageChunkChars);
  return rowOf<string | Buffer>(session, split, contentHash, sizeBytes);
}

function rowOf<Body extends string | Buffer>(
  session: Session,
  split: Pick<SessionRow<Body>, 'head' | 'messages'>,
  contentHash: string,
  sizeBytes: number,
): SessionRow<Body> {
  const text = teamText(session);
  return {
    key: session.key,
    format: session.format,
    title: session.title,
    status: session.status,
    outcome: session.outcome?.status ?? null,
    createdAt: isoOrNull(session.createdAt),
    updatedAt: isoOrNull(session.updatedAt),
    model: session.model?.name ?? null,
    projectName: session.project.name,
    projectPath: session.project.path,
    branch: session.project.branch,
    parentKey: session.parentKey,
    messageCount: session.messages.length,
    totalTokens: totalTokens(session),
    costUsd: session.cost?.usd ?? null,
    hasSummary: session.summary !== null,
    idents: text.idents,
    sizeBytes,
    contentHash,
    head: split.head,
    messages: split.messages,
    texts: text.chunks,
  };
}
