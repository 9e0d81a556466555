// The Devin CLI's sessions.db as a container: lists the visible sessions with a version each, reads one (its main chain) into the canonical model.
import { createHash } from 'node:crypto';
import type { Message, Session, SourceFile } from '../../../shared/session.ts';
import { Fields, WarningList } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { withReadOnlyStore } from '../sqlite-file.ts';
import { ownRows } from '../store-rows.ts';
import { UnreadableError, type ContainedSession, type StoreRows } from '../types.ts';
import { branchOperations } from './devin-branches.ts';
import { splitTree } from './devin-chain.ts';
import { devinMessage, type DevinTally } from './devin-messages.ts';
import { buildDevinSession } from './devin-session.ts';
import { DevinStore } from './devin-store.ts';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export async function listDevinStore(absPath: string): Promise<ContainedSession[]> {
  return withReadOnlyStore(absPath, (db) => {
    const store = new DevinStore(db);
    const nodes = store.nodeStats();
    return store
      .visibleSessions()
      .filter((row) => typeof row.id === 'string' && row.id !== '')
      .map((row) => {
        const id = row.id as string;
        // Every column of the row (last activity, main chain tip, title ...) and the node count and newest node.
        return {
          id,
          version: createHash('sha1')
            .update(JSON.stringify([Object.values(row), nodes.get(id) ?? '0']))
            .digest('hex')
            .slice(0, 20),
        };
      });
  });
}

/** The store file, the one source file of a session read from it (the wiring watches its WAL; a bundle carries the session's rows). */
async function storeFile(absPath: string): Promise<SourceFile> {
  try {
    const info = await statPath(absPath);
    return { path: absPath, size: info.size, mtimeMs: info.mtimeMs, role: 'primary' };
  } catch (err) {
    throw new UnreadableError('io_error', `Cannot read the Devin store: ${(err as Error).message}`);
  }
}

/** The session's own rows: its sessions row and every node of its tree (abandoned branches too); never another session's. */
export function devinRows(absPath: string, id: string): Promise<StoreRows> {
  return withReadOnlyStore(absPath, (db) => {
    new DevinStore(db); // refuses a file that is no Devin store
    const session = ownRows(db, 'sessions', 'id = ?', [id]);
    if (!session || Object.keys(session.rows).length === 0) throw new UnreadableError('wrong_shape', `The Devin store holds no session "${id}".`);
    // Keyed by row_id (by the rowid where a store has none), as the messages' pointers name them.
    const rows: StoreRows = { sessions: session };
    const nodes = ownRows(db, 'message_nodes', 'session_id = ?', [id], 'row_id');
    if (nodes) rows.message_nodes = nodes;
    return rows;
  });
}

export async function readDevinSession(absPath: string, id: string, now = Date.now()): Promise<Session> {
  const sourceFiles = [await storeFile(absPath)];
  const warnings = new WarningList();
  return withReadOnlyStore(absPath, (db) => {
    const store = new DevinStore(db);
    const row = store.session(id);
    if (!row) throw new UnreadableError('wrong_shape', `The Devin store holds no session "${id}" (it may have been deleted since it was listed).`);
    const session = new Fields(row, `sessions[${id}]`, warnings);
    const { chain, abandoned } = splitTree(store.tree(id), session.number('main_chain_id'), warnings);
    const stored = store.messages(chain.map((n) => n.rowId));
    const tally: DevinTally = { warnings, unknownRoles: new Map(), unknownBlocks: new Map() };
    const messages = chain.map((node) => devinMessage(node, stored.get(node.rowId), tally)).filter((m): m is Message => m !== null);
    for (const [role, n] of tally.unknownRoles) warnings.add('unknown_record_type', `Unknown Devin message role "${role}": ${plural(n, 'message')} skipped.`);
    for (const [type, n] of tally.unknownBlocks) warnings.add('unknown_block_type', `Unknown Devin content item "${type}" (${plural(n, 'item')}) ignored.`);
    const branches = branchOperations(abandoned, store.previews(abandoned.map((n) => n.rowId)));
    return buildDevinSession({ session, messages, branches, sourceFiles, warnings, now });
  });
}

/** `read` on a store: its one visible session, else a reason (each session is listed on its own). */
export async function readOnlyDevinSession(absPath: string, now = Date.now()): Promise<Session> {
  const listed = await listDevinStore(absPath);
  if (listed.length === 1) return readDevinSession(absPath, listed[0]!.id, now);
  throw new UnreadableError(
    'wrong_shape',
    listed.length ? `This store holds ${listed.length} sessions; each is listed on its own.` : 'This store holds no visible sessions.',
  );
}
