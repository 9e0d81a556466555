// The read worker's side of stores that hold many sessions: a store's listing, one contained session, its rows document, and a kept or imported rows document read back.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Session } from '../../shared/session.ts';
import { containedRef, storeReader } from '../catalogue/contained-sessions.ts';
import { materializeRows, parseRowsDocument, renderRowsDocument, rowsDocumentPath } from '../catalogue/rows-document.ts';
import { readers } from '../sources/registry.ts';
import { UnreadableError, type ContainedSession } from '../sources/types.ts';

/** The sessions of a store, by its reader's listing query. */
export async function listContained(path: string): Promise<{ sessions: ContainedSession[] }> {
  const found = storeReader(path);
  if (!found) throw new UnreadableError('wrong_shape', 'No reader lists sessions in this file.');
  return { sessions: await found.container.list(path) };
}

/** One session of a store, read by its reader (`path` is `<store>#<id>`). */
export async function readContained(path: string): Promise<Session> {
  const ref = containedRef(path);
  if (!ref) throw new UnreadableError('wrong_shape', 'Not a session inside a store.');
  return ref.container.readOne(ref.store, ref.id);
}

/** The contained session's own rows as a rows document, and the name it goes by beside the store. */
export async function containedRowsDocument(path: string): Promise<{ text: string; path: string; mtimeMs: number }> {
  const ref = containedRef(path);
  if (!ref) throw new UnreadableError('wrong_shape', 'Not a session inside a store.');
  if (!ref.container.rows)
    throw new UnreadableError('unsupported_version', `The ${ref.reader.format} reader cannot separate one session's rows from its store.`);
  const [rows, info] = await Promise.all([ref.container.rows(ref.store, ref.id), stat(ref.store)]);
  return { text: renderRowsDocument(ref.reader.format, ref.store, ref.id, rows), path: rowsDocumentPath(ref.store, ref.id), mtimeMs: info.mtimeMs };
}

/** What a store's file looks like to `stillCurrent`: the store and its WAL, where a write lands before it is checkpointed. */
export async function storeFingerprint(path: string): Promise<string> {
  const ref = containedRef(path);
  const store = ref?.store ?? path;
  const facts = await Promise.all(
    [store, `${store}-wal`].map((p) =>
      stat(p).then(
        (s) => `${s.size}:${s.mtimeMs}`,
        () => '-',
      ),
    ),
  );
  return facts.join('|');
}

/**
 * A kept copy's or a bundle's rows document read back: its rows written into a private SQLite file, read by the
 * store's own reader, and named as the document (its only source file). The private file is removed at once.
 */
export async function readRowsDocument(path: string): Promise<Session> {
  const [bytes, info] = await Promise.all([readFile(path), stat(path)]);
  const doc = parseRowsDocument(bytes.toString('utf8'));
  const reader = readers.find((r) => r.format === doc.source.format && r.container);
  if (!reader?.container)
    throw new UnreadableError('unsupported_version', `The rows document is from ${JSON.stringify(doc.source.format)}, a store this app does not read.`);
  const dir = await mkdtemp(join(tmpdir(), 'session-vault-rows-'));
  try {
    // The store's own name, so a reader that looks at it sees what it saw.
    const db = join(dir, basename(doc.source.store) || 'store.db');
    try {
      materializeRows(doc, db);
    } catch (err) {
      throw new UnreadableError('wrong_shape', `The rows document's tables cannot be rebuilt: ${err instanceof Error ? err.message : String(err)}`);
    }
    const session = await reader.container.readOne(db, doc.source.session);
    const own = { path, size: info.size, mtimeMs: info.mtimeMs, role: 'primary' as const };
    // The private file is gone once read: the document is the session's one file.
    return { ...session, sourceFiles: [own, ...session.sourceFiles.filter((f) => !f.path.startsWith(dir))] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
