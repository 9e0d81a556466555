// Watches every root (a FolderTreeWatcher: one watch per folder) and hands debounced batches of touched paths to the catalogue.
import { isSkippedDir, MAX_WALK_DEPTH } from '../catalogue/walk-rules.ts';
import { FolderTreeWatcher } from './folder-tree-watcher.ts';
import { WATCH_DEBOUNCE_MS } from '../env/tuning.ts';

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
  /** One recursive watch per root rather than one per folder (default: where the system has it natively). */
  recursive?: boolean;
}

export class RootWatcher {
  private watcher: FolderTreeWatcher | null = null;
  private readonly files = new Set<string>();
  private readonly removedDirs = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private batchStartedAt = 0;
  private readonly options: RootWatcherOptions;

  constructor(options: RootWatcherOptions) {
    this.options = options;
  }

  /** Starts (or re-targets) watching; resolves once every folder is watched. */
  async setRoots(paths: string[]): Promise<void> {
    await this.close();
    if (!paths.length) return;
    const watcher = new FolderTreeWatcher({
      depth: this.options.depth ?? MAX_WALK_DEPTH,
      skipDir: isSkippedDir,
      onPath: (path) => {
        if (this.options.claims(path)) this.queue(() => this.files.add(path));
      },
      onFolderGone: (path) => this.queue(() => this.removedDirs.add(path)),
      onError: (err) => this.options.onError?.(err),
      ...(this.options.recursive === undefined ? {} : { recursive: this.options.recursive }),
    });
    this.watcher = watcher;
    for (const path of paths) await watcher.add(path);
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.watcher?.close();
    this.watcher = null;
  }

  private queue(record: () => void): void {
    record();
    const now = Date.now();
    if (!this.timer) this.batchStartedAt = now;
    else clearTimeout(this.timer);
    // A file appended to without pause (a live transcript) must still flush: cap the wait at 4 debounces.
    const debounce = this.options.debounceMs ?? WATCH_DEBOUNCE_MS;
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
