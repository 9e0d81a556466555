// Star, tags and a note per session, one small file each in the vault, written atomically; they outlive source changes.
import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { Annotations } from '../../shared/vault-api.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { safeName } from './vault-store.ts';

const AnnotationFile = Annotations.extend({ key: z.string() });

export const EMPTY_ANNOTATIONS: Annotations = { starred: false, tags: [], note: '', updatedAt: null };

export class AnnotationStore {
  readonly dir: string;
  private readonly byKey = new Map<string, Annotations>();
  /** Which session each file holds (a removed file's key is known only from here). */
  private readonly keyByFile = new Map<string, string>();

  constructor(vaultRoot: string) {
    this.dir = join(vaultRoot, 'annotations');
  }

  /** Loads every annotation file; unreadable ones are reported and skipped, never fatal. */
  async load(): Promise<string[]> {
    const problems: string[] = [];
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => n.endsWith('.json'));
    } catch {
      return problems;
    }
    for (const name of names) {
      try {
        const parsed = AnnotationFile.safeParse(JSON.parse(await readFile(join(this.dir, name), 'utf8')));
        if (parsed.success) {
          const { key, ...rest } = parsed.data;
          this.byKey.set(key, rest);
          this.keyByFile.set(name, key);
        } else problems.push(`Annotation file ${name} is not valid and was skipped.`);
      } catch (err) {
        problems.push(`Annotation file ${name} could not be read (${(err as Error).message}).`);
      }
    }
    return problems;
  }

  /**
   * Reads these files (names inside the folder) again, as another process (the CLI, `serve` on the same data folder)
   * may have written or removed them, and returns the sessions whose annotations differ from what was held. The
   * app's own writes come back equal, so they change nothing.
   */
  async reload(names: readonly string[]): Promise<{ changed: string[]; problems: string[] }> {
    const changed = new Set<string>();
    const problems: string[] = [];
    for (const name of new Set(names)) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      let text: string;
      try {
        text = await readFile(join(this.dir, name), 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
          problems.push(`Annotation file ${name} could not be read (${(err as Error).message}).`);
          continue;
        }
        const key = this.keyByFile.get(name);
        this.keyByFile.delete(name);
        if (key !== undefined && this.byKey.delete(key)) changed.add(key);
        continue;
      }
      let parsed: ReturnType<typeof AnnotationFile.safeParse>;
      try {
        parsed = AnnotationFile.safeParse(JSON.parse(text));
      } catch {
        parsed = AnnotationFile.safeParse(undefined);
      }
      if (!parsed.success) {
        // Half a write never reaches here (writes are renamed in whole); a bad file keeps what was held.
        problems.push(`Annotation file ${name} is not valid and was skipped.`);
        continue;
      }
      const { key, ...next } = parsed.data;
      const held = this.byKey.get(key);
      this.keyByFile.set(name, key);
      if (held && JSON.stringify(held) === JSON.stringify(next)) continue;
      this.byKey.set(key, next);
      changed.add(key);
    }
    return { changed: [...changed], problems };
  }

  get(key: string): Annotations {
    return this.byKey.get(key) ?? EMPTY_ANNOTATIONS;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  async set(key: string, change: Partial<Pick<Annotations, 'starred' | 'tags' | 'note'>>): Promise<Annotations> {
    const current = this.get(key);
    const tags = change.tags ? [...new Set(change.tags.map((t) => t.trim()).filter(Boolean))].sort() : current.tags;
    const next: Annotations = {
      starred: change.starred ?? current.starred,
      tags,
      note: change.note ?? current.note,
      updatedAt: new Date().toISOString(),
    };
    const name = `${safeName(key)}.json`;
    const file = join(this.dir, name);
    if (!next.starred && !next.tags.length && !next.note) {
      await rm(file, { force: true });
      this.byKey.delete(key);
      this.keyByFile.delete(name);
      return { ...EMPTY_ANNOTATIONS, updatedAt: next.updatedAt };
    }
    await writeFileAtomic(file, `${JSON.stringify({ key, ...next }, null, 2)}\n`);
    this.byKey.set(key, next);
    this.keyByFile.set(name, key);
    return next;
  }
}
