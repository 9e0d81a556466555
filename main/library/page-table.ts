// A big session's page table, kept in the data folder: the session without its messages, where each page of messages starts in the file, and the file's identity.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { Session, SourceFormat } from '../../shared/session.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { readRange } from './page-lines.ts';

const VERSION = 1;
/** How much of the file's start and end its identity hashes: a rewrite that keeps the size and mtime still shows. */
const EDGE_BYTES = 4096;

/** What a file looked like: its size, mtime and hashes of its first and last EDGE_BYTES. */
export const FileIdentity = z.object({ size: z.number().int().nonnegative(), mtimeMs: z.number(), head: z.string(), tail: z.string() });
export type FileIdentity = z.infer<typeof FileIdentity>;

/**
 * One page: its first byte, the number of its first line, the index of its first message (it ends where the next
 * begins), and what its messages take from the records before it (page-parsers.ts).
 */
const Page = z.tuple([z.number().int().nonnegative(), z.number().int().positive(), z.number().int().nonnegative(), z.string().nullable()]);
export type Page = z.infer<typeof Page>;

const PageTableShape = z.object({
  version: z.literal(VERSION),
  path: z.string(),
  format: SourceFormat,
  file: FileIdentity,
  /** The full read's session with no messages: what every window carries. */
  header: z.unknown(),
  messagesTotal: z.number().int().nonnegative(),
  pages: z.array(Page).min(1),
});
export type PageTable = Omit<z.infer<typeof PageTableShape>, 'header'> & { header: Session };

/** The sidecar's name in the pages folder: a hash of the session file's path. */
export function pageTableFile(dir: string, path: string): string {
  return join(dir, `${createHash('sha256').update(path).digest('hex').slice(0, 40)}.json`);
}

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/** Hash of the EDGE_BYTES that end at `end` (or start at 0). */
async function edgeHash(path: string, start: number, end: number): Promise<string> {
  return sha1(await readRange(path, Math.max(0, start), Math.max(0, end)));
}

/** The file's identity now. */
export async function fileIdentity(path: string): Promise<FileIdentity> {
  const info = await stat(path);
  const size = info.size;
  const head = await edgeHash(path, 0, Math.min(size, EDGE_BYTES));
  const tail = await edgeHash(path, size - EDGE_BYTES, size);
  return { size, mtimeMs: info.mtimeMs, head, tail };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.head === b.head && a.tail === b.tail;
}

/** Writes a table in place of any older one for the same file (temp file, fsync, rename). */
export async function savePageTable(dir: string, table: PageTable): Promise<void> {
  await writeFileAtomic(pageTableFile(dir, table.path), JSON.stringify(table));
}

/** The table in the file as written, or null when it is missing or not a table this version wrote (it is then rebuilt). */
async function readPageTable(file: string): Promise<PageTable | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const shape = PageTableShape.safeParse(value);
  if (!shape.success || !Session.safeParse(shape.data.header).success) return null;
  // The header as written (zod's copy could drop or add keys the full read did not have).
  return { ...shape.data, header: (value as { header: Session }).header };
}

/** Every other file the session was read from, unchanged since (a sub-agent's meta file, say). */
async function companionsUnchanged(header: Session): Promise<boolean> {
  for (const file of header.sourceFiles.slice(1)) {
    try {
      const info = await stat(file.path);
      if (info.size !== file.size || info.mtimeMs !== file.mtimeMs) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * The page table for `path` if one was written for the file exactly as it is now (same size, mtime, first and last
 * bytes, companion files); null otherwise, and the session is read whole.
 */
export async function loadPageTable(dir: string, path: string): Promise<PageTable | null> {
  const table = await readPageTable(pageTableFile(dir, path));
  if (!table || table.path !== path) return null;
  return (await stillMatches(table)) ? table : null;
}

/** The file and its companions are as they were when the table was written. */
export async function stillMatches(table: PageTable): Promise<boolean> {
  let now: FileIdentity;
  try {
    now = await fileIdentity(table.path);
  } catch {
    return false;
  }
  return sameIdentity(now, table.file) && (await companionsUnchanged(table.header));
}

/** Temp files older than this were left by a write a crash cut short. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** Removes the tables of session files that no longer exist, unreadable tables, and temp files a crash left. */
export async function sweepPageTables(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = join(dir, name);
    let drop = false;
    if (name.endsWith('.tmp')) {
      const info = await stat(file).catch(() => null);
      drop = info !== null && Date.now() - info.mtimeMs > STALE_TEMP_MS;
    } else if (name.endsWith('.json')) {
      const table = await readPageTable(file);
      drop =
        table === null ||
        (await stat(table.path).then(
          () => false,
          () => true,
        ));
    }
    if (drop) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}
