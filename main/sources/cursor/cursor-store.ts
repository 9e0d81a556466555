// Finds and reads a Cursor transcript's chat store (chats/<md5 of the workspace path>/<id>/store.db): name, creation time, model.
import { join } from 'node:path';
import type { SourceFile } from '../../../shared/session.ts';
import { isRecord } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { listFolder, statPath } from '../file-bytes.ts';
import { hasTables, withReadOnlyStore } from '../sqlite-file.ts';
import { UnreadableError } from '../types.ts';
import { resolveWorkspace } from './cursor-workspace.ts';

export interface CursorChatMeta {
  name: string | null;
  createdAt: string | null;
  /** The model last chosen for the chat; "default" when Cursor picked it. */
  model: string | null;
  mode: string | null;
}

export interface CursorStoreFacts {
  /** The workspace path, when a decoding of the project folder has the chats folder's md5 name. */
  workspacePath: string | null;
  meta: CursorChatMeta | null;
  file: SourceFile | null;
  /** Why the store that exists could not be used. */
  problem: string | null;
}

/** Epoch seconds, milliseconds, microseconds or nanoseconds (Cursor builds differ) as ISO time. */
export function epochIso(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  const ms = value < 1e11 ? value * 1000 : value < 1e14 ? value : value < 1e17 ? value / 1e3 : value / 1e6;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** meta row "0": JSON, hex-encoded as the CLI writes it (or plain). */
export function decodeMeta(value: unknown): CursorChatMeta {
  const text = value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : String(value ?? '');
  const json = /^([0-9a-f]{2})+$/i.test(text.trim()) ? Buffer.from(text.trim(), 'hex').toString('utf8') : text;
  const doc: unknown = JSON.parse(json);
  if (!isRecord(doc)) throw new Error('its meta row is not a JSON object');
  const str = (k: string) => (typeof doc[k] === 'string' && doc[k] !== '' ? (doc[k] as string) : null);
  return { name: str('name'), createdAt: epochIso(doc.createdAt), model: str('lastUsedModel'), mode: str('mode') };
}

function readMeta(path: string): Promise<CursorChatMeta> {
  return withReadOnlyStore(path, (db) => {
    if (!hasTables(db, ['meta'])) throw new UnreadableError('wrong_shape', 'it has no meta table');
    const row = db.prepare("SELECT value FROM meta WHERE key = '0'").get() as { value?: unknown } | undefined;
    if (!row) throw new UnreadableError('wrong_shape', 'its meta table has no row "0"');
    return decodeMeta(row.value);
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await statPath(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The store of session `sessionId` under `<cursorHome>/chats`: found by the md5 of the decoded workspace path, else
 * by looking for the id in every workspace folder. Used only when its real path stays inside that chats folder
 * (the companion rule of issue #20, with the Cursor home as the session's own place: the store lives beside the
 * transcripts' projects/ folder, not inside the transcript's folder).
 */
export async function readCursorStore(cursorHome: string, projectDir: string, sessionId: string): Promise<CursorStoreFacts> {
  const chats = join(cursorHome, 'chats');
  let hashes: string[];
  try {
    hashes = await listFolder(chats);
  } catch {
    return { workspacePath: null, meta: null, file: null, problem: null };
  }
  const resolved = resolveWorkspace(projectDir, new Set(hashes));
  const candidates = [...(resolved ? [resolved.hash] : []), ...hashes.filter((h) => h !== resolved?.hash)];
  let store: string | null = null;
  for (const hash of candidates) {
    const path = join(chats, hash, sessionId, 'store.db');
    if (await exists(path)) {
      store = path;
      break;
    }
  }
  const workspacePath = resolved?.path ?? null;
  if (!store || !(await companionInside(store, chats))) return { workspacePath, meta: null, file: null, problem: null };
  try {
    const [meta, info] = await Promise.all([readMeta(store), statPath(store)]);
    return { workspacePath, meta, file: { path: store, size: info.size, mtimeMs: info.mtimeMs, role: 'meta' }, problem: null };
  } catch (err) {
    return { workspacePath, meta: null, file: null, problem: (err as Error).message };
  }
}
