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
  private readonly dir: string;
  private readonly byKey = new Map<string, Annotations>();

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
        } else problems.push(`Annotation file ${name} is not valid and was skipped.`);
      } catch (err) {
        problems.push(`Annotation file ${name} could not be read (${(err as Error).message}).`);
      }
    }
    return problems;
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
    const file = join(this.dir, `${safeName(key)}.json`);
    if (!next.starred && !next.tags.length && !next.note) {
      await rm(file, { force: true });
      this.byKey.delete(key);
      return { ...EMPTY_ANNOTATIONS, updatedAt: next.updatedAt };
    }
    await writeFileAtomic(file, `${JSON.stringify({ key, ...next }, null, 2)}\n`);
    this.byKey.set(key, next);
    return next;
  }
}
