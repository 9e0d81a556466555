// A session made ready to push where it was prepared (the loader's worker): its files planned, scanned and cut into parts, its row built, every body packed into one buffer the main thread sends as it is.
import { planSession } from '../bundle/bundle-entries.ts';
import type { Finding } from '../bundle/finding.ts';
import type { PreparedSession } from '../bundle/prepare-session.ts';
import type { ScanContext } from '../bundle/secret-scan.ts';
import type { SeenFile } from './push-ledger.ts';
import { sourceWrites } from './push-sources.ts';
import type { MessageChunk } from './session-chunks.ts';
import { sessionRowFromBytes, type SessionRow } from './session-row.ts';
import type { TextChunk } from './team-text.ts';
import type { FileWrite } from './write-batch.ts';

/** What the store holds of a session, as far as preparing it needs (the rest is compared on the main thread). */
export interface StoredOfSession {
  /** Its session.json's hash; null when it must be sent whatever its hash (search text pushed without message starts). */
  contentHash: string | null;
  /** Whether any of its source files is stored. */
  hasFiles: boolean;
  /** Each stored file's part hashes, by path: parts that match are not sent. */
  parts: Array<[string, string[]]>;
}

/** How a push wants a session prepared. */
export interface PushSpec {
  sources: boolean;
  /** False for a session held for its review: only its findings are wanted. */
  row: boolean;
  partBytes?: number;
  messageChunkChars?: number;
  /** Null for a session the store does not have. */
  stored: StoredOfSession | null;
}

/** The roots check a push's worker applies: the roots as real paths (resolved once per push), and the vault whose copies go by their original paths. */
export interface PushGate {
  roots: string[];
  vault: string | null;
}

/** Where a body lies in the packed buffer: byte offset and length. */
export type Packed = [number, number];

export type PackedRow = Omit<SessionRow, 'head' | 'messages' | 'texts'> & {
  head: Packed;
  messages: Array<Omit<MessageChunk, 'body'> & { body: Packed }>;
  texts: Array<Omit<TextChunk, 'body'> & { body: Packed }>;
};

/** A row whose bodies are UTF-8 bytes (views on the packed buffer): sent as they are, no string encoded on the main thread. */
export type WireRow = Omit<SessionRow, 'head' | 'messages' | 'texts'> & {
  head: Buffer;
  messages: Array<Omit<MessageChunk, 'body'> & { body: Buffer }>;
  texts: Array<Omit<TextChunk, 'body'> & { body: Buffer }>;
};

type PackedFile = Omit<FileWrite, 'changed'> & { changed: Array<{ part: number; sha256: string; bytes: Packed }> };

interface ReadyBase {
  /** The session's own key. */
  key: string;
  sha256: string;
  /** session.json's findings, then its sources'. */
  findings: Finding[];
  /** The files it was read from, as its reader saw them (what the ledger compares next time). */
  seen: Array<string | SeenFile>;
}

export type PushReady =
  | (ReadyBase & { kind: 'unchanged' })
  /** `row` null for a held session; `packed` holds every body and part. */
  | (ReadyBase & { kind: 'changed'; row: PackedRow | null; files: PackedFile[]; sourceBytes: number; packed: ArrayBuffer })
  | { kind: 'skipped'; reason: string; findings: Finding[] };

/** The files a session was read from, as its reader saw them. */
function seenFiles(prepared: PreparedSession): Array<string | SeenFile> {
  const { head } = prepared;
  return [
    ...head.sourceFiles.map((f) => ({ path: f.path, size: f.size, mtimeMs: f.mtimeMs })),
    ...head.artifacts.flatMap((a) => (a.resolvedPath ? [a.resolvedPath] : [])),
  ];
}

/** Above this many bytes the scratch buffer is not kept for the next session (one huge session would hold it for the push). */
const SCRATCH_KEPT = 64 * 1024 * 1024;
let scratch: Buffer | null = null;

/** The scratch buffer, taken (a second packer at the same time gets a buffer of its own). */
function takeScratch(): Buffer {
  const taken = scratch ?? Buffer.allocUnsafeSlow(1024 * 1024);
  scratch = null;
  return taken;
}

/**
 * Bodies laid one after another in one buffer of exactly their size. Each string is encoded once, into a scratch
 * buffer reused from session to session (measuring its UTF-8 length first cost a pass as long as the encoding),
 * and the bytes are copied once into the buffer handed on.
 */
class Packer {
  private out: Buffer = takeScratch();
  private size = 0;

  add(body: string | Uint8Array): Packed {
    // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4).
    const most = typeof body === 'string' ? body.length * 3 : body.length;
    if (this.size + most > this.out.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.size + most, this.out.length * 2));
      this.out.copy(grown, 0, 0, this.size);
      this.out = grown;
    }
    let length = body.length;
    if (typeof body === 'string') length = this.out.write(body, this.size, 'utf8');
    else this.out.set(body, this.size);
    const at: Packed = [this.size, length];
    this.size += length;
    return at;
  }

  finish(): ArrayBuffer {
    // Its own ArrayBuffer (never a slice of Node's shared pool): it is moved to the main thread whole.
    const packed = Buffer.allocUnsafeSlow(this.size);
    this.out.copy(packed, 0, 0, this.size);
    scratch = this.out.length <= SCRATCH_KEPT ? this.out : null;
    return packed.buffer as ArrayBuffer;
  }
}

/**
 * Given a session prepared as Share prepares it (and past the roots check), what a push needs of it: unchanged
 * when its session.json's hash is the stored one and the store has its files; otherwise its source files read
 * through Share's scanner (with the secrets its session.json held), cut into parts, and its row built from the
 * redacted session.json alone. `letGo` takes back session.json's bytes once read.
 */
export async function readyToPush(prepared: PreparedSession, spec: PushSpec, ctx: ScanContext, letGo: (json: Buffer) => void): Promise<PushReady> {
  const jsonBytes = prepared.json as Buffer;
  let released = false;
  const release = () => {
    if (!released) letGo(jsonBytes);
    released = true;
  };
  const { findings } = prepared;
  const base = { key: prepared.head.key, sha256: prepared.sha256, seen: seenFiles(prepared) };
  try {
    const plan = await planSession(prepared);
    const filesMissing = spec.sources && plan.sources.length > 0 && spec.stored?.hasFiles !== true;
    if (spec.stored && spec.stored.contentHash === prepared.sha256 && !filesMissing) return { ...base, findings, kind: 'unchanged' };
    // The row is cut from session.json's bytes before they are let go (its bodies are copies).
    const built = spec.row ? sessionRowFromBytes(jsonBytes.toString('utf8'), jsonBytes, prepared.sha256, prepared.size, spec.messageChunkChars) : null;
    release();
    // Share's scan context for this session: what its session.json held is looked for in its files.
    const files = spec.sources
      ? await sourceWrites(plan, { ...ctx, literals: new Map(prepared.literals) }, new Map(spec.stored?.parts ?? []), spec.partBytes)
      : null;
    const all = files ? [...findings, ...files.findings] : findings;
    const packer = new Packer();
    let row: PackedRow | null = null;
    if (built) {
      const { head, messages, texts, ...facts } = built;
      row = {
        ...facts,
        head: packer.add(head),
        messages: messages.map((c) => ({ ...c, body: packer.add(c.body) })),
        texts: texts.map((c) => ({ ...c, body: packer.add(c.body) })),
      };
    }
    const packedFiles: PackedFile[] = !row
      ? []
      : (files?.files ?? []).map((f) => ({ ...f, changed: f.changed.map((p) => ({ part: p.part, sha256: p.sha256, bytes: packer.add(p.bytes) })) }));
    return { ...base, findings: all, kind: 'changed', row, files: packedFiles, sourceBytes: files?.bytes ?? 0, packed: packer.finish() };
  } catch (err) {
    // A file that went away or could not be read while the session was being pushed: the session waits for the next push.
    return { kind: 'skipped', reason: (err as Error).message ?? String(err), findings };
  } finally {
    release();
  }
}

/** The row and files of a changed session, their bodies views on its packed buffer. */
export function unpackReady(ready: Extract<PushReady, { kind: 'changed' }>): { row: WireRow | null; files: FileWrite[] } {
  const buffer = ready.packed;
  const view = ([at, length]: Packed) => Buffer.from(buffer, at, length);
  const { row } = ready;
  return {
    row: row && {
      ...row,
      head: view(row.head),
      messages: row.messages.map((c) => ({ ...c, body: view(c.body) })),
      texts: row.texts.map((c) => ({ ...c, body: view(c.body) })),
    },
    files: ready.files.map((f) => ({ ...f, changed: f.changed.map((p) => ({ ...p, bytes: view(p.bytes) })) })),
  };
}
