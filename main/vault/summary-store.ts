// The vault's session summaries: one small JSON file per session, written atomically, read again when another process changes them.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SummaryFields } from '../../shared/summary-api.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { safeName } from './vault-store.ts';

/** One summary file: the session's key, the summary, who wrote it and when. */
const SummaryFile = z.object({
  key: z.string().min(1),
  summary: SummaryFields,
  author: z.string().min(1),
  updatedAt: z.string(),
});
export type StoredSummary = Omit<z.infer<typeof SummaryFile>, 'key'>;

/** The words a search looks for in a summary: every field, one per line. */
export function summarySearchText(summary: SummaryFields): string {
  return [summary.overview, ...summary.decisions, ...summary.outcomes, ...summary.openItems, ...summary.tags].join('\n');
}

interface Held {
  key: string;
  mtimeMs: number;
  /** When the file was read (wall clock): soon after its modification time, a later write may have kept that time. */
  readAt: number;
  stored: StoredSummary;
  text: string;
}

/**
 * How long after a change its modification time may still be shared by a later one: file systems that keep whole
 * seconds (HFS+, network shares) or two (FAT). A time read this soon is not trusted to say nothing changed since.
 */
const COARSE_CLOCK_MS = 3000;
/** While a listing is that recent, how often the folder is listed again anyway (another process may have written). */
const RECHECK_MS = 100;

/** Whether a time read at `readAt` still says what it said then: a change after it would have moved it. */
const settled = (mtimeMs: number, readAt: number) => readAt - mtimeMs >= COARSE_CLOCK_MS;

export class SummaryStore {
  readonly dir: string;
  /** By file name: what each file held when it was last read. */
  private readonly byFile = new Map<string, Held>();
  private readonly byKey = new Map<string, Held>();
  /** The folder's modification time when it was last listed; a rename into it (another process's write) moves it. */
  private listedAt = Number.NaN;
  /** When (wall clock) the folder was last listed. */
  private listedWhen = 0;
  private problems: string[] = [];

  constructor(vaultRoot: string) {
    this.dir = join(vaultRoot, 'summaries');
  }

  /** Reads every summary file; unreadable ones are reported and skipped, never fatal. */
  load(): string[] {
    this.refresh(true);
    return this.problems;
  }

  /**
   * Picks up summaries another process wrote (the MCP server, the CLI, the app) since the folder was last listed:
   * one stat when nothing changed; only files whose modification time moved are read again. A time read within a
   * coarse clock's tick of itself proves nothing (a write in the same tick keeps it): such a folder is listed again at
   * most every RECHECK_MS, and such a file read again, until the tick is past.
   */
  refresh(force = false): void {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(this.dir).mtimeMs;
    } catch {
      this.byFile.clear();
      this.byKey.clear();
      this.listedAt = Number.NaN;
      return;
    }
    const now = Date.now();
    if (!force && mtimeMs === this.listedAt && (settled(mtimeMs, this.listedWhen) || now - this.listedWhen < RECHECK_MS)) return;
    this.listedAt = mtimeMs;
    this.listedWhen = now;
    this.problems = [];
    const names = new Set(readdirSync(this.dir).filter((n) => n.endsWith('.json') && !n.startsWith('.')));
    for (const name of [...this.byFile.keys()]) if (!names.has(name)) this.byFile.delete(name);
    for (const name of names) {
      const path = join(this.dir, name);
      try {
        const fileMtime = statSync(path).mtimeMs;
        const held = this.byFile.get(name);
        if (held?.mtimeMs === fileMtime && settled(fileMtime, held.readAt)) continue;
        const parsed = SummaryFile.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        if (!parsed.success) {
          this.byFile.delete(name);
          this.problems.push(`Summary file ${name} is not valid and was skipped.`);
          continue;
        }
        const { key, ...stored } = parsed.data;
        this.byFile.set(name, { key, mtimeMs: fileMtime, readAt: now, stored, text: summarySearchText(stored.summary) });
      } catch (err) {
        this.byFile.delete(name);
        // A file removed between the listing and the read is simply gone.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.problems.push(`Summary file ${name} could not be read (${(err as Error).message}).`);
      }
    }
    this.byKey.clear();
    for (const held of this.byFile.values()) this.byKey.set(held.key, held);
  }

  /**
   * Reads the folder again now and returns the sessions whose summary another process wrote, changed or removed
   * since it was last read (what a watcher of the folder asks when it moved). The app's own writes are held already,
   * so they change nothing.
   */
  reload(): string[] {
    const before = new Map([...this.byKey].map(([key, held]) => [key, JSON.stringify(held.stored)]));
    this.refresh(true);
    const changed = new Set<string>();
    for (const [key, held] of this.byKey) if (before.get(key) !== JSON.stringify(held.stored)) changed.add(key);
    for (const key of before.keys()) if (!this.byKey.has(key)) changed.add(key);
    return [...changed];
  }

  get(key: string): StoredSummary | undefined {
    this.refresh();
    return this.byKey.get(key)?.stored;
  }

  /** Every session the vault holds a summary for. */
  keys(): string[] {
    this.refresh();
    return [...this.byKey.keys()];
  }

  /** Each summary's text (what a search matches its terms against). */
  texts(): Iterable<[key: string, text: string]> {
    this.refresh();
    return [...this.byKey.values()].map((h): [string, string] => [h.key, h.text]);
  }

  private fileName(key: string): string {
    return `${safeName(key)}.json`;
  }

  async set(key: string, summary: SummaryFields, author: string, now = new Date()): Promise<StoredSummary> {
    const stored: StoredSummary = { summary, author, updatedAt: now.toISOString() };
    const name = this.fileName(key);
    await writeFileAtomic(join(this.dir, name), `${JSON.stringify({ key, ...stored }, null, 2)}\n`);
    this.refresh();
    // Held at once, whatever the file system's timestamps say.
    const held: Held = { key, mtimeMs: statSync(join(this.dir, name)).mtimeMs, readAt: Date.now(), stored, text: summarySearchText(summary) };
    this.byFile.set(name, held);
    this.byKey.set(key, held);
    return stored;
  }

  async remove(key: string): Promise<void> {
    const name = this.fileName(key);
    await rm(join(this.dir, name), { force: true });
    this.refresh();
    this.byFile.delete(name);
    this.byKey.delete(key);
  }
}
