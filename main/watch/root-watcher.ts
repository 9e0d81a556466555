// Watches every root with chokidar and hands debounced batches of touched paths to the catalogue.
import { watch, type FSWatcher } from 'chokidar';
import { basename } from 'node:path';
import { isSkippedDir, MAX_WALK_DEPTH } from '../catalogue/walk.ts';

export interface WatchBatch {
  /** Files added, changed or removed (the consumer stats each to tell which). */
  files: string[];
  /** Folders removed as a whole. */
  removedDirs: string[];
}

export interface RootWatcherOptions {
  claims: (path: string) => boolean;
  onBatch: (batch: WatchBatch) => void;
  onError?: (err: Error) => void;
  /** Quiet time before a batch is flushed; atomic tmp+rename writes settle well within it. */
  debounceMs?: number;
  /** How deep below each root to watch (default: as deep as a scan walks). */
  depth?: number;
}

export class RootWatcher {
  private watcher: FSWatcher | null = null;
  private readonly files = new Set<string>();
  private readonly removedDirs = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private batchStartedAt = 0;
  private readonly options: RootWatcherOptions;

  constructor(options: RootWatcherOptions) {
    this.options = options;
  }

  /** Starts (or re-targets) watching; resolves once the initial directory walk is done. */
  async setRoots(paths: string[]): Promise<void> {
    await this.close();
    if (!paths.length) return;
    const watcher = watch(paths, {
      ignoreInitial: true,
      depth: this.options.depth ?? MAX_WALK_DEPTH,
      followSymlinks: false,
      ignorePermissionErrors: true,
      ignored: (path, stats) => (stats?.isDirectory() ?? false) && isSkippedDir(basename(path)),
    });
    this.watcher = watcher;
    const fileEvent = (path: string) => {
      if (this.options.claims(path)) this.queue(() => this.files.add(path));
    };
    watcher.on('add', fileEvent);
    watcher.on('change', fileEvent);
    watcher.on('unlink', fileEvent);
    watcher.on('unlinkDir', (path) => this.queue(() => this.removedDirs.add(path)));
    // A folder that appears (e.g. a new Vizier session dir renamed into place) may already hold files.
    watcher.on('addDir', (path) => this.queue(() => this.removedDirs.delete(path)));
    watcher.on('error', (err) => this.options.onError?.(err instanceof Error ? err : new Error(String(err))));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const w = this.watcher;
    this.watcher = null;
    if (w) await w.close();
  }

  private queue(record: () => void): void {
    record();
    const now = Date.now();
    if (!this.timer) this.batchStartedAt = now;
    else clearTimeout(this.timer);
    // A file appended to without pause (a live transcript) must still flush: cap the wait at 4 debounces.
    const debounce = this.options.debounceMs ?? 120;
    const wait = Math.max(0, Math.min(debounce, this.batchStartedAt + debounce * 4 - now));
    this.timer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = null;
    const batch: WatchBatch = { files: [...this.files], removedDirs: [...this.removedDirs] };
    this.files.clear();
    this.removedDirs.clear();
    if (batch.files.length || batch.removedDirs.length) this.options.onBatch(batch);
  }
}
