// Watches the vault's annotation and summary folders for another process's writes (the CLI, the MCP server, `serve` on the same data folder) and says which sessions changed.
import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { RootWatcher } from '../watch/root-watcher.ts';
import type { AnnotationStore } from './annotations.ts';
import type { SummaryStore } from './summary-store.ts';

export interface MarksWatcherOptions {
  annotations: AnnotationStore;
  summaries: SummaryStore;
  /** Sessions whose star, tags, note or summary changed on disk (never called for the app's own writes). */
  onChanged(keys: string[]): void;
  onProblem(message: string): void;
}

/** One file of a folder that may hold a mark: a `.json` that is not a write's hidden temp file. */
const isMarkFile = (path: string) => path.endsWith('.json') && !basename(path).startsWith('.');

export class VaultMarksWatcher {
  private readonly o: MarksWatcherOptions;
  private readonly watcher: RootWatcher;
  /** Batches are handled one after the other, so a later write is never overtaken by an earlier read. */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(options: MarksWatcherOptions) {
    this.o = options;
    this.watcher = new RootWatcher({
      claims: isMarkFile,
      depth: 0,
      onBatch: (batch) => {
        this.queue = this.queue.then(() => this.apply(batch.files)).catch((err: unknown) => this.o.onProblem(`Vault marks: ${(err as Error).message}`));
      },
      onError: (err) => this.o.onProblem(`Vault marks watcher: ${err.message}`),
    });
  }

  /** Starts watching both folders (made if missing, so a first write elsewhere is seen). */
  async start(): Promise<void> {
    const folders = [this.o.annotations.dir, this.o.summaries.dir];
    await Promise.all(folders.map((dir) => mkdir(dir, { recursive: true })));
    if (!this.closed) await this.watcher.setRoots(folders);
  }

  /** Resolves when every batch seen so far has been applied (for tests). */
  settled(): Promise<void> {
    return this.queue;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.watcher.close();
  }

  private async apply(paths: string[]): Promise<void> {
    if (this.closed) return;
    const annotationFiles = paths.filter((p) => dirname(p) === this.o.annotations.dir).map((p) => basename(p));
    const changed = new Set<string>();
    if (annotationFiles.length) {
      const { changed: keys, problems } = await this.o.annotations.reload(annotationFiles);
      for (const key of keys) changed.add(key);
      for (const problem of problems) this.o.onProblem(problem);
    }
    if (paths.some((p) => dirname(p) === this.o.summaries.dir)) for (const key of this.o.summaries.reload()) changed.add(key);
    if (changed.size && !this.closed) this.o.onChanged([...changed]);
  }
}
