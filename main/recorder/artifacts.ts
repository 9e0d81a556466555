// Files beside session.json: attached diffs, prompts and logs, and payloads too large to keep inline.
import { access } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.ts';

export const ARTIFACTS_DIR = 'artifacts';
/** Larger chat contents, operation details and annotations move to an artifact file (seed 000: files stay small). */
export const DEFAULT_INLINE_LIMIT_BYTES = 256 * 1024;
const PREVIEW_CHARS = 1_000;

export function byteLength(value: unknown): number {
  return Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
}

export function preview(text: string): string {
  return text.length <= PREVIEW_CHARS ? text : `${text.slice(0, PREVIEW_CHARS)}…`;
}

function safeName(name: string): string {
  const cleaned = basename(name)
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '');
  return cleaned || 'artifact';
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Writes artifacts under `<session>/artifacts/`, never replacing one already written. */
export class ArtifactFolder {
  private readonly sessionDir: string;
  private readonly taken: Set<string>;

  constructor(sessionDir: string, existing: readonly string[]) {
    this.sessionDir = sessionDir;
    this.taken = new Set(existing);
  }

  /** Returns the path relative to the session folder, as listed in session.json's `artifacts`. */
  async write(name: string, content: string): Promise<string> {
    const base = safeName(name);
    const ext = extname(base);
    const stem = base.slice(0, base.length - ext.length) || 'artifact';
    for (let n = 1; ; n++) {
      const rel = `${ARTIFACTS_DIR}/${n === 1 ? base : `${stem}-${n}${ext}`}`;
      if (this.taken.has(rel) || (await exists(join(this.sessionDir, rel)))) continue;
      this.taken.add(rel);
      await writeFileAtomic(join(this.sessionDir, rel), content);
      return rel;
    }
  }
}
