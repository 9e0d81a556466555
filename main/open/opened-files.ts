// Session files opened on their own (dropped, "Open file…", the OS's open-with, the File menu): read and listed without adding their folder; each becomes a one-file source until the app quits.
import { randomBytes } from 'node:crypto';
import { mkdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { ServiceMethods } from '../../shared/api.ts';
import type { OpenedSessionFile } from '../../shared/open-api.ts';
import { AppError } from '../../shared/result.ts';

export interface OpenedFilesDeps {
  dataDir: string;
  /** Reads one file into the list as a session (wherever it lies); its key and title, or an AppError saying why not. */
  readFile(path: string): Promise<{ key: string; title: string }>;
  /** The finished upload's file (the upload is then over). */
  takeUpload(uploadId: string): Promise<string>;
  /** A file the OS or the menu opened is waiting for the window. */
  notify(): void;
}

/** A name safe to write in our own folder: the file's own name without path or control characters. */
export function safeFileName(name: string): string {
  // Control characters (and any slash left) become "_".
  // eslint-disable-next-line no-control-regex
  const unsafe = /[\u0000-\u001f\u007f/]/g;
  const cleaned = basename(name.replace(/\\/g, '/')).replace(unsafe, '_').trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned.slice(0, 200) : 'session';
}

export class OpenedFiles {
  private readonly deps: OpenedFilesDeps;
  /** Real paths of every file opened this run: each is a source of one file for the roots check. */
  private readonly files = new Set<string>();
  private waiting: OpenedSessionFile[] = [];

  constructor(deps: OpenedFilesDeps) {
    this.deps = deps;
  }

  /** The opened files, as the roots check takes them. */
  paths(): string[] {
    return [...this.files];
  }

  /** Opens a file by its path (the OS, the File menu, the command line): the caller vouches that the user chose it. */
  async open(path: string): Promise<OpenedSessionFile> {
    const abs = resolve(path);
    const info = await stat(abs).catch(() => null);
    if (!info) throw new AppError('NOT_FOUND', `${abs} does not exist.`);
    if (!info.isFile()) throw new AppError('INVALID_INPUT', `${abs} is not a file.`);
    const real = await realpath(abs);
    const known = this.files.has(real);
    this.files.add(real);
    try {
      const { key, title } = await this.deps.readFile(real);
      return { key, title, path: real };
    } catch (err) {
      if (!known) this.files.delete(real);
      throw err;
    }
  }

  /** Opens a file the OS or the menu handed over, and tells the window; a sentence for the user when it cannot be. */
  async openForWindow(path: string): Promise<string | null> {
    try {
      // Not `this.waiting.push(await …)`: a window may take (and replace) the list while the file is read.
      const file = await this.open(path);
      this.waiting.push(file);
      this.deps.notify();
      return null;
    } catch (err) {
      return err instanceof AppError ? err.message : `${path} could not be opened: ${(err as Error).message}`;
    }
  }

  /** An uploaded file (the browser has no paths): kept under the data folder as `opened/<random>/<its name>`, then opened. */
  async openUpload(uploadId: string, fileName: string): Promise<OpenedSessionFile> {
    const uploaded = await this.deps.takeUpload(uploadId);
    const dir = join(this.deps.dataDir, 'opened', randomBytes(8).toString('hex'));
    await mkdir(dir, { recursive: true });
    const target = join(dir, safeFileName(fileName));
    await rename(uploaded, target);
    try {
      return await this.open(target);
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  methods(): Pick<ServiceMethods, 'openUploadedSession' | 'takeOpenedSessions'> {
    return {
      openUploadedSession: async ({ uploadId, fileName }) => this.openUpload(uploadId, fileName),
      takeOpenedSessions: async () => {
        const taken = this.waiting;
        this.waiting = [];
        return taken;
      },
    };
  }
}
