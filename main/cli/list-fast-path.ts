// `list` from the index as it is when nothing below the roots changed since a full run (index-current.ts): the app's own list over a read-only catalogue, no services, no workers, no scan.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionSummary } from '../../shared/session.ts';
import { describeError } from '../fs/fs-error-text.ts';
import { listInBatches } from '../search-index/search-service.ts';
import { withCurrentCatalogue } from './current-catalogue.ts';
import { SNAPSHOT_FILE, type RootsOptions } from './index-current.ts';

/**
 * Rows read from the index, and handed on, at a time: a long list is never held whole. Small, so a batch's rows are
 * printed before V8's young generation (held at ~1 MB, idle-memory.ts) is collected twice: 256 rows at a time were
 * alive across collections and moved to the old generation (~6 MB over 1,698 rows), each moved page a fresh one
 * (~420 more page faults); 32: warm list --json of 1,698 sessions 276 -> 266 ms p50 (25 rounds, interleaved).
 */
const LIST_BATCH = 32;

/**
 * Every session as `list` prints them (the contract's listSessions({})), handed to `print` a batch at a time, in order;
 * false (nothing printed) when a full start is needed. An index that fails once rows are out cannot fall back without
 * printing them twice: the command fails saying so, and the snapshot goes, so the next run reads the folders anew.
 */
export async function fastListInBatches(
  dataDir: string,
  options: RootsOptions,
  env: NodeJS.ProcessEnv,
  print: (batch: SessionSummary[]) => void,
): Promise<boolean> {
  let printed = false;
  const outcome = await withCurrentCatalogue(dataDir, { ...options, searches: false }, env, (catalogue, marks) => {
    try {
      for (const batch of listInBatches(catalogue, {}, marks.decorate, marks.annotated, LIST_BATCH)) {
        print(batch);
        printed = true;
      }
      return { done: true } as const;
    } catch (err) {
      if (!printed) throw err;
      return { done: false, err } as const;
    }
  });
  if (!outcome) return false;
  if (outcome.done) return true;
  rmSync(join(dataDir, SNAPSHOT_FILE), { force: true });
  throw new Error(`The index could not be read to the end of the list (${describeError(outcome.err)}). Run the command again: it will read the folders anew.`);
}

/** Every session as `list` prints them, or null when a full start is needed. */
export async function fastList(dataDir: string, options: RootsOptions, env: NodeJS.ProcessEnv): Promise<SessionSummary[] | null> {
  const sessions: SessionSummary[] = [];
  return (await fastListInBatches(dataDir, options, env, (batch) => sessions.push(...batch))) ? sessions : null;
}
