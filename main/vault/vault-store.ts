// The vault on disk: kept copies of sessions (source files byte-for-byte + normalized session.json + meta), staged then renamed.
import { cp, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { join, resolve, sep } from 'node:path';
import { z } from 'zod';
import type { Session } from '../../shared/session.ts';
import { AppError } from '../../shared/result.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';

export const KeptMeta = z.object({
  version: z.literal(1),
  key: z.string(),
  format: z.string(),
  id: z.string(),
  title: z.string(),
  /** kept: copied from a live source; fork: made by the vault; imported: from a bundle. */
  origin: z.enum(['kept', 'fork', 'imported']),
  keptAt: z.string(),
  /** Absolute paths the source files were copied from (the live source, while it exists). */
  sourcePaths: z.array(z.string()),
  /** When the session closed or was last updated, for prune. */
  sessionTime: z.string().nullable(),
});
export type KeptMeta = z.infer<typeof KeptMeta>;

export interface KeptSession {
  dir: string;
  meta: KeptMeta;
}

/** A folder name for a key: readable, filesystem-safe on every platform, and unique (hash suffix). */
export function safeName(key: string): string {
  const readable = key.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return `${readable}-${createHash('sha256').update(key).digest('hex').slice(0, 10)}`;
}

/** Where a source file goes inside a kept copy: its whole original path, so each reader's layout rules still match. */
export function copyPathFor(keptDir: string, original: string): string {
  const parts = resolve(original)
    .split(/[\\/]+/)
    .filter(Boolean)
    .map((p) => p.replace(/:$/, ''));
  return join(keptDir, 'source', ...parts);
}

export class VaultStore {
  readonly root: string;
  readonly sessionsDir: string;
  readonly trashDir: string;
  readonly stagingDir: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'vault');
    this.sessionsDir = join(this.root, 'sessions');
    this.trashDir = join(this.root, 'trash');
    this.stagingDir = join(this.root, '.staging');
  }

  dirFor(key: string): string {
    return join(this.sessionsDir, safeName(key));
  }

  isInside(path: string): boolean {
    const abs = resolve(path);
    return abs === this.sessionsDir || abs.startsWith(this.sessionsDir + sep);
  }

  async readMeta(dir: string): Promise<KeptMeta | null> {
    try {
      const parsed = KeptMeta.safeParse(JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async get(key: string): Promise<KeptSession | null> {
    const dir = this.dirFor(key);
    const meta = await this.readMeta(dir);
    return meta ? { dir, meta } : null;
  }

  async list(): Promise<KeptSession[]> {
    let names: string[];
    try {
      names = await readdir(this.sessionsDir);
    } catch {
      return [];
    }
    const out: KeptSession[] = [];
    for (const name of names) {
      const dir = join(this.sessionsDir, name);
      const meta = await this.readMeta(dir);
      if (meta) out.push({ dir, meta });
    }
    return out;
  }

  /**
   * Copies a session into the vault: every source file byte-for-byte, the normalized session.json and a
   * meta file, assembled in a staging folder and renamed into place, so a kept copy is whole or absent.
   * Keeping again refreshes the copy (an open session grows); the first keep time is kept. `given`: source files
   * whose bytes are handed over rather than copied (a session inside a store keeps its own rows, never the store).
   */
  async keep(session: Session, origin: KeptMeta['origin'] = 'kept', given?: ReadonlyMap<string, Uint8Array>): Promise<KeptSession> {
    const target = this.dirFor(session.key);
    const previous = await this.readMeta(target);
    const staging = join(this.stagingDir, `${safeName(session.key)}.${process.pid}.${randomBytes(4).toString('hex')}`);
    await mkdir(staging, { recursive: true });
    try {
      for (const file of session.sourceFiles) {
        const to = copyPathFor(staging, file.path);
        await mkdir(resolve(to, '..'), { recursive: true });
        const bytes = given?.get(file.path);
        if (bytes) await writeFile(to, bytes, { flag: 'wx' });
        else await cp(file.path, to, { preserveTimestamps: true, errorOnExist: false, force: true });
      }
      const meta: KeptMeta = {
        version: 1,
        key: session.key,
        format: session.format,
        id: session.id,
        title: session.title,
        origin: previous?.origin ?? origin,
        keptAt: previous?.keptAt ?? new Date().toISOString(),
        sourcePaths: session.sourceFiles.map((f) => f.path),
        sessionTime: session.closedAt ?? session.updatedAt ?? session.createdAt,
      };
      await writeFileAtomic(join(staging, 'session.json'), `${JSON.stringify(session, null, 2)}\n`);
      await writeFileAtomic(join(staging, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
      await this.replace(staging, target);
      return { dir: target, meta };
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ENOENT') throw new AppError('NOT_FOUND', `A source file of this session vanished while it was being kept: ${e.path ?? ''}`);
      throw err;
    }
  }

  /** Swaps a finished staging folder in for the target: the old copy moves aside first and is removed last. */
  async replace(staging: string, target: string): Promise<void> {
    await mkdir(this.sessionsDir, { recursive: true });
    const aside = `${staging}.old`;
    let hadOld = false;
    try {
      await rename(target, aside);
      hadOld = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    try {
      await rename(staging, target);
    } catch (err) {
      if (hadOld) await rename(aside, target);
      throw err;
    }
    if (hadOld) await rm(aside, { recursive: true, force: true });
  }

  /** Removes staging leftovers older than a minute (a crash mid-keep); returns how many. */
  async sweepStaging(olderThanMs = 60_000): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.stagingDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const path = join(this.stagingDir, name);
      try {
        if (Date.now() - (await stat(path)).mtimeMs > olderThanMs) {
          await rm(path, { recursive: true, force: true });
          removed++;
        }
      } catch {
        // vanished meanwhile
      }
    }
    return removed;
  }
}
