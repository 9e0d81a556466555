// The snapshot a full run records for the fast paths: taken only when nothing below the roots changed during the run, except the vault folders a first run makes itself.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readSnapshot, SNAPSHOT_FILE, vaultFolders } from './index-current.ts';
import { FILE_CLOCK_SLACK_MS, takeSnapshot } from './scan-snapshot.ts';

const base = { config: 'c', index: 'i', roots: [], defaults: null };
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-snapshot-'));
  await mkdir(join(dir, 'root'));
  await writeFile(join(dir, 'root', 'a.jsonl'), '{}\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A run's start after the root was last changed: the root and its file are dated a minute back (no waiting for the clock). */
const past = async () => {
  const old = new Date(Date.now() - 60_000);
  for (const path of [join(dir, 'root', 'a.jsonl'), join(dir, 'root')]) await utimes(path, old, old);
  return Date.now() - 5;
};

it('a first run in a fresh data folder records a snapshot although it made the vault folders itself', async () => {
  const since = await past();
  const data = join(dir, 'data');
  for (const folder of vaultFolders(data)) await mkdir(folder, { recursive: true });
  const snapshot = takeSnapshot(base, [join(dir, 'root')], vaultFolders(data), since);
  expect(snapshot).not.toBeNull();
  expect((snapshot?.folders ?? []).map(([path]) => path)).toEqual(expect.arrayContaining([join(dir, 'root'), ...vaultFolders(data)]));
});

it('records nothing when a vault folder made during the run already holds a file, or a root changed', async () => {
  const since = await past();
  const data = join(dir, 'data');
  for (const folder of vaultFolders(data)) await mkdir(folder, { recursive: true });
  await writeFile(join(vaultFolders(data)[0] as string, 'kept.json'), '{}');
  expect(takeSnapshot(base, [join(dir, 'root')], vaultFolders(data), since)).toBeNull();

  await rm(join(vaultFolders(data)[0] as string, 'kept.json'));
  await writeFile(join(dir, 'root', 'b.jsonl'), '{}\n');
  expect(takeSnapshot(base, [join(dir, 'root')], vaultFolders(data), since)).toBeNull();
});

it('counts a change the file system dated just before the run started (its clock trails) as during the run', async () => {
  const since = await past();
  // Linux stamps files from a clock up to a tick behind Date.now(): a file written as the run starts can look older.
  const trailing = new Date(since - 3);
  await writeFile(join(dir, 'root', 'b.jsonl'), '{}\n');
  await utimes(join(dir, 'root', 'b.jsonl'), trailing, trailing);
  await utimes(join(dir, 'root'), trailing, trailing);
  expect(takeSnapshot(base, [join(dir, 'root')], [], since)).toBeNull();
  // Older than the slack: seen by the run.
  const before = new Date(since - FILE_CLOCK_SLACK_MS - 1000);
  await utimes(join(dir, 'root', 'b.jsonl'), before, before);
  await utimes(join(dir, 'root'), before, before);
  expect(takeSnapshot(base, [join(dir, 'root')], [], since)).not.toBeNull();
});

it('reads back the snapshot it writes, and not one of the earlier layout (folders keyed by path): that takes a full run', async () => {
  const since = await past();
  const snapshot = takeSnapshot(base, [join(dir, 'root')], [], since);
  const data = join(dir, 'data');
  await mkdir(data);
  await writeFile(join(data, SNAPSHOT_FILE), JSON.stringify(snapshot));
  expect(readSnapshot(data)).toEqual(snapshot);
  expect(snapshot?.folders).toEqual([[join(dir, 'root'), expect.any(Number), ['a.jsonl', 3, expect.any(Number)]]]);
  await writeFile(join(data, SNAPSHOT_FILE), JSON.stringify({ ...base, folders: { [join(dir, 'root')]: [0, { 'a.jsonl': [3, 0] }] } }));
  expect(readSnapshot(data)).toBeNull();
});
