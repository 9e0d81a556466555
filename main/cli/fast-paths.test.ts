// `list` and `search` answer from the index alone when nothing changed since a full run, with the very answer a full start gives; a file added, changed or deleted since sends them down the full path, which sees it.
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchInput } from '../search-index/search-service.ts';
import { createServices } from '../app/services.ts';
import { samplesDir } from '../test-support/samples.ts';
import { runCli } from '../test-support/run-cli.ts';
import { SNAPSHOT_FILE } from './index-current.ts';
import { formatTable } from './list-command.ts';
import { fastList } from './list-fast-path.ts';
import { formatFacets, formatResults } from './search-command.ts';
import { fastSearch } from './search-fast-path.ts';
import { terminalJson } from './terminal-text.ts';

let base: string;
let root: string;
const dataDir = () => join(base, 'data');
const home = () => join(base, 'home');
const env = () => ({ ...process.env, SESSION_VAULT_HOME: dataDir(), HOME: home() });
const options = () => ({ roots: [root], noDefaults: true });
const cli = async (...args: string[]) => {
  const run = await runCli([...args, '--no-defaults', '--root', root], { base });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
};

/** Every folder and file below `dir` an hour old, as files on a machine are (a run keeps no snapshot of what changed while it scanned). */
async function age(dir: string): Promise<void> {
  const past = new Date(Date.now() - 3_600_000);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) await age(join(dir, entry.name));
    else if (entry.isFile()) await utimes(join(dir, entry.name), past, past);
  }
  await utimes(dir, past, past);
}

/** The services as a full run starts them, over the same folders; their answers are what the fast paths must equal. */
async function withServices<T>(work: (client: ReturnType<typeof createServices>['client']) => Promise<T>): Promise<T> {
  const services = createServices({ dataDir: dataDir(), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: env() });
  try {
    await services.start();
    await services.whenScanned();
    return await work(services.client);
  } finally {
    await services.close();
  }
}

const CLAUDE = 'claude-code/projects/-home-user-src-demo';

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-fast-paths-'));
  root = join(base, 'sessions');
  // The whole sample corpus: every format, sub-agents, stores that hold many sessions (`<store>#<id>`), unreadable files.
  await cp(samplesDir, root, { recursive: true });
  await mkdir(home(), { recursive: true });
  // A kept copy, a star, a tag and a note: what the vault adds to rows and filters.
  await withServices(async (client) => {
    const { sessions } = await client.listSessions({});
    const readable = sessions.filter((s) => !s.unreadable);
    await client.keepSession({ key: (readable[0] as { key: string }).key });
    await client.setAnnotations({ key: (readable[1] as { key: string }).key, starred: true, tags: ['release'], note: 'look again' });
    await client.setAnnotations({ key: (readable[2] as { key: string }).key, tags: ['release'] });
  });
  await age(root);
  await age(join(dataDir(), 'vault'));
}, 180_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const QUERIES: SearchInput[] = [
  { query: 'the', limit: 20, offset: 0 },
  { query: 'the', limit: 1000, offset: 0, sort: 'updated' },
  { query: 'source:codex', limit: 20, offset: 0 },
  { query: 'error -test', limit: 50, offset: 0 },
  { query: '"read the"', limit: 20, offset: 0 },
  { query: 'fil*', limit: 20, offset: 0, sort: 'size' },
  { query: 'is:starred', limit: 20, offset: 0 },
  { query: 'tag:release', limit: 20, offset: 0 },
  { query: 'is:kept', limit: 20, offset: 0 },
  { query: 'model:claude the', limit: 20, offset: 0 },
  { query: 'after:2020-01-01 tokens>10', limit: 20, offset: 0 },
  { query: 'the', limit: 20, offset: 0, facets: true },
  { query: '', limit: 20, offset: 0, facets: true },
  { query: 'zzzznotaword', limit: 20, offset: 0 },
];

describe('list and search without a scan', () => {
  it('answer as the full path does once a full run recorded the disk: every row, order, snippet and byte', async () => {
    await rm(join(dataDir(), SNAPSHOT_FILE), { force: true });
    expect(await fastList(dataDir(), options(), env())).toBeNull();
    // A full run records what it saw; the next answers from the index.
    const slowJson = await cli('list', '--json');
    const fast = await fastList(dataDir(), options(), env());
    expect(fast).not.toBeNull();
    expect(`${terminalJson(fast)}\n`).toBe(slowJson);
    expect((JSON.parse(slowJson) as unknown[]).length).toBeGreaterThan(50);

    await withServices(async (client) => {
      const slowList = (await client.listSessions({})).sessions;
      expect(formatTable(fast ?? [])).toBe(formatTable(slowList));
      expect(formatTable(fast ?? [], 100)).toBe(formatTable(slowList, 100));
      let answered = 0;
      for (const input of QUERIES) {
        const slow = await client.searchSessions(input);
        if (slow.total > 0) answered++;
        const quick = await fastSearch(dataDir(), options(), env(), input);
        expect(quick, input.query).not.toBeNull();
        expect({ ...quick, tookMs: 0 }, input.query).toEqual({ ...slow, tookMs: 0 });
        expect(terminalJson({ ...quick, tookMs: 0 }), input.query).toBe(terminalJson({ ...slow, tookMs: 0 }));
        expect(formatResults(quick?.results ?? [], quick?.total ?? 0)).toBe(formatResults(slow.results, slow.total));
        if (slow.facets) expect(quick?.facets && formatFacets(quick.facets)).toBe(formatFacets(slow.facets));
      }
      // Every query but the one for a word no session has finds sessions: the comparisons are of real pages.
      expect(answered).toBe(QUERIES.length - 1);
    });
    // The fixture covers what the rows depend on.
    const rows = JSON.parse(slowJson) as Array<{ unreadable: unknown; kept: boolean; starred: boolean; childCount: number; primaryPath: string }>;
    expect(rows.some((r) => r.unreadable)).toBe(true);
    expect(rows.some((r) => r.kept)).toBe(true);
    expect(rows.some((r) => r.starred)).toBe(true);
    expect(rows.some((r) => r.childCount > 0)).toBe(true);
  }, 180_000);

  it('the command line prints the fast answer itself', async () => {
    const first = await cli('search', 'the', '--json');
    const second = await cli('search', 'the', '--json');
    const withoutTime = (s: string) => ({ ...(JSON.parse(s) as object), tookMs: 0 });
    expect(withoutTime(second)).toEqual(withoutTime(first));
    expect(await cli('list')).toBe(formatTable((await fastList(dataDir(), options(), env())) ?? []));
  }, 120_000);

  it('takes the full path for a changed, added or deleted session file, and shows the change', async () => {
    const file = join(root, CLAUDE, '11111111-1111-4111-8111-111111111111.jsonl');
    const sizeOf = async () =>
      (JSON.parse(await cli('list', '--json')) as Array<{ primaryPath: string; size: number }>).find((s) => s.primaryPath === file)?.size;

    // Changed: one more line.
    await cli('list', '--json');
    expect(await fastList(dataDir(), options(), env())).not.toBeNull();
    await appendFile(file, '\n');
    expect(await fastList(dataDir(), options(), env())).toBeNull();
    expect(await sizeOf()).toBe((await stat(file)).size);

    // Added: a new session with a word no other has, found by search at once.
    await cli('list', '--json');
    const added = join(root, CLAUDE, '99999999-9999-4999-8999-999999999999.jsonl');
    const line = {
      type: 'user',
      sessionId: '99999999-9999-4999-8999-999999999999',
      uuid: 'a1',
      parentUuid: null,
      timestamp: '2026-01-02T03:04:05.000Z',
      cwd: '/home/user/src/demo',
      message: { role: 'user', content: 'find the quuxplonk please' },
    };
    await writeFile(added, `${JSON.stringify(line)}\n`);
    expect(await fastSearch(dataDir(), options(), env(), { query: 'quuxplonk', limit: 20, offset: 0 })).toBeNull();
    const found = JSON.parse(await cli('search', 'quuxplonk', '--json')) as { total: number; results: Array<{ summary: { primaryPath: string } }> };
    expect(found.total).toBe(1);
    expect(found.results[0]?.summary.primaryPath).toBe(added);
    // Then the fast path again (the full run recorded the new state), still finding it.
    const again = await fastSearch(dataDir(), options(), env(), { query: 'quuxplonk', limit: 20, offset: 0 });
    expect(again?.total).toBe(1);

    // Deleted: gone from the list.
    await rm(added);
    expect(await fastList(dataDir(), options(), env())).toBeNull();
    const listed = JSON.parse(await cli('list', '--json')) as Array<{ primaryPath: string }>;
    expect(listed.some((s) => s.primaryPath === added)).toBe(false);
    expect(listed.some((s) => s.primaryPath === file)).toBe(true);
  }, 180_000);

  it('after a change, reads only what its check found changed (no walk), and the next run answers from the index again', async () => {
    const folder = join(root, CLAUDE);
    const file = join(folder, '11111111-1111-4111-8111-111111111111.jsonl');
    // A folder time the test can set again exactly (whole seconds, two hours back).
    const fixed = new Date(Math.floor(Date.now() / 1000) * 1000 - 7_200_000);
    await utimes(folder, fixed, fixed);
    await cli('list', '--json');
    expect(await fastList(dataDir(), options(), env())).not.toBeNull();
    // A file the check cannot see (its folder's time set back) and one it sees (written to).
    const unseen = join(folder, '88888888-8888-4888-8888-888888888888.jsonl');
    await writeFile(unseen, (await readFile(file, 'utf8')).replaceAll('11111111-1111-4111-8111-111111111111', '88888888-8888-4888-8888-888888888888'));
    await utimes(folder, fixed, fixed);
    await appendFile(file, '\n');
    const listed = JSON.parse(await cli('list', '--json')) as Array<{ primaryPath: string; size: number }>;
    expect(listed.find((s) => s.primaryPath === file)?.size).toBe((await stat(file)).size);
    // The scan read the folders as the check listed them: a walk would have found the other file.
    expect(listed.some((s) => s.primaryPath === unseen)).toBe(false);
    // The snapshot was brought up to date without a walk: the next run is quick again, with the new size.
    const fast = await fastList(dataDir(), options(), env());
    expect(fast?.find((s) => s.primaryPath === file)?.size).toBe((await stat(file)).size);
    // Once its folder's time moves, the file is found.
    await utimes(folder, new Date(), new Date());
    expect((JSON.parse(await cli('list', '--json')) as Array<{ primaryPath: string }>).some((s) => s.primaryPath === unseen)).toBe(true);
    await rm(unseen);
    await age(folder);
    // A search run takes in the text the list-only runs left waiting, as the tests after this one expect.
    await cli('search', 'the', '--json');
  }, 180_000);

  it('a command without a quick path of its own (open) reads what the check found too, without a walk', async () => {
    const folder = join(root, CLAUDE);
    const id = '33333333-3333-4333-8333-333333333333';
    const file = join(folder, `${id}.jsonl`);
    const fixed = new Date(Math.floor(Date.now() / 1000) * 1000 - 7_200_000);
    await utimes(folder, fixed, fixed);
    await cli('list', '--json');
    const unseen = join(folder, 'abababab-abab-4bab-8bab-abababababab.jsonl');
    await writeFile(unseen, (await readFile(file, 'utf8')).replaceAll(id, 'abababab-abab-4bab-8bab-abababababab'));
    await utimes(folder, fixed, fixed);
    await appendFile(file, '\n');
    const opened = JSON.parse(await cli('open', '--json', `claude-code:${id}`)) as { size: number; primaryPath: string };
    expect(opened.primaryPath).toBe(file);
    // It recorded what it read: the next list answers from the index, with the new size.
    expect((await fastList(dataDir(), options(), env()))?.find((s) => s.primaryPath === file)?.size).toBe((await stat(file)).size);
    expect(opened.size).toBe((await stat(file)).size);
    // The walk would have found it; the check's list did not (its folder's time was set back).
    const missing = await runCli(['open', '--json', 'claude-code:abababab-abab-4bab-8bab-abababababab', '--no-defaults', '--root', root], { base });
    expect(missing.code).not.toBe(0);
    await rm(unseen);
    await age(folder);
    await cli('search', 'the', '--json');
  }, 180_000);

  it('takes the full path for other folders, and search for text a list-only run left waiting', async () => {
    await cli('list', '--json');
    expect(await fastList(dataDir(), options(), env())).not.toBeNull();
    expect(await fastList(dataDir(), { roots: [root, samplesDir], noDefaults: true }, env())).toBeNull();
    expect(await fastList(dataDir(), { roots: [root], noDefaults: false }, env())).toBeNull();
    // With auto-keep on, a full start keeps sessions that went idle: only it can.
    const settings = join(dataDir(), 'vault', 'settings.json');
    await writeFile(settings, JSON.stringify({ autoKeep: true }));
    expect(await fastList(dataDir(), options(), env())).toBeNull();
    await rm(settings);
    const input = { query: 'the', limit: 20, offset: 0 };
    expect(await fastSearch(dataDir(), options(), env(), input)).not.toBeNull();
    const db = new DatabaseSync(join(dataDir(), 'index.sqlite'));
    try {
      db.prepare('INSERT INTO fts_pending (id, more) VALUES ((SELECT max(id) FROM files), ?)').run('waiting');
      expect(await fastSearch(dataDir(), options(), env(), input)).toBeNull();
      expect(await fastList(dataDir(), options(), env())).not.toBeNull();
    } finally {
      db.prepare('DELETE FROM fts_pending').run();
      db.close();
    }
  }, 120_000);

  it('repeats a full run’s warnings: a run that warned records nothing, so the next warns again', async () => {
    await cli('list', '--json');
    expect(await fastList(dataDir(), options(), env())).not.toBeNull();
    const pricing = join(dataDir(), 'pricing.json');
    await writeFile(pricing, '{ not json');
    expect(await fastList(dataDir(), options(), env())).toBeNull();
    for (let i = 0; i < 2; i++) {
      const run = await runCli(['list', '--json', '--no-defaults', '--root', root], { base });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^warning: .*pricing\.json/m);
    }
    await rm(pricing);
    await cli('list', '--json');
    expect(await fastList(dataDir(), options(), env())).not.toBeNull();
  }, 120_000);

  it('keeps the default folders it found while the variables that decide them stay as they were', async () => {
    const run = await runCli(['list', '--json', '--root', root], { base });
    expect(run.code, run.stderr).toBe(0);
    const withDefaults = { roots: [root], noDefaults: false };
    expect(`${terminalJson(await fastList(dataDir(), withDefaults, env()))}\n`).toBe(run.stdout);
    // Claude Code's folder moved elsewhere, to a folder that exists: the defaults are asked again, and differ.
    const moved = join(base, 'claude-elsewhere');
    await mkdir(join(moved, 'projects'), { recursive: true });
    expect(await fastList(dataDir(), withDefaults, { ...env(), CLAUDE_CONFIG_DIR: moved })).toBeNull();
    expect(await fastList(dataDir(), withDefaults, env())).not.toBeNull();
  }, 120_000);
});
