// Hermes's state.db as a container of sessions: lists them (leaving out those a transcript beside it already lists) and reads one.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Session, SourceFile } from '../../../shared/session.ts';
import { WarningList } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { withReadOnlyStore } from '../sqlite-file.ts';
import { ownRows } from '../store-rows.ts';
import { UnreadableError, type ContainedSession, type StoreRows } from '../types.ts';
import { transcriptId, isTranscriptPath } from './hermes-paths.ts';
import { buildHermesSession } from './hermes-session.ts';
import { requireStorePart } from './hermes-store-session.ts';
import { HermesStore, type Row } from './hermes-store.ts';

/**
 * Ids of the transcripts in `<home>/sessions/` (regular files only: the scan does not follow links, so a linked
 * transcript is not listed and its session stays the store's). A session in both stores is listed once, by its
 * transcript, which reads this store's figures in.
 */
async function transcriptIds(home: string): Promise<Set<string>> {
  try {
    const entries = await readdir(join(home, 'sessions'), { withFileTypes: true });
    return new Set(entries.filter((e) => e.isFile() && isTranscriptPath(e.name)).map((e) => transcriptId(e.name)));
  } catch {
    return new Set(); // no sessions folder
  }
}

/** Changes whenever the session moves: its title, end, counts, tokens and cost, its message count and newest message row. */
function versionOf(row: Row, messages: string | undefined): string {
  return createHash('sha1')
    .update(JSON.stringify([Object.values(row), messages ?? '0']))
    .digest('hex')
    .slice(0, 20);
}

export async function listHermesStore(absPath: string): Promise<ContainedSession[]> {
  const transcripts = await transcriptIds(dirname(absPath));
  return withReadOnlyStore(absPath, (db) => {
    const store = new HermesStore(db);
    const stats = store.messageStats();
    return store
      .listing()
      .filter((row) => typeof row.id === 'string' && row.id !== '' && !transcripts.has(row.id))
      .map((row) => ({ id: row.id as string, version: versionOf(row, stats.get(row.id as string)) }));
  });
}

/** The store file, the one source file of a session read from it (its WAL is the wiring's to watch; a bundle carries the session's rows). */
export async function storeFile(absPath: string): Promise<SourceFile> {
  try {
    const info = await statPath(absPath);
    return { path: absPath, size: info.size, mtimeMs: info.mtimeMs, role: 'primary' };
  } catch (err) {
    throw new UnreadableError('io_error', `Cannot read the Hermes store: ${(err as Error).message}`);
  }
}

/** The session's own rows (its sessions row and its messages; never another session's), for the raw view and bundles. */
export function hermesRows(absPath: string, id: string): Promise<StoreRows> {
  return withReadOnlyStore(absPath, (db) => {
    new HermesStore(db); // refuses a file that is no Hermes store
    const rows: StoreRows = {};
    const session = ownRows(db, 'sessions', 'id = ?', [id]);
    if (!session || Object.keys(session.rows).length === 0) throw new UnreadableError('wrong_shape', `The Hermes store holds no session "${id}".`);
    rows.sessions = session;
    const messages = ownRows(db, 'messages', 'session_id = ?', [id]);
    if (messages) rows.messages = messages;
    return rows;
  });
}

export async function readHermesStoreSession(absPath: string, id: string, now = Date.now()): Promise<Session> {
  const sourceFiles = [await storeFile(absPath)];
  const warnings = new WarningList();
  const store = await withReadOnlyStore(absPath, (db) => requireStorePart(new HermesStore(db), id, warnings));
  return buildHermesSession({ id, formatVersion: 'state.db', sourceFiles, transcript: null, store, warnings, now });
}

/** `read` on a store: its one listed session, else a reason (each session is listed on its own). */
export async function readOnlyHermesSession(absPath: string, now = Date.now()): Promise<Session> {
  const listed = await listHermesStore(absPath);
  if (listed.length === 1) return readHermesStoreSession(absPath, listed[0]!.id, now);
  throw new UnreadableError(
    'wrong_shape',
    listed.length
      ? `This store holds ${listed.length} sessions; each is listed on its own.`
      : 'This store holds no sessions of its own (each is listed by its transcript).',
  );
}
