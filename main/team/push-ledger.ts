// What this machine last pushed to a team store, per session: lets a re-push pass over sessions that did not change without reading or scanning them.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.ts';

/** A file as the reader saw it when it read the session. */
export interface SeenFile {
  path: string;
  size: number;
  mtimeMs: number;
}

interface Entry {
  /** The store's content hash (SHA-256 of the redacted session.json) after the push. */
  contentHash: string;
  /** The session's files on disk when it was pushed: a change to any of them means it is read again. */
  files: string[];
  /** Digest of the listing, the files' sizes and times, and the scan settings, when it was pushed. */
  fingerprint: string;
}

interface LedgerFile {
  version: 1;
  /** Random, per ledger: what is kept are digests, and none of them can be compared with another ledger's. */
  salt: string;
  sessions: Record<string, Entry>;
}

/**
 * A ledger per store and machine, in the data folder. A session counts as unchanged, and is not read again, when
 * (1) the store still holds the content hash this machine last pushed for it, (2) the catalogue describes it as it
 * did then (its listing: title, size, time, message and child counts, …), (3) every file it was read from has the
 * same size and modification time, and (4) the scan settings (kept findings, the environment's secret values, the
 * app version, with or without sources) are the same. Anything else, and the session is read, scanned and
 * compared by its content hash as on a first push, so a wrong "unchanged" can only come from a file rewritten with
 * the same size and time: the same rule rsync and make rely on.
 */
export class PushLedger {
  private readonly path: string;
  private readonly file: LedgerFile;
  private dirty = false;

  private constructor(path: string, file: LedgerFile) {
    this.path = path;
    this.file = file;
  }

  /** `<data dir>/team/pushed-<digest of store and machine>.json`; a missing or unreadable ledger starts empty. */
  static async open(dataDir: string, store: string, machine: string): Promise<PushLedger> {
    const name = createHash('sha256').update(`${store}\n${machine}`).digest('hex').slice(0, 24);
    const path = join(dataDir, 'team', `pushed-${name}.json`);
    let file: LedgerFile | null = null;
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LedgerFile>;
      if (parsed.version === 1 && typeof parsed.salt === 'string' && parsed.sessions && typeof parsed.sessions === 'object') file = parsed as LedgerFile;
    } catch {
      // none yet, or damaged: every session is read and compared by its content hash
    }
    return new PushLedger(path, file ?? { version: 1, salt: randomBytes(16).toString('hex'), sessions: {} });
  }

  /** Files as `path`, or with the size and time the reader saw (those, not a later stat, are what was pushed). */
  private async fingerprint(listing: string, files: Array<string | SeenFile>, settings: string): Promise<string> {
    const hash = createHash('sha256').update(this.file.salt).update('\0').update(settings).update('\0').update(listing);
    for (const file of files) {
      const seen = typeof file === 'string' ? await stat(file).catch(() => null) : file;
      const path = typeof file === 'string' ? file : file.path;
      hash.update(`\0${path}\0${seen ? `${seen.size}:${seen.mtimeMs}` : 'missing'}`);
    }
    return hash.digest('hex');
  }

  /** Whether `key` is as this machine last pushed it, and the store still has that push (`storedHash`). */
  async unchanged(key: string, listing: string, storedHash: string | undefined, settings: string): Promise<boolean> {
    const entry = Object.hasOwn(this.file.sessions, key) ? this.file.sessions[key] : undefined;
    if (!entry || storedHash === undefined || entry.contentHash !== storedHash) return false;
    return entry.fingerprint === (await this.fingerprint(listing, entry.files, settings));
  }

  /**
   * Notes a session the store now holds (after its batch committed, or found already there), with the files it was
   * read from as the reader saw them: a file that changed after it was read differs from them next time.
   */
  async record(key: string, listing: string, files: Array<string | SeenFile>, contentHash: string, settings: string): Promise<void> {
    const paths = files.map((f) => (typeof f === 'string' ? f : f.path));
    this.file.sessions[key] = { contentHash, files: paths, fingerprint: await this.fingerprint(listing, files, settings) };
    this.dirty = true;
  }

  async save(): Promise<void> {
    if (!this.dirty) return;
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(this.path, JSON.stringify(this.file));
    this.dirty = false;
  }
}
