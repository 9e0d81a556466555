// A contained session prepared for a bundle: its session.json names its rows document as its one source, which goes into the bundle instead of the store.
import type { Session } from '../../shared/session.ts';
import { prepareSession, type PreparedSession, type ShareSpec } from '../bundle/prepare-session.ts';
import type { StoreShelf } from '../bundle/session-json.ts';
import type { ScanContext } from '../bundle/secret-scan.ts';
import { containedRowsDocument } from './contained-read.ts';

/**
 * The store holds every other session of its agent (their private data): a bundle never carries it. The session
 * goes as session.json and its own rows (rows-document.ts), named `<store>.<id>.session-rows.json`; the head keeps
 * the store as the session's file, so the roots check (session-gate.ts) judges the store's real path.
 */
export async function preparedContained(
  session: Session,
  path: string,
  ctx: ScanContext | null,
  emit: boolean,
  shelf: StoreShelf,
  share?: ShareSpec,
): Promise<PreparedSession> {
  const doc = await containedRowsDocument(path);
  const bytes = Buffer.from(doc.text, 'utf8');
  const shared: Session = { ...session, sourceFiles: [{ path: doc.path, size: bytes.length, mtimeMs: doc.mtimeMs, role: 'primary' }] };
  const prepared = await prepareSession(shared, ctx, emit, shelf, share);
  return {
    ...prepared,
    head: { ...prepared.head, sourceFiles: session.sourceFiles },
    inline: [{ path: doc.path, bytes, mtimeMs: doc.mtimeMs, role: 'primary' }],
  };
}
