// Reads a session of OpenCode's legacy storage/ JSON tree: session/<project>/<id>.json, message/<id>/*.json, part/<message>/*.json (or the older part/<session>/<message>/*.json, or flat part/*.json naming their message).
import { basename, join } from 'node:path';
import type { SourceFile } from '../../../shared/session.ts';
import { isRecord, readDocument, WarningList, notAnObject } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { listFolder, statPath } from '../file-bytes.ts';
import { UnreadableError } from '../types.ts';
import { storageRootOf } from './opencode-layout.ts';
import { epochMs, objectOf, text, type OcPart, type OcRecord, type OcRows, type OcSessionInfo } from './opencode-rows.ts';

/** Ids become folder names: only the characters OpenCode's ids use, so no id can name a folder outside the tree. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,200}$/;

function infoFrom(doc: Record<string, unknown>, id: string): OcSessionInfo {
  const time = isRecord(doc.time) ? doc.time : {};
  const share = isRecord(doc.share) ? doc.share : {};
  return {
    id,
    title: text(doc.title),
    parentId: text(doc.parentID),
    projectId: text(doc.projectID),
    directory: text(doc.directory),
    slug: text(doc.slug),
    version: text(doc.version),
    createdMs: epochMs(time.created),
    updatedMs: epochMs(time.updated),
    archivedMs: epochMs(time.archived),
    compactingMs: epochMs(time.compacting),
    agent: text(doc.agent),
    model: objectOf(doc.model),
    shareUrl: text(share.url),
    summary: isRecord(doc.summary) ? doc.summary : null,
    origin: { fileIndex: 0, line: null, pointer: '' },
  };
}

/** The `.json` files of a folder inside the storage tree (real path checked), sorted by name; none when it is absent. */
async function jsonFiles(folder: string, storage: string): Promise<string[]> {
  if (!(await companionInside(folder, storage))) return [];
  let names: string[];
  try {
    names = await listFolder(folder);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
    const path = join(folder, name);
    if (await companionInside(path, storage)) files.push(path);
  }
  return files;
}

/** Flat part indexes by tree, kept while their part/ folder's time stands: a current tree's part/ holds a folder per message. */
const flatIndexes = new Map<string, { mtimeMs: number; byMessage: Map<string, string[]> }>();

/** The flat part files of a tree (part/<part>.json, each naming its message in `messageID`) by message id, sorted by name. */
async function flatParts(storage: string, warnings: WarningList): Promise<Map<string, string[]>> {
  const folder = join(storage, 'part');
  const mtimeMs = (await statPath(folder).catch(() => null))?.mtimeMs ?? -1;
  const known = flatIndexes.get(storage);
  if (known && known.mtimeMs === mtimeMs) return known.byMessage;
  const byMessage = new Map<string, string[]>();
  for (const file of await jsonFiles(folder, storage)) {
    const loaded = await load(file, 'payload', warnings, 'Part');
    const messageId = text(loaded?.record?.messageID);
    if (!messageId) continue;
    const list = byMessage.get(messageId) ?? [];
    list.push(file);
    byMessage.set(messageId, list);
  }
  if (flatIndexes.size >= 8) flatIndexes.delete(flatIndexes.keys().next().value!);
  flatIndexes.set(storage, { mtimeMs, byMessage });
  return byMessage;
}

interface Loaded {
  record: Record<string, unknown> | null;
  file: SourceFile;
}

async function load(path: string, role: SourceFile['role'], warnings: WarningList, what: string): Promise<Loaded | null> {
  try {
    const { value, ctx } = await readDocument(path);
    warnings.addAll(ctx.warnings);
    if (!isRecord(value)) warnings.add('wrong_shape', `${what} ${basename(path)} is not a JSON object; it was left out.`);
    return { record: isRecord(value) ? value : null, file: { path, size: ctx.size, mtimeMs: ctx.mtimeMs, role } };
  } catch (err) {
    warnings.add('unreadable_file', `${what} ${basename(path)} cannot be read (${err instanceof Error ? err.message : String(err)}); it was left out.`);
    return null;
  }
}

/** A project's worktree from `storage/project/<id>.json`, where the session does not name its directory. */
async function worktreeOf(storage: string, projectId: string | null, warnings: WarningList): Promise<string | null> {
  if (!projectId || !SAFE_ID.test(projectId)) return null;
  const path = join(storage, 'project', `${projectId}.json`);
  if (!(await companionInside(path, storage))) return null;
  const loaded = await load(path, 'meta', warnings, 'Project');
  return text(loaded?.record?.worktree);
}

/** Reads one legacy session file with its messages and parts into the rows the session is built from. */
export async function loadStorageSession(absPath: string, label: string): Promise<OcRows> {
  const { value, ctx } = await readDocument(absPath);
  if (!isRecord(value)) throw notAnObject(value, `${label} session`);
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const fileId = basename(absPath, '.json');
  const id = text(value.id) ?? fileId;
  if (!text(value.id)) warnings.add('missing_field', `The session file has no id; its file name (${fileId}) is used.`);
  if (!SAFE_ID.test(id))
    throw new UnreadableError('wrong_shape', `Not an ${label} session: its id ${JSON.stringify(id.slice(0, 40))} is not one ${label} writes.`);
  const info = infoFrom(value, id);
  if (info.createdMs === null && info.title === null) {
    throw new UnreadableError('wrong_shape', `Not an ${label} session: the file has neither a title nor a creation time.`);
  }
  const storage = storageRootOf(absPath);
  const sourceFiles: SourceFile[] = [{ path: absPath, size: ctx.size, mtimeMs: ctx.mtimeMs, role: 'primary' }];
  const messages: OcRecord[] = [];
  const parts: OcPart[] = [];
  for (const file of await jsonFiles(join(storage, 'message', id), storage)) {
    const loaded = await load(file, 'transcript', warnings, 'Message');
    if (!loaded) continue;
    sourceFiles.push(loaded.file);
    const time = isRecord(loaded.record?.time) ? loaded.record.time : {};
    messages.push({
      id: text(loaded.record?.id) ?? basename(file, '.json'),
      messageId: null,
      createdMs: epochMs(time.created),
      data: loaded.record,
      origin: { fileIndex: sourceFiles.length - 1, line: null, pointer: '' },
    });
  }
  messages.sort((a, b) => (a.createdMs ?? 0) - (b.createdMs ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let flat: Map<string, string[]> | undefined;
  for (const message of messages) {
    if (!SAFE_ID.test(message.id)) {
      warnings.add('wrong_shape', `Message ${JSON.stringify(message.id.slice(0, 40))} has an id ${label} does not write; its parts were not looked for.`);
      continue;
    }
    // Current trees keep a message's parts in part/<message>/, older ones in part/<session>/<message>/, the oldest
    // flat in part/ (read once per session, only when a message has neither folder).
    let files = await jsonFiles(join(storage, 'part', message.id), storage);
    if (!files.length) files = await jsonFiles(join(storage, 'part', id, message.id), storage);
    if (!files.length) {
      flat ??= await flatParts(storage, warnings);
      files = flat.get(message.id) ?? [];
    }
    const own: OcPart[] = [];
    for (const file of files) {
      const loaded = await load(file, 'payload', warnings, 'Part');
      if (!loaded) continue;
      sourceFiles.push(loaded.file);
      const time = isRecord(loaded.record?.time) ? loaded.record.time : {};
      own.push({
        id: text(loaded.record?.id) ?? basename(file, '.json'),
        messageId: message.id,
        createdMs: epochMs(time.start) ?? epochMs(time.created),
        data: loaded.record,
      });
    }
    // In file-name order: OpenCode names a part's file by its id, which grows as parts are written.
    parts.push(...own);
  }
  const worktree = info.directory ? null : await worktreeOf(storage, info.projectId, warnings);
  if (worktree) {
    // The project file the worktree came from is one of the session's files (its change re-reads the session).
    const path = join(storage, 'project', `${info.projectId}.json`);
    const stat = await statPath(path).catch(() => null);
    if (stat) sourceFiles.push({ path, size: stat.size, mtimeMs: stat.mtimeMs, role: 'meta' });
  }
  return { session: info, id, worktree, messages, parts, childIds: [], sourceFiles, warnings };
}
