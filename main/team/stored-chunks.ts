// What the store already holds of the sessions a push is about to send (each chunk's and file part's hash, by place), and from it what a session's write must carry.
import type { ClientBase } from 'pg';
import type { StoredFiles } from './push-sources.ts';
import type { WireRow } from './push-prepare.ts';
import { qualified } from './team-names.ts';

export interface StoredSession {
  /** Each message chunk's hash, by its place. */
  messages: string[];
  /** Each search-text chunk's hash, by `<weight><seq>`. */
  texts: Map<string, string>;
  /** Each source file's part hashes, by path. */
  files: StoredFiles;
}

const textPlace = (c: { weight: string; seq: number }) => `${c.weight}${c.seq}`;

const emptyStored = (): StoredSession => ({ messages: [], texts: new Map(), files: new Map() });

/**
 * The hashes of what the store holds of `keys` (sessions of `machine`): read once before anything is written, so
 * no query of the push's own runs inside a batch's transaction. Only hashes cross, never bodies.
 */
export async function storedChunks(client: ClientBase, machine: string, keys: string[], withFiles: boolean): Promise<Map<string, StoredSession>> {
  const sessions = new Map<string, StoredSession>();
  if (!keys.length) return sessions;
  const of = (key: string) => {
    let s = sessions.get(key);
    if (!s) sessions.set(key, (s = emptyStored()));
    return s;
  };
  const messages = await client.query<{ key: string; chunk: number; sha256: string }>(
    `SELECT key, chunk, sha256 FROM ${qualified('session_messages')} WHERE machine = $1 AND key = ANY($2::text[])`,
    [machine, keys],
  );
  for (const r of messages.rows) of(r.key).messages[r.chunk] = r.sha256;
  const texts = await client.query<{ key: string; weight: string; seq: number; sha256: string }>(
    `SELECT key, weight, seq, sha256 FROM ${qualified('session_texts')} WHERE machine = $1 AND key = ANY($2::text[])`,
    [machine, keys],
  );
  for (const r of texts.rows) of(r.key).texts.set(textPlace(r), r.sha256);
  if (withFiles) {
    const parts = await client.query<{ key: string; path: string; part: number; sha256: string }>(
      `SELECT key, path, part, sha256 FROM ${qualified('file_parts')} WHERE machine = $1 AND key = ANY($2::text[])`,
      [machine, keys],
    );
    for (const r of parts.rows) {
      const files = of(r.key).files;
      const hashes = files.get(r.path) ?? [];
      hashes[r.part] = r.sha256;
      files.set(r.path, hashes);
    }
  }
  return sessions;
}

/**
 * The sessions of `machine` with search text pushed before the store kept where messages begin (schema 5): a push
 * sends them again even when they did not change, and then they have it. Read through a partial index that
 * holds those rows only (empty once every session was pushed again).
 */
export async function sessionsWithoutStarts(client: ClientBase, machine: string): Promise<Set<string>> {
  const { rows } = await client.query<{ key: string }>(`SELECT DISTINCT key FROM ${qualified('session_texts')} WHERE machine = $1 AND message_starts IS NULL`, [
    machine,
  ]);
  return new Set(rows.map((r) => r.key));
}

/** One session of a batch: its row, and of its chunks only those the store does not have at their place. */
export interface SessionWrite {
  row: WireRow;
  /** Message chunks to write; stored chunks at or past `row.messages.length` are removed. */
  messages: WireRow['messages'];
  /** Search-text chunks to write. */
  texts: WireRow['texts'];
  /** Search-text chunks the store has as they are: they stay, and every other stored chunk of the session goes. */
  keptTexts: WireRow['texts'];
  /** UTF-8 bytes of the head and the message chunks sent: what of session.json crosses. */
  sessionBytes: number;
}

/** What `row` needs written, given what the store holds of it (nothing, for a session it does not have). */
export function sessionWrite(row: WireRow, stored: StoredSession | undefined): SessionWrite {
  const messages = row.messages.filter((c) => stored?.messages[c.chunk] !== c.sha256);
  const texts: WireRow['texts'] = [];
  const keptTexts: WireRow['texts'] = [];
  for (const c of row.texts) (stored?.texts.get(textPlace(c)) === c.sha256 ? keptTexts : texts).push(c);
  const sessionBytes = row.head.length + messages.reduce((n, c) => n + c.body.length, 0);
  return { row, messages, texts, keptTexts, sessionBytes };
}
