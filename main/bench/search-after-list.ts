// The first `search` after a cold `list` in the same data folder: a command that only lists reads no index text (library-sync.ts, `textLater`), so that search reads every file again; timed beside the list before it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './list-vs-ccusage.ts';
import { timedProcess } from './timed-process.ts';

export interface ListThenSearch {
  /** `list --json` into a fresh data folder. */
  listMs: number;
  /** Then `search <word> --json` over the same roots and data folder, spawn to exit. */
  searchMs: number;
  /** Sessions that search found. */
  found: number;
}

export async function listThenSearch(root: string, word: string): Promise<ListThenSearch> {
  const home = await mkdtemp(join(tmpdir(), 'sv-bench-list-search-'));
  try {
    const env = { ...process.env, SESSION_VAULT_HOME: join(home, 'data'), HOME: home };
    const roots = ['--no-defaults', '--root', root];
    const list = await timedProcess(process.execPath, [CLI, 'list', '--json', ...roots], env);
    const search = await timedProcess(process.execPath, [CLI, 'search', word, '--json', '--limit', '1', ...roots], env);
    const { total } = JSON.parse(search.stdout) as { total: number };
    return { listMs: list.ms, searchMs: search.ms, found: total };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
