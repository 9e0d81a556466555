// The folders the library reads, as the contract shows them: listed with their counts and errors, added, removed, the demo.
import { join, relative } from 'node:path';
import type { AppEvent, Root, UnreadableReason } from '../../shared/api.ts';
import { AppError } from '../../shared/result.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';
import { writeDemoSessions } from '../demo/demo-sessions.ts';
import { fsErrorSentence } from '../fs/fs-error-text.ts';
import { isWithin } from '../roots/paths.ts';
import type { RootRecord, RootStore } from '../roots/root-store.ts';

/** What reads the folders (the composition's library sync): why a root failed, watching, scanning. */
export interface RootScans {
  /** Why a root could not be scanned, by root id. */
  readonly rootErrors: Map<string, string>;
  /** Watches the roots as they are now. */
  rewatch(): Promise<void>;
  /** Scans these roots after whatever scan is running. */
  scanAll(list: RootRecord[]): Promise<void>;
}

export interface LibraryRootsDeps {
  dataDir: string;
  roots: RootStore;
  catalogue: Catalogue;
  scans: RootScans;
  /** Sessions gone with a removed folder. */
  onRemoved(keys: string[]): void;
  emit(event: AppEvent): void;
}

export class LibraryRoots {
  private readonly deps: LibraryRootsDeps;

  constructor(deps: LibraryRootsDeps) {
    this.deps = deps;
  }

  describe(r: RootRecord): Root {
    let sessionCount = 0;
    let unreadableCount = 0;
    const reasons = new Map<UnreadableReason['code'], UnreadableReason>();
    for (const e of this.deps.catalogue.entries()) {
      if (!isWithin(r.path, e.path)) continue;
      if (!e.unreadable) {
        // One definition of "a session" everywhere (the list, the top bar, the CLI): a sub-agent counts under its parent.
        if (!e.parentKey || !this.deps.catalogue.byKey(e.parentKey)) sessionCount++;
        continue;
      }
      unreadableCount++;
      // Unreadable files are few: their rows (loaded from the index when not held) say why.
      const why = e.summary.unreadable;
      if (!why) continue;
      // The example is the first such file by name, so the panel names the same one on every scan.
      const file = relative(r.path, e.path) || e.path;
      const seen = reasons.get(why.code);
      if (!seen) reasons.set(why.code, { code: why.code, count: 1, example: why.message, file, key: e.summary.key });
      else {
        seen.count++;
        if (file < seen.file) Object.assign(seen, { example: why.message, file, key: e.summary.key });
      }
    }
    const unreadableReasons = [...reasons.values()].sort((a, b) => b.count - a.count).slice(0, 3);
    const error = this.deps.scans.rootErrors.get(r.id) ?? null;
    return { ...r, exists: error === null, sessionCount, unreadableCount, unreadableReasons, error };
  }

  list(): Root[] {
    return this.deps.roots.list().map((r) => this.describe(r));
  }

  /** Tells the window the folders' list, counts or errors may have changed. */
  emitChanged = (): void => {
    this.deps.emit({ name: 'rootsChanged', payload: { roots: this.list() } });
  };

  /** Where the demo sessions are, once the user has opened them. */
  demoPath(): string | null {
    return this.deps.roots.list().find((r) => r.kind === 'demo')?.path ?? null;
  }

  async add(path: string): Promise<Root> {
    const { roots, scans } = this.deps;
    // roots.add validates first (exists, a folder, readable, not / or /proc or as broad as home) and saves only then.
    const known = new Set(roots.list().map((r) => r.path));
    const record = await roots.add(path);
    try {
      this.emitChanged();
      await scans.rewatch();
      await scans.scanAll([record]);
      const error = scans.rootErrors.get(record.id);
      if (error) throw new AppError('UNREADABLE', `${error.replace(/\.?$/, '.')} The folder was not added.`, 'path');
    } catch (err) {
      // Only what works is kept: a new folder that cannot be watched or scanned leaves the saved list again.
      if (!known.has(record.path)) await this.remove(record.id).catch(() => undefined);
      if (err instanceof AppError) throw err;
      throw new AppError(
        'IO_ERROR',
        `Could not read ${record.path}: ${fsErrorSentence(err) ?? 'the folder could not be scanned'}. The folder was not added.`,
        'path',
      );
    }
    return this.describe(record);
  }

  async remove(id: string): Promise<{ removed: boolean }> {
    const { roots, scans, catalogue } = this.deps;
    const record = roots.get(id);
    if (!record) throw new AppError('NOT_FOUND', `No folder with id "${id}" is in the list.`, 'id');
    await roots.remove(id);
    scans.rootErrors.delete(id);
    // Sessions stay listed while another remaining root still covers them.
    const remaining = roots.list();
    const removed: string[] = [];
    for (const e of [...catalogue.entries()]) {
      if (isWithin(record.path, e.path) && !remaining.some((r) => isWithin(r.path, e.path))) {
        const key = catalogue.remove(e.path);
        if (key) removed.push(key);
      }
    }
    this.deps.onRemoved(removed);
    this.emitChanged();
    await scans.rewatch();
    return { removed: true };
  }

  /** Scans one folder (or all) again: files changed, added or removed while nothing watched are read now. */
  async rescan(id?: string): Promise<Root[]> {
    const { roots, scans } = this.deps;
    const record = id === undefined ? null : roots.get(id);
    if (id !== undefined && !record) throw new AppError('NOT_FOUND', `No folder with id "${id}" is in the list.`, 'id');
    await scans.scanAll(record ? [record] : roots.list());
    this.emitChanged();
    return this.list();
  }

  /** Writes the bundled demo sessions into the data folder and reads them as a folder of their own. */
  async openDemo(): Promise<Root> {
    const dir = join(this.deps.dataDir, 'demo');
    await writeDemoSessions(dir);
    const record = await this.deps.roots.add(dir, 'demo');
    this.emitChanged();
    await this.deps.scans.rewatch();
    await this.deps.scans.scanAll([record]);
    return this.describe(record);
  }
}
