// Restorable deletion for the vault: kept copies move to a trash folder (or the OS trash on the desktop) with a record.
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { TrashEntry } from '../../shared/vault-api.ts';
import { AppError } from '../../shared/result.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';

const TrashRecord = z.object({ id: z.string(), key: z.string(), title: z.string(), deletedAt: z.string(), originalDir: z.string() });

export class VaultTrash {
  private readonly dir: string;

  constructor(vaultRoot: string) {
    this.dir = join(vaultRoot, 'trash');
  }

  /** Moves a kept copy's folder into the trash in one rename and records what it was. */
  async put(folder: string, key: string, title: string): Promise<TrashEntry> {
    const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
    const slot = join(this.dir, id);
    await mkdir(slot, { recursive: true });
    await rename(folder, join(slot, 'session'));
    const deletedAt = new Date().toISOString();
    await writeFileAtomic(join(slot, 'trash.json'), JSON.stringify({ id, key, title, deletedAt, originalDir: folder }, null, 2));
    return { id, key, title, deletedAt, where: 'vault-trash' };
  }

  async list(): Promise<TrashEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: TrashEntry[] = [];
    for (const name of names.sort().reverse()) {
      try {
        const r = TrashRecord.parse(JSON.parse(await readFile(join(this.dir, name, 'trash.json'), 'utf8')));
        out.push({ id: r.id, key: r.key, title: r.title, deletedAt: r.deletedAt, where: 'vault-trash' });
      } catch {
        // an incomplete trash slot (crash mid-delete) is not listed
      }
    }
    return out;
  }

  /** Puts a trashed copy back where it was; refuses when a copy of that session exists there again. */
  async restore(id: string): Promise<{ key: string; dir: string }> {
    if (!/^[A-Za-z0-9-]+$/.test(id)) throw new AppError('INVALID_INPUT', `Not a trash id: ${id}`, 'id');
    const slot = join(this.dir, id);
    let record;
    try {
      record = TrashRecord.parse(JSON.parse(await readFile(join(slot, 'trash.json'), 'utf8')));
    } catch {
      throw new AppError('NOT_FOUND', `Nothing in the trash has the id ${id}.`, 'id');
    }
    try {
      await rename(join(slot, 'session'), record.originalDir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTEMPTY') throw new AppError('CONFLICT', `The vault already holds a copy of ${record.key}; delete it first.`);
      throw err;
    }
    await rm(slot, { recursive: true, force: true });
    return { key: record.key, dir: record.originalDir };
  }
}
