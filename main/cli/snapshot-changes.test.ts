// The quick check of the last run's snapshot: what changed on disk (a file written to or added, a folder relisted), and when only a walk can tell (a folder appeared or went).
import { appendFile, mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FILE_CLOCK_SLACK_MS, patchedSnapshot, takeSnapshot } from './scan-snapshot.ts';
import { changesSince } from './snapshot-changes.ts';
import { knownFiles } from '../catalogue/known-files.ts';
import { walkFiles } from '../catalogue/walk.ts';
import { MAX_WALK_DEPTH } from '../catalogue/walk-rules.ts';
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
  expect(changes?.changed).toBe(0);
  expect(changes?.folders).toEqual(taken.folders);
});

it('gives a file written to with its new size and time, the others as they were', async () => {
  const taken = await snapshot();
  await appendFile(join(project, 'a.jsonl'), '{"more":true}\n');
  const changes = changesSince(taken.folders);
  expect(changes?.changed).toBe(1);
  expect(entry(changes?.folders ?? [], project, 'a.jsonl')?.[0]).toBe(17);
  expect(entry(changes?.folders ?? [], project, 'b.jsonl')).toEqual(entry(taken.folders, project, 'b.jsonl'));
});

it('lists a folder again when a file was added or removed in it', async () => {
  const taken = await snapshot();
  await writeFile(join(project, 'c.jsonl'), '{"new":1}\n');
  await rm(join(project, 'b.jsonl'));
  const changes = changesSince(taken.folders);
  expect(changes?.changed).toBe(1);
  expect(entry(changes?.folders ?? [], project, 'c.jsonl')?.[0]).toBe(10);
  expect(entry(changes?.folders ?? [], project, 'b.jsonl')).toBeUndefined();
  expect(entry(changes?.folders ?? [], project, 'a.jsonl')).toEqual(entry(taken.folders, project, 'a.jsonl'));
});

it('walks a folder that appeared, leaves out one that went, and skips what the walk skips', async () => {
  const taken = await snapshot();
  await mkdir(join(project, 'node_modules', 'dep'), { recursive: true });
  await writeFile(join(project, 'node_modules', 'dep', 'skipped.jsonl'), '{}\n');
  expect(changesSince(taken.folders)?.folders).toHaveLength(taken.folders.length);
  await mkdir(join(project, 'session', 'subagents'), { recursive: true });
  await writeFile(join(project, 'session', 'subagents', 'agent-1.jsonl'), '{"a":1}\n');
  const added = changesSince(taken.folders);
  expect(added?.folders).toHaveLength(taken.folders.length + 2);
  expect(entry(added?.folders ?? [], join(project, 'session', 'subagents'), 'agent-1.jsonl')?.[0]).toBe(8);
  expect(added?.folders.some(([path]) => path.includes('node_modules'))).toBe(false);

  await rm(project, { recursive: true });
  const gone = changesSince(taken.folders);
  expect(gone?.changed).toBeGreaterThan(0);
  expect(gone?.folders.map(([path]) => path)).toEqual([root]);
  // The root itself gone: nothing above it says so, and the scan must report it.
  await rm(root, { recursive: true });
  expect(changesSince(taken.folders)).toBeNull();
});

it('gives after any of these changes the very files a walk of the disk finds', async () => {
  const taken = await snapshot();
  await appendFile(join(project, 'a.jsonl'), '{"more":true}\n');
  await rm(join(project, 'b.jsonl'));
  await mkdir(join(root, 'new-project', 'deep', 'er'), { recursive: true });
  await writeFile(join(root, 'new-project', 'c.jsonl'), '{}\n');
  await writeFile(join(root, 'new-project', 'deep', 'er', 'd.jsonl'), '{}\n');
  await mkdir(join(root, '.git'));
  await writeFile(join(root, '.git', 'HEAD'), 'ref');
  const changes = changesSince(taken.folders);
  const listed = (knownFiles(changes?.folders ?? []).filesUnder(root, MAX_WALK_DEPTH) ?? []).map((f) => [f.path, f.size, f.mtimeMs]);
  const walked = [];
  for await (const path of walkFiles(root, () => true)) {
    const s = await stat(path);
    walked.push([path, s.size, s.mtimeMs]);
  }
  expect(listed.sort()).toEqual(walked.sort());
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
  const next = changesSince(patched.folders);
  expect(next?.changed).toBeGreaterThan(0);
  expect(entry(next?.folders ?? [], project, 'a.jsonl')).toEqual(entry(changes.folders, project, 'a.jsonl'));
  // Checked well after the writes: recorded as they are, and the next check finds nothing.
  const later = patchedSnapshot({ ...found, checkedAt: checkedAt + FILE_CLOCK_SLACK_MS + 60_000 }, 'after');
  expect(later.folders).toEqual(changes.folders);
  expect(changesSince(later.folders)?.changed).toBe(0);
});
