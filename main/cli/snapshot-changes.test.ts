// The quick check of the last run's snapshot: what changed on disk (a file written to or added, a folder relisted), and when only a walk can tell (a folder appeared or went).
import { appendFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FILE_CLOCK_SLACK_MS, patchedSnapshot, takeSnapshot } from './scan-snapshot.ts';
import { changesSince } from './snapshot-changes.ts';
import type { FoundChanges, ScanSnapshot } from './index-current.ts';

let dir: string;
let root: string;
let project: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-changes-'));
  root = join(dir, 'root');
  project = join(root, 'project');
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'a.jsonl'), '{}\n');
  await writeFile(join(project, 'b.jsonl'), '{}\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The snapshot a full run would record now, every folder and file dated a minute back. */
async function snapshot(): Promise<ScanSnapshot> {
  const old = new Date(Date.now() - 60_000);
  for (const path of [join(project, 'a.jsonl'), join(project, 'b.jsonl'), project, root]) await utimes(path, old, old);
  const taken = takeSnapshot({ config: 'c', index: 'i', roots: [root], defaults: null }, [root], [], Date.now());
  if (!taken) throw new Error('no snapshot');
  return taken;
}

/** A file's entry (size, time) in the folders, or undefined. */
const entry = (folders: ScanSnapshot['folders'], dirPath: string, name: string) => {
  const files = folders.find(([path]) => path === dirPath)?.[2] ?? [];
  const at = files.indexOf(name);
  return at < 0 ? undefined : [files[at + 1], files[at + 2]];
};

it('finds nothing changed on an untouched disk, and keeps the folders as they were', async () => {
  const taken = await snapshot();
  const changes = changesSince(taken.folders);
  expect(changes).toMatchObject({ changed: 0, changedFiles: 0, changedBytes: 0 });
  expect(changes?.folders).toEqual(taken.folders);
});

it('gives a file written to with its new size and time, the others as they were', async () => {
  const taken = await snapshot();
  await appendFile(join(project, 'a.jsonl'), '{"more":true}\n');
  const changes = changesSince(taken.folders);
  expect(changes).toMatchObject({ changed: 1, changedFiles: 1, changedBytes: 17 });
  expect(entry(changes?.folders ?? [], project, 'a.jsonl')?.[0]).toBe(17);
  expect(entry(changes?.folders ?? [], project, 'b.jsonl')).toEqual(entry(taken.folders, project, 'b.jsonl'));
});

it('lists a folder again when a file was added or removed in it', async () => {
  const taken = await snapshot();
  await writeFile(join(project, 'c.jsonl'), '{"new":1}\n');
  await rm(join(project, 'b.jsonl'));
  const changes = changesSince(taken.folders);
  expect(changes).toMatchObject({ changed: 1, changedFiles: 1, changedBytes: 10 });
  expect(entry(changes?.folders ?? [], project, 'c.jsonl')?.[0]).toBe(10);
  expect(entry(changes?.folders ?? [], project, 'b.jsonl')).toBeUndefined();
  expect(entry(changes?.folders ?? [], project, 'a.jsonl')).toEqual(entry(taken.folders, project, 'a.jsonl'));
});

it('needs a walk when a folder appeared or went, but not for a folder the walk skips', async () => {
  const taken = await snapshot();
  await mkdir(join(project, 'node_modules'));
  expect(changesSince(taken.folders)?.changed).toBe(1);
  await mkdir(join(project, 'subagents'));
  expect(changesSince(taken.folders)).toBeNull();
  await rm(join(project, 'subagents'), { recursive: true });
  await rm(project, { recursive: true });
  expect(changesSince(taken.folders)).toBeNull();
});

it('records as never seen a file or folder changed within the file clock’s slack of the check, so the next check reads it again', async () => {
  const taken = await snapshot();
  await appendFile(join(project, 'a.jsonl'), '{"more":true}\n');
  await writeFile(join(project, 'c.jsonl'), '{}\n');
  const checkedAt = Date.now();
  const changes = changesSince(taken.folders);
  if (!changes) throw new Error('no changes');
  const found: FoundChanges = { dataDir: dir, snapshot: taken, ...changes, checkedAt };
  const patched = patchedSnapshot(found, 'after');
  expect(patched.index).toBe('after');
  expect(patched.config).toBe(taken.config);
  expect(patched.folders.find(([path]) => path === project)?.[1]).toBe(-1);
  expect(entry(patched.folders, project, 'a.jsonl')?.[0]).toBe(-1);
  expect(entry(patched.folders, project, 'b.jsonl')).toEqual(entry(taken.folders, project, 'b.jsonl'));
  // The next check sees them as changed, and reads them again.
  expect(changesSince(patched.folders)).toMatchObject({ changedFiles: 2 });
  // Checked well after the writes: recorded as they are, and the next check finds nothing.
  const later = patchedSnapshot({ ...found, checkedAt: checkedAt + FILE_CLOCK_SLACK_MS + 60_000 }, 'after');
  expect(later.folders).toEqual(changes.folders);
  expect(changesSince(later.folders)?.changed).toBe(0);
});
