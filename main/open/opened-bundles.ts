// Bundles the operating system asked the app to open: remembered by a random id, handed to a window once, read in pieces.
import { randomBytes } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { ServiceMethods } from '../../shared/api.ts';
import type { OpenedBundle } from '../../shared/bundle-api.ts';
import { AppError } from '../../shared/result.ts';

interface Opened extends OpenedBundle {
  path: string;
  taken: boolean;
}

/**
 * Only paths the OS gave the app (open-with, argv) are ever readable here, and only through their random id,
 * so the window can import them with its usual upload flow but cannot name any other file.
 */
export class OpenedBundles {
  private readonly byId = new Map<string, Opened>();
  private readonly notify: () => void;

  constructor(notify: () => void) {
    this.notify = notify;
  }

  /** Remembers a file to import; returns a sentence for the user when it cannot be (missing, a folder, empty). */
  async add(path: string): Promise<string | null> {
    const abs = resolve(path);
    const info = await stat(abs).catch(() => null);
    if (!info) return `${abs} does not exist.`;
    if (!info.isFile()) return `${abs} is not a file.`;
    if (info.size === 0) return `${abs} is empty.`;
    const openId = randomBytes(16).toString('hex');
    this.byId.set(openId, { openId, fileName: basename(abs), size: info.size, path: abs, taken: false });
    this.notify();
    return null;
  }

  take(): OpenedBundle[] {
    const fresh = [...this.byId.values()].filter((o) => !o.taken);
    for (const o of fresh) o.taken = true;
    return fresh.map(({ openId, fileName, size }) => ({ openId, fileName, size }));
  }

  async read(openId: string, offset: number, length: number): Promise<{ data: string }> {
    const opened = this.byId.get(openId);
    if (!opened) throw new AppError('NOT_FOUND', 'No opened bundle with this id; open the file again.', 'openId');
    const handle = await open(opened.path, 'r').catch((err: NodeJS.ErrnoException) => {
      throw new AppError('IO_ERROR', `${opened.path} cannot be read (${err.code ?? err.message}).`);
    });
    try {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, opened.size - offset)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      return { data: buffer.subarray(0, bytesRead).toString('base64') };
    } finally {
      await handle.close();
    }
  }

  /** The contract's methods for them: a window takes the new ones and reads each in pieces. */
  methods(): Pick<ServiceMethods, 'takeOpenedBundles' | 'readOpenedBundle'> {
    return {
      takeOpenedBundles: async () => this.take(),
      readOpenedBundle: async ({ openId, offset, length }) => this.read(openId, offset, length),
    };
  }
}
