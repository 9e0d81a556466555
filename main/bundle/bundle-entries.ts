// The files one session contributes to a bundle, and the streams that read them (scanned and redacted on the way).
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { isMainThread } from 'node:worker_threads';
import { Readable, type Duplex } from 'node:stream';
import { constants, createGzip, createZstdCompress } from 'node:zlib';
import type { BundleRefusedFile } from '../../shared/bundle-api.ts';
import type { Session, SourceFile } from '../../shared/session.ts';
import { statPath } from '../sources/file-bytes.ts';
import { decompressor, type Compression } from '../sources/compressed.ts';
import { safeName } from '../vault/vault-store.ts';
import { entryNameProblem, foldedName, sessionJsonPath, sourceEntryPath } from './bundle-paths.ts';
import type { PreparedSession, SessionHead } from './prepare-session.ts';
import { sharedPath } from './shared-paths.ts';
import { SecretScanStream, type ScanContext } from './secret-scan.ts';

/** A file the bundle holds, as its manifest lists it. session.json's bytes are prepared beforehand (`SessionPlan.prepared`). */
export interface PlannedEntry {
  path: string;
  kind: 'session' | 'source';
  role: SourceFile['role'] | null;
  originalPath: string | null;
  mtimeMs: number | null;
  /** Bytes on disk, for progress (session.json: 0, progress counts source bytes). */
  size: number;
  /** A gzip or zstd source (told by its first bytes): scanned decompressed, stored as it is unless something was redacted. */
  compressed: Compression | null;
  clip: 'json' | 'text';
}

/** A source file (or artifact) read from disk as it goes into the bundle. */
export interface SourceEntry extends PlannedEntry {
  kind: 'source';
  /** The path the bundle names it by (a kept copy's file: its original path, see shared-paths.ts). */
  originalPath: string;
  /** Where its bytes are read. */
  diskPath: string;
  /** Its bytes, when they came with the session rather than from disk (a contained session's rows document). */
  bytes?: Buffer;
  /** Opens the entry's original bytes (a compressed source decompressed). */
  open(): Readable;
}

export interface SessionPlan {
  folder: string;
  /** session.json as prepared (its bytes, findings, the secrets it held); the parsed session itself stays where it was parsed. */
  prepared: PreparedSession;
  format: Session['format'];
  childKeys: string[];
  manifest: { key: string; id: string; title: string; sessionTime: string | null };
  /** session.json's entry (its bytes are `prepared.json`). */
  json: PlannedEntry;
  /** The source files and artifacts, in the order they go in. */
  sources: SourceEntry[];
  /** Files the session names that were left out, never read (outside every root, or outside the session's own folder). */
  refused: BundleRefusedFile[];
}

const JSON_NAME = /\.(json|jsonl|ndjson)(\.gz|\.zst)?$/i;
const READ_CHUNK = 1024 * 1024;

/**
 * Whether a file starts as gzip or zstd does (Codex's idle rollouts, `.jsonl.zst`); in blocking calls in a worker (a
 * push or export worker plans every file of every session: see file-bytes.ts).
 */
async function compressionAt(path: string): Promise<Compression | null> {
  const head = Buffer.alloc(4);
  let bytesRead: number;
  if (isMainThread) {
    const handle = await open(path, 'r');
    try {
      ({ bytesRead } = await handle.read(head, 0, 4, 0));
    } finally {
      await handle.close();
    }
  } else {
    const fd = openSync(path, 'r');
    try {
      bytesRead = readSync(fd, head, 0, 4, 0);
    } finally {
      closeSync(fd);
    }
  }
  if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (bytesRead === 4 && head.readUInt32LE(0) === 0xfd2fb528) return 'zstd';
  return null;
}

/**
 * Lists what a session puts in the bundle: session.json, every source file, and every artifact found beside
 * the session that is not already a source file. Refuses names a reader would reject, so a bundle this app
 * writes always imports (two files differing only in case cannot both land on macOS or Windows).
 */
export async function planSession(prepared: PreparedSession): Promise<SessionPlan> {
  const session: SessionHead = prepared.head;
  const folder = safeName(session.key);
  const plan: SessionPlan = {
    folder,
    prepared,
    format: session.format,
    childKeys: session.childKeys,
    manifest: {
      key: session.key,
      id: session.id,
      title: sharedPath(session.title, prepared.vault ?? null),
      sessionTime: session.closedAt ?? session.updatedAt ?? session.createdAt,
    },
    json: { path: sessionJsonPath(folder), kind: 'session', role: null, originalPath: null, mtimeMs: null, size: 0, compressed: null, clip: 'json' },
    sources: [],
    // Ungated (a loader over parsed sessions): at least the artifacts the reader refused are named.
    refused: prepared.refused ?? session.artifacts.flatMap((a) => (a.refused ? [{ session: session.key, path: a.path, reason: a.refused }] : [])),
  };
  const folded = new Map<string, string>();
  /** The entry's name, as shared, once checked: names a reader would reject, or two that collide on some system, are refused. */
  const entryName = (path: string) => {
    const original = sharedPath(path, prepared.vault ?? null);
    const entryPath = sourceEntryPath(folder, original);
    const problem = entryNameProblem(entryPath);
    if (problem) throw new Error(`${path} cannot go into a bundle: its name has ${problem}.`);
    const twin = folded.get(foldedName(entryPath));
    if (twin) throw new Error(`${path} and ${twin} differ only in letter case or Unicode form; a bundle cannot hold both.`);
    folded.set(foldedName(entryPath), path);
    return { original, entryPath };
  };
  if (prepared.inline?.length) {
    // A session inside a store: its own rows are its source, and the store (every other session's data) is never read.
    for (const inline of prepared.inline) {
      const { original, entryPath } = entryName(inline.path);
      const bytes = Buffer.from(inline.bytes.buffer, inline.bytes.byteOffset, inline.bytes.byteLength);
      plan.sources.push({
        path: entryPath,
        kind: 'source',
        role: inline.role,
        originalPath: original,
        diskPath: inline.path,
        bytes,
        mtimeMs: inline.mtimeMs,
        size: bytes.length,
        compressed: null,
        clip: 'json',
        open: () => Readable.from([bytes]),
      });
    }
    return plan;
  }
  const files = new Map<string, SourceFile['role']>();
  for (const f of session.sourceFiles) if (!files.has(f.path)) files.set(f.path, f.role);
  for (const a of session.artifacts) if (a.resolvedPath && !files.has(a.resolvedPath)) files.set(a.resolvedPath, 'artifact');
  for (const [path, role] of files) {
    const info = await statPath(path).catch(() => null);
    if (!info?.isFile()) {
      if (role === 'artifact') continue; // an artifact the session names but that is not there
      throw new Error(`A source file of ${session.key} is missing: ${path}`);
    }
    // Named as shared: a kept copy's file by its original path, never by the exporter's vault.
    const { original, entryPath } = entryName(path);
    const compressed = await compressionAt(path);
    plan.sources.push({
      path: entryPath,
      kind: 'source',
      role,
      originalPath: original,
      diskPath: path,
      mtimeMs: info.mtimeMs,
      size: info.size,
      compressed,
      clip: JSON_NAME.test(path) ? 'json' : 'text',
      open: () => {
        const raw = createReadStream(path, { highWaterMark: READ_CHUNK });
        if (!compressed) return raw;
        const decompress = decompressor(compressed);
        raw.on('error', (err) => decompress.destroy(err));
        return raw.pipe(decompress);
      },
    });
  }
  return plan;
}

/** The raw bytes of a source file, as they are on disk (a compressed file stays compressed), or as they came with the session. */
export function openRaw(entry: SourceEntry): Readable {
  return entry.bytes ? Readable.from([entry.bytes]) : createReadStream(entry.diskPath, { highWaterMark: READ_CHUNK });
}

export function scanner(ctx: ScanContext, entry: PlannedEntry, emit: boolean): SecretScanStream {
  return new SecretScanStream(ctx, { file: entry.path, clip: entry.clip, emit });
}

/** Compresses a redacted source again as it was (gzip, or zstd at the level Codex writes). */
export function recompress(kind: Compression): Duplex {
  return kind === 'gzip' ? createGzip({ level: 6 }) : createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: 3 } });
}
