// Hermes's two files of one session (the agent's `session_<id>.json` log and the gateway's `<id>.jsonl` transcript): a scan lists the session once, from the log, and the watcher hands it between them under one key.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionIndex } from '../search-index/index-store.ts';
import type { WatchBatch } from '../watch/root-watcher.ts';
import { ReadPool } from '../workers/read-pool.ts';
import { syncOverRoot } from '../test-support/sync-over-root.ts';

const ID = '20260403_153620_5a3e2ff1';
const LOG = `session_${ID}.json`;
const TRANSCRIPT = `${ID}.jsonl`;
const messages = [
  { role: 'user', content: 'Read main.go', timestamp: '2026-04-03T15:27:21.014566' },
  { role: 'assistant', content: 'It prints hello.', timestamp: '2026-04-03T15:27:25.123456' },
];

let base = '';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  if (base) await rm(base, { recursive: true, force: true });
});

/** A Hermes home's sessions folder under a fresh root, and a LibrarySync over that root (batches applied by the test). */
async function setUp() {
  base = await mkdtemp(join(tmpdir(), 'sv-hermes-twins-'));
  const sessions = join(base, 'root', '.hermes', 'sessions');
  await mkdir(sessions, { recursive: true });
  const changes: Array<{ changed: string[]; removed: string[] }> = [];
  const { sync, catalogue } = syncOverRoot(base, new SessionIndex(':memory:'), new ReadPool(1), cleanups, {
    onChange: (changed, removed) => changes.push({ changed, removed }),
  });
  const apply = (...files: string[]) => (sync as unknown as { applyBatch(batch: WatchBatch): Promise<void> }).applyBatch({ files, removedDirs: [] });
  /** The catalogue's entries as `file name -> key`. */
  const listed = () => Object.fromEntries([...catalogue.entries()].map((e) => [e.path.slice(sessions.length + 1), e.key]));
  const writeLog = async () => {
    const path = join(sessions, LOG);
    await writeFile(path, JSON.stringify({ session_id: ID, model: 'gpt-5', platform: 'telegram', session_start: '2026-04-03T15:27:00Z', messages }));
    return path;
  };
  const writeTranscript = async () => {
    const path = join(sessions, TRANSCRIPT);
    const lines = [{ role: 'session_meta', platform: 'telegram', model: 'gpt-5', timestamp: '2026-04-03T15:27:00.000000' }, ...messages];
    await writeFile(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    return path;
  };
  return { sync, catalogue, changes, apply, listed, writeLog, writeTranscript };
}

describe('a Hermes session with both its session log and its gateway transcript', () => {
  it('is listed once, from the session log', async () => {
    const { sync, catalogue, listed, writeLog, writeTranscript } = await setUp();
    await writeLog();
    await writeTranscript();
    await sync.firstScan();
    expect(listed()).toEqual({ [LOG]: `hermes:${ID}` });
    expect(catalogue.list({}).sessions.map((s) => [s.key, s.messageCount])).toEqual([[`hermes:${ID}`, 2]]);
  });

  it('moves to the session log when the agent writes it after the transcript, and back to the transcript when the log is deleted, under one key', async () => {
    const { sync, changes, apply, listed, writeLog, writeTranscript } = await setUp();
    const transcript = await writeTranscript();
    await sync.firstScan();
    expect(listed()).toEqual({ [TRANSCRIPT]: `hermes:${ID}` });

    const log = await writeLog();
    changes.length = 0;
    await apply(log);
    expect(listed()).toEqual({ [LOG]: `hermes:${ID}` });
    // The session changed file; it did not leave the list.
    expect(changes).toEqual([{ changed: [`hermes:${ID}`], removed: [] }]);

    // The transcript grows while the log holds the session: still listed once, from the log.
    await writeTranscript();
    await apply(transcript);
    expect(listed()).toEqual({ [LOG]: `hermes:${ID}` });

    await unlink(log);
    changes.length = 0;
    await apply(log);
    expect(listed()).toEqual({ [TRANSCRIPT]: `hermes:${ID}` });
    expect(changes).toEqual([{ changed: [`hermes:${ID}`], removed: [] }]);
  });
});
