// Goose's sessions.db as a container of sessions: lists them with a version each, reads one into the canonical model.
import { createHash } from 'node:crypto';
import type { Session, SourceFile } from '../../../shared/session.ts';
import { Fields, WarningList } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { withReadOnlyStore } from '../sqlite-file.ts';
import { ownRows } from '../store-rows.ts';
import { UnreadableError, type ContainedSession, type StoreRows } from '../types.ts';
import { gooseMessages } from './goose-messages.ts';
import { buildGooseSession, gooseModel } from './goose-session.ts';
import { GooseStore } from './goose-store.ts';
import { gooseUsage } from './goose-usage.ts';

/** Changes whenever the session moves: its row's changing columns, and its messages' and usage rows' counts and newest rows. */
function versionOf(values: unknown[]): string {
  return createHash('sha1').update(JSON.stringify(values)).digest('hex').slice(0, 20);
}

export async function listGooseStore(absPath: string): Promise<ContainedSession[]> {
  return withReadOnlyStore(absPath, (db) => {
    const store = new GooseStore(db);
    const messages = store.messageStats();
    const ledger = store.ledgerStats();
    return store
      .listing()
      .filter((row) => typeof row.id === 'string' && row.id !== '')
      .map((row) => {
        const id = row.id as string;
        return { id, version: versionOf([Object.values(row), messages.get(id) ?? '0', ledger.get(id) ?? '0']) };
      });
  });
}

/** The store file, the one source file of a session read from it (the wiring watches its WAL; a bundle carries the session's rows). */
async function storeFile(absPath: string): Promise<SourceFile> {
  try {
    const info = await statPath(absPath);
    return { path: absPath, size: info.size, mtimeMs: info.mtimeMs, role: 'primary' };
  } catch (err) {
    throw new UnreadableError('io_error', `Cannot read the Goose store: ${(err as Error).message}`);
  }
}

/** The session's own rows (its sessions row, messages and usage rows; never another session's) and the schema version. */
export function gooseRows(absPath: string, id: string): Promise<StoreRows> {
  return withReadOnlyStore(absPath, (db) => {
    new GooseStore(db); // refuses a file that is no Goose store
    const session = ownRows(db, 'sessions', 'id = ?', [id]);
    if (!session || Object.keys(session.rows).length === 0) throw new UnreadableError('wrong_shape', `The Goose store holds no session "${id}".`);
    const rows: StoreRows = { sessions: session };
    for (const table of ['messages', 'usage_ledger']) {
      const own = ownRows(db, table, 'session_id = ?', [id]);
      if (own) rows[table] = own;
    }
    // Not a session's data: which schema the rows are in, so a copy read from them says so too.
    const version = ownRows(db, 'schema_version', '1 = 1', [], 'version');
    if (version) rows.schema_version = version;
    return rows;
  });
}

export async function readGooseSession(absPath: string, id: string, now = Date.now()): Promise<Session> {
  const sourceFiles = [await storeFile(absPath)];
  const warnings = new WarningList();
  return withReadOnlyStore(absPath, (db) => {
    const store = new GooseStore(db);
    const row = store.session(id);
    if (!row) throw new UnreadableError('wrong_shape', `The Goose store holds no session "${id}" (it may have been deleted since it was listed).`);
    const session = new Fields(row, `sessions[${id}]`, warnings);
    const messages = gooseMessages(store.messages(id), warnings);
    const usage = gooseUsage(session, store.ledger(id), gooseModel(new Fields(row, '', new WarningList()))?.name ?? null, warnings);
    return buildGooseSession({ session, messages, usage, childIds: store.childIds(id), schemaVersion: store.schemaVersion, sourceFiles, warnings, now });
  });
}

/** `read` on a store: its one session, else a reason (each session is listed on its own). */
export async function readOnlyGooseSession(absPath: string, now = Date.now()): Promise<Session> {
  const listed = await listGooseStore(absPath);
  if (listed.length === 1) return readGooseSession(absPath, listed[0]!.id, now);
  throw new UnreadableError(
    'wrong_shape',
    listed.length ? `This store holds ${listed.length} sessions; each is listed on its own.` : 'This store holds no sessions.',
  );
}
