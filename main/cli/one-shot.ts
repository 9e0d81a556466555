// The lifecycle every one-shot CLI command shares: start the services without watching, scan, work, close.
import { resolve } from 'node:path';
import { configureHeaps } from '../env/idle-memory.ts';
import { createServices, type Services } from '../app/services.ts';
import { resolveDataDir } from '../env/data-dir.ts';
import { sanitizeForTerminal } from './terminal-text.ts';
import { knownFiles } from '../catalogue/known-files.ts';
import { checkChanges, type FoundChanges } from './index-current.ts';
import type { FinishedRun } from './scan-snapshot.ts';

export interface OneShotOptions {
  /** --root folders, relative to the current directory; used for this run only. */
  roots?: string[] | undefined;
  /** --no-defaults: skip the tools' default folders. */
  noDefaults?: boolean | undefined;
  /**
   * What the command needs before it works: every session listed (`list`: list, export, diff, resume and the other
   * commands on named sessions), or every session's text searchable too (`search`, the default).
   */
  needs?: 'list' | 'search';
  /**
   * What this command's check found on disk (changesFound; null: none, undefined: checked here, checkChanges): the
   * first scan reads its list of files instead of walking the roots, and parses its first few small files on this
   * thread instead of starting a worker.
   */
  found?: FoundChanges | null;
}

/** At most this many files, and bytes, are parsed on the main thread (a worker's start costs ~300-400 ms). */
export const INLINE_READ_FILES = 8;
export const INLINE_READ_BYTES = 4 * 1024 * 1024;

/** Runs `work` on the services, started for this process; it talks to them through `services.client`. */
export async function withOneShotServices<T>(options: OneShotOptions, env: NodeJS.ProcessEnv, work: (services: Services) => Promise<T>): Promise<T> {
  // The command's process sizes V8's heaps before the services start their worker threads (idle-memory.ts).
  configureHeaps();
  const startedAt = Date.now();
  const dataDir = resolveDataDir(env);
  const extraRoots = (options.roots ?? []).map((r) => resolve(r));
  // A command without a quick path of its own (export, diff, open, ...) checks the last run's snapshot here.
  const found = options.found !== undefined ? options.found : await checkChanges(dataDir, { roots: extraRoots, noDefaults: options.noDefaults === true }, env);
  const services = createServices({
    dataDir,
    shell: 'cli',
    extraRoots,
    discoverDefaults: !options.noDefaults,
    watch: false,
    // A command that does not search reads no index text: the next one that searches reads those files again.
    textLater: options.needs === 'list',
    knownFiles: found ? knownFiles(found.folders) : undefined,
    inlineReads: found ? { files: INLINE_READ_FILES, bytes: INLINE_READ_BYTES } : undefined,
    env,
  });
  let answer: T;
  let run: Pick<FinishedRun, 'roots' | 'problems'>;
  try {
    await services.start();
    for (const problem of services.startupProblems()) process.stderr.write(`warning: ${sanitizeForTerminal(problem)}\n`);
    // A command that does not search never waits for the full-text index: it catches up in a later run.
    await (options.needs === 'list' ? services.whenListed() : services.whenScanned());
    answer = await work(services);
    run = { roots: await services.client.listRoots(), problems: services.startupProblems() };
  } finally {
    await services.close();
  }
  // What this command's own check found, now in the index, patched into the snapshot (list, search and usage record
  // theirs): the next command's check finds nothing changed. Loaded only here (recordScan loads node:crypto).
  if (options.found === undefined && found) {
    const { recordScan } = await import('./scan-snapshot.ts');
    await recordScan(dataDir, { extraRoots, noDefaults: options.noDefaults === true, env, startedAt, found, ...run });
  }
  return answer;
}
