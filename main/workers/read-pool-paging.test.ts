// The session worker pages a big session after a restart: its first read writes the table, a new worker reads windows through it.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { waitUntil } from '../test-support/wait-for.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReadPool } from './read-pool.ts';
import { writeClaudeTranscript } from '../bench/generate-large.ts';
import { readClaudeCodeFile } from '../sources/claude-code/claude-code.ts';

let dir: string;
const pools: ReadPool[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-pool-paging-'));
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await rm(dir, { recursive: true, force: true });
});

it('a new worker answers windows through the table the first one wrote, as the full read gives them', async () => {
  const path = join(dir, 'projects', '-home-dev-big', 'bbbbbbbb-0000-4000-8000-000000000300.jsonl');
  await writeClaudeTranscript(path, 300_000, 'bbbbbbbb-0000-4000-8000-000000000300');
  const paging = { dir: join(dir, 'pages'), minBytes: 0, pageMessages: 10 };
  const full = await readClaudeCodeFile(path);

  const first = new ReadPool(1);
  pools.push(first);
  const opened = await first.window(path, 0, 30, 'interactive', paging);
  expect(opened.ok && opened.messagesTotal).toBe(full.messages.length);
  // The table is written after the answer, beside later requests: wait for the renamed table, not its temp file
  // (a timeout guard: under load the table's pages take seconds to check).
  const tables = async () => (await readdir(paging.dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json'));
  await waitUntil(async () => (await tables()).length > 0, 30_000, 'the page table');
  expect(await tables()).toHaveLength(1);
  await first.close();

  const restarted = new ReadPool(1);
  pools.push(restarted);
  const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
  for (const offset of [0, 57, full.messages.length - 30]) {
    const window = await restarted.window(path, offset, 30, 'interactive', paging);
    if (!window.ok) throw new Error(window.unreadable.message);
    expect(plain(window.session)).toEqual(plain({ ...full, messages: full.messages.slice(offset, offset + 30) }));
  }

  // The windows did come through the table, not a second full read: a title changed in the table shows.
  const [name] = await tables();
  const file = join(paging.dir, name as string);
  const table = JSON.parse(await readFile(file, 'utf8')) as { header: { title: string } };
  table.header.title = 'From the table';
  await writeFile(file, JSON.stringify(table));
  const third = new ReadPool(1);
  pools.push(third);
  const window = await third.window(path, 0, 30, 'interactive', paging);
  expect(window.ok && window.session.title).toBe('From the table');
}, 60_000);
