// Watches folder trees with one fs.watch per folder (or one recursive watch where the system has it) and holds nothing per file.
import { watch, type FSWatcher } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { folderEntries } from '../fs/folder-entries.ts';
import { isWithin } from '../roots/paths.ts';

export interface FolderTreeOptions {
  /** Folder levels below each root that are watched (the root is level 0), as deep as a scan walks. */
  depth: number;
  /** Folders never entered (dependency folders and the like), by name. */
  skipDir: (name: string) => boolean;
  /** Something happened to this path: a file added, changed or removed, or maybe a folder. The consumer stats it. */
  onPath: (path: string) => void;
  /** A folder that was watched (or may have been, with a recursive watch) is gone, with everything in it. */
  onFolderGone: (path: string) => void;
  onError: (err: Error) => void;
  /** One recursive watch per root instead of one per folder (default: where the system watches recursively itself). */
  recursive?: boolean;
  /** fs.watch, or a stand-in (tests: a system out of watches). */
  watch?: typeof watch;
}

/** macOS (FSEvents) and Windows watch a whole tree natively; elsewhere Node emulates it with a watcher per file. */
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/** Errors that mean the folder is gone or not ours to read: nothing to watch there, nothing to report. */
const QUIET = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM']);

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code ?? '';

/**
 * Why not chokidar (which this replaced): chokidar 6 keeps a record of every file and folder it has seen;
 * on 100,000 sessions in 25,686 folders it held 127 MB of heap and its process reached 737 MB RSS, while
 * one fs.watch per folder costs 74 MB in all. The app needs no per-file record: every event is a path whose
 * file the catalogue stats, and it already knows which files it has.
 */
export class FolderTreeWatcher {
  private readonly options: FolderTreeOptions;
  private readonly recursive: boolean;
  /** Watched folders and their level below their root. */
  private readonly folders = new Map<string, { watcher: FSWatcher; level: number }>();
  /** One per root, with a recursive watch. */
  private readonly recursiveWatchers: FSWatcher[] = [];
  private closed = false;
  private limitReported = false;

  constructor(options: FolderTreeOptions) {
    this.options = options;
    this.recursive = options.recursive ?? NATIVE_RECURSIVE;
  }

  /** Folders watched one by one (0 with a recursive watch). */
  get watchedFolders(): number {
    return this.folders.size;
  }

  /** Starts watching a root; resolves once every folder in it is watched. A root that does not exist is not an error. */
  async add(root: string): Promise<void> {
    if (!this.recursive) return this.walk(root, 0, { watch: true, report: false });
    const watcher = this.open(root, { recursive: true }, (name) => this.recursiveEvent(root, name));
    if (watcher) this.recursiveWatchers.push(watcher);
  }

  close(): void {
    this.closed = true;
    for (const { watcher } of this.folders.values()) watcher.close();
    this.folders.clear();
    for (const watcher of this.recursiveWatchers) watcher.close();
    this.recursiveWatchers.length = 0;
  }

  /**
   * Walks `dir` (at `level`) and the folders below it, within the depth and outside skipped folders. `watch`:
   * each folder gets a watch of its own (one already watched is not entered again); `report`: every file found
   * is reported (a folder that just appeared, or a recursive watch that lost track).
   */
  private async walk(dir: string, level: number, how: { watch: boolean; report: boolean }): Promise<void> {
    const stack = [{ dir, level }];
    while (stack.length && !this.closed) {
      const next = stack.pop() as { dir: string; level: number };
      if (how.watch) {
        if (this.folders.has(next.dir)) continue;
        // Watch first, then list: a file created in between is either listed or seen by the watch.
        const watcher = this.open(next.dir, {}, (name, event) => this.folderEvent(next.dir, name, event));
        if (!watcher) continue;
        this.folders.set(next.dir, { watcher, level: next.level });
      }
      // A folder that vanished or is unreadable meanwhile lists nothing; its parent's watch reports what happens to it.
      for await (const entry of folderEntries(next.dir)) {
        const path = join(next.dir, entry.name);
        if (entry.isDirectory()) {
          if (next.level < this.options.depth && !this.options.skipDir(entry.name)) stack.push({ dir: path, level: next.level + 1 });
        } else if (how.report) {
          this.options.onPath(path);
        }
      }
    }
  }

  private open(dir: string, options: { recursive?: boolean }, onName: (name: string | null, event: string) => void): FSWatcher | null {
    if (this.closed) return null;
    try {
      const watcher = (this.options.watch ?? watch)(dir, { persistent: true, ...options }, (event, name) =>
        onName(typeof name === 'string' ? name : null, event),
      );
      // Raised when the folder goes away on some systems: its parent reports that.
      watcher.on('error', (err) => {
        if (!QUIET.has(codeOf(err))) this.options.onError(err);
        this.unwatch(dir);
      });
      return watcher;
    } catch (err) {
      if (QUIET.has(codeOf(err))) return null;
      if (codeOf(err) === 'ENOSPC' || codeOf(err) === 'EMFILE') {
        if (!this.limitReported) {
          this.limitReported = true;
          this.options.onError(
            new Error(
              `the system's limit on watched folders was reached after ${this.folders.size} folders (${codeOf(err)}); changes below ${dir} and in folders after it show at the next rescan. On Linux, raise fs.inotify.max_user_watches.`,
            ),
          );
        }
        return null;
      }
      this.options.onError(err instanceof Error ? err : new Error(String(err)));
      return null;
    }
  }

  /** An event in a folder watched on its own: a name in it changed. */
  private folderEvent(dir: string, name: string | null, event: string): void {
    if (this.closed) return;
    const folder = this.folders.get(dir);
    if (!folder) return;
    if (name === null) {
      // The system lost track of what changed (an overflowed queue): look at the whole folder again.
      void this.relist(dir, folder.level);
      return;
    }
    // A root has no watched parent: its own watch tells when it goes (the event names the root itself).
    if (folder.level === 0 && name === basename(dir)) {
      void lstat(dir).then(
        () => this.childEvent(dir, folder.level, name, event),
        () => {
          this.unwatch(dir);
          this.options.onFolderGone(dir);
        },
      );
      return;
    }
    this.childEvent(dir, folder.level, name, event);
  }

  private childEvent(dir: string, level: number, name: string, event: string): void {
    const path = join(dir, name);
    if (this.folders.has(path)) {
      void this.settleFolder(path);
      return;
    }
    // A file written to (the common case, and the one a live transcript repeats) needs no stat here; a name
    // that appeared or went ('rename') may be a new folder to watch.
    if (event === 'change') return this.options.onPath(path);
    void lstat(path)
      .then(
        (info) => {
          if (!info.isDirectory()) return this.options.onPath(path);
          if (level < this.options.depth && !this.options.skipDir(name)) return this.walk(path, level + 1, { watch: true, report: true });
        },
        (err: unknown) => {
          if (QUIET.has(codeOf(err))) this.options.onPath(path);
        },
      )
      .catch((err: unknown) => this.options.onError(err instanceof Error ? err : new Error(String(err))));
  }

  /** A watched folder's name changed in its parent: gone (or replaced by something else) unless it is still a folder. */
  private async settleFolder(path: string): Promise<void> {
    const info = await lstat(path).catch(() => null);
    if (info?.isDirectory()) return;
    this.unwatch(path);
    this.options.onFolderGone(path);
    if (info) this.options.onPath(path);
  }

  /** Stops watching a folder and every folder below it. */
  private unwatch(dir: string): void {
    for (const [path, { watcher }] of this.folders) {
      if (!isWithin(dir, path)) continue;
      watcher.close();
      this.folders.delete(path);
    }
  }

  private async relist(dir: string, level: number): Promise<void> {
    for await (const entry of folderEntries(dir)) {
      const path = join(dir, entry.name);
      if (!entry.isDirectory()) this.options.onPath(path);
      else if (!this.folders.has(path) && level < this.options.depth && !this.options.skipDir(entry.name))
        await this.walk(path, level + 1, { watch: true, report: true });
    }
  }

  /** An event under a root watched recursively: a path somewhere below it, within the depth and outside skipped folders. */
  private recursiveEvent(root: string, name: string | null): void {
    if (this.closed) return;
    // The system lost track of what changed (an overflowed queue): every file below the root is reported again.
    if (name === null) return void this.walk(root, 0, { watch: false, report: true });
    const parts = name.split(/[\\/]/);
    // A path of n parts lies in a folder of level n - 1; folders are watched down to level `depth`.
    if (parts.length - 1 > this.options.depth || parts.slice(0, -1).some((p) => this.options.skipDir(p))) return;
    const path = join(root, name);
    void lstat(path).then(
      (info) => {
        if (!info.isDirectory()) this.options.onPath(path);
      },
      (err: unknown) => {
        if (!QUIET.has(codeOf(err))) return;
        // Gone: it may have been a folder, whose sessions go with it (nothing is held per path to tell).
        this.options.onPath(path);
        this.options.onFolderGone(path);
      },
    );
  }
}
