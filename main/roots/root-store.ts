// The list of session folders: user-added and demo roots persisted atomically, default roots discovered.
import { access, readFile, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { createHash } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import type { SourceFormat } from '../../shared/session.ts';
import { AppError } from '../../shared/result.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { canonical, expandHome } from './paths.ts';
import { whyRefusedRoot } from './refused-roots.ts';
import { fsErrorCode, fsErrorSentence } from '../fs/fs-error-text.ts';
import type { DefaultRoot } from './default-roots.ts';

export interface RootRecord {
  id: string;
  path: string;
  kind: 'default' | 'user' | 'demo';
  format: SourceFormat | null;
}

const RootsFile = z.object({
  version: z.literal(1),
  roots: z.array(z.object({ path: z.string(), kind: z.enum(['user', 'demo']) })),
  /** Default roots the user removed; they stay hidden even though they exist. */
  hiddenDefaults: z.array(z.string()).default([]),
});
type RootsFile = z.infer<typeof RootsFile>;

export function rootId(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 12);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

export class RootStore {
  private file: RootsFile = { version: 1, roots: [], hiddenDefaults: [] };
  private defaults: RootRecord[] = [];
  /** --root folders: used for this run only, never written to the saved list. */
  private ephemeral: RootRecord[] = [];
  private readonly filePath: string;

  constructor(dataDir: string) {
    this.filePath = join(dataDir, 'roots.json');
  }

  /** Loads the saved list; a missing file is an empty list, a corrupt one is set aside, never fatal. */
  async load(candidates: DefaultRoot[], extraPaths: string[] = []): Promise<string[]> {
    const problems: string[] = [];
    try {
      const parsed = RootsFile.safeParse(JSON.parse(await readFile(this.filePath, 'utf8')));
      if (parsed.success) this.file = this.withoutRefused(parsed.data, problems);
      else problems.push(`${this.filePath} is not a valid roots list; starting with no saved folders.`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        problems.push(`${this.filePath} could not be read (${(err as Error).message}); starting with no saved folders.`);
      }
    }
    this.defaults = [];
    for (const candidate of candidates) {
      if (this.file.hiddenDefaults.includes(candidate.path)) continue;
      if (await isDirectory(candidate.path)) {
        this.defaults.push({ id: rootId(candidate.path), path: candidate.path, kind: 'default', format: candidate.format });
      }
    }
    this.ephemeral = [];
    for (const extra of extraPaths) {
      try {
        const path = await this.checkFolder(extra);
        if (!this.list().some((r) => r.path === path)) this.ephemeral.push({ id: rootId(path), path, kind: 'user', format: null });
      } catch (err) {
        problems.push(err instanceof Error ? err.message : String(err));
      }
    }
    return problems;
  }

  list(): RootRecord[] {
    const saved: RootRecord[] = this.file.roots.map((r) => ({ id: rootId(r.path), path: r.path, kind: r.kind, format: null }));
    const seen = new Set(saved.map((r) => r.path));
    const rest = [...this.ephemeral, ...this.defaults].filter((r) => {
      if (seen.has(r.path)) return false;
      seen.add(r.path);
      return true;
    });
    return [...saved, ...rest];
  }

  get(id: string): RootRecord | undefined {
    return this.list().find((r) => r.id === id);
  }

  async add(input: string, kind: 'user' | 'demo' = 'user'): Promise<RootRecord> {
    const path = await this.checkFolder(input);
    const existing = this.file.roots.find((r) => r.path === path);
    if (existing) return { id: rootId(path), path, kind: existing.kind, format: null };
    this.file.roots.push({ path, kind });
    this.file.hiddenDefaults = this.file.hiddenDefaults.filter((p) => p !== path);
    this.ephemeral = this.ephemeral.filter((r) => r.path !== path);
    await this.save();
    return { id: rootId(path), path, kind, format: null };
  }

  /**
   * Validates a folder the user typed and returns its canonical absolute path: it exists, is a folder, can be
   * listed, and is not one that must never be read whole (whyRefusedRoot), also when a symlink leads there.
   */
  private async checkFolder(input: string): Promise<string> {
    const expanded = expandHome(input.trim());
    if (!isAbsolute(expanded)) {
      throw new AppError('INVALID_INPUT', `Folder path must be absolute (starting with / or ~): "${input}".`, 'path');
    }
    let info;
    try {
      info = await stat(expanded);
    } catch (err) {
      const code = fsErrorCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === null) throw new AppError('NOT_FOUND', `Folder does not exist: ${expanded}`, 'path');
      // A name too long is not echoed: the sentence says what is wrong, and the path is what the user just typed.
      if (code === 'ENAMETOOLONG')
        throw new AppError('INVALID_INPUT', 'That folder path is too long: a file or folder name in it is longer than the file system allows.', 'path');
      throw new AppError('INVALID_INPUT', `Cannot use folder ${expanded}: ${fsErrorSentence(err)}.`, 'path');
    }
    if (!info.isDirectory()) throw new AppError('INVALID_INPUT', `Not a folder: ${expanded}`, 'path');
    const path = await canonical(resolve(expanded));
    const refused = whyRefusedRoot(path);
    if (refused) throw new AppError('INVALID_INPUT', refused, 'path');
    try {
      await access(path, constants.R_OK | constants.X_OK);
    } catch (err) {
      throw new AppError('INVALID_INPUT', `Cannot read folder ${path}: ${fsErrorSentence(err) ?? 'permission denied'}.`, 'path');
    }
    return path;
  }

  /** A saved list without the folders that may no longer be roots (saved by an older version): each left out is reported. */
  private withoutRefused(file: RootsFile, problems: string[]): RootsFile {
    const roots = file.roots.filter((r) => {
      const refused = whyRefusedRoot(r.path);
      if (refused) problems.push(`Left out the saved folder ${r.path}: ${refused}`);
      return !refused;
    });
    return { ...file, roots };
  }

  async remove(id: string): Promise<boolean> {
    const root = this.get(id);
    if (!root) return false;
    if (this.ephemeral.some((r) => r.id === id)) {
      this.ephemeral = this.ephemeral.filter((r) => r.id !== id);
      return true;
    }
    if (root.kind === 'default') {
      this.file.hiddenDefaults.push(root.path);
      this.defaults = this.defaults.filter((d) => d.id !== id);
    } else {
      this.file.roots = this.file.roots.filter((r) => r.path !== root.path);
    }
    await this.save();
    return true;
  }

  private async save(): Promise<void> {
    await writeFileAtomic(this.filePath, `${JSON.stringify(this.file, null, 2)}\n`);
  }
}
