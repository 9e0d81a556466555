// Two files of one session side by side (Hermes's `session_<id>.json` log and gateway `<id>.jsonl` transcript; Antigravity's transcript.jsonl and transcript_full.jsonl; kimi-cli's context and wire; a Cline task's history and UI messages): a scan lists the session once, from its holder, and the watcher hands it between them under one key.
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

/** A session folder (`folder`, below a fresh root), and a LibrarySync over that root (batches applied by the test). */
async function setUp(folder = join('.hermes', 'sessions')) {
  base = await mkdtemp(join(tmpdir(), 'sv-twins-'));
  const sessions = join(base, 'root', folder);
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
  return { sessions, sync, catalogue, changes, apply, listed, writeLog, writeTranscript };
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

describe('an Antigravity conversation with its clipped and its full transcript', () => {
  const CONVERSATION = '22222222-2222-4333-8444-555555555555';
  const at = '2026-06-26T21:16:16Z';
  const user = { step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: at, content: 'What is here?' };
  const answer = (content: string) => ({ step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: at, content });
  const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  it('is listed once, from transcript.jsonl; a conversation with only the full transcript is listed from it; a changed full transcript is read again', async () => {
    const { sessions, sync, changes, apply, listed } = await setUp(join('.gemini', 'antigravity-cli', 'brain', CONVERSATION, '.system_generated', 'logs'));
    const full = join(sessions, 'transcript_full.jsonl');
    await writeFile(full, jsonl(user, answer('The directory holds a README.')));
    await sync.firstScan();
    expect(listed()).toEqual({ 'transcript_full.jsonl': `antigravity:${CONVERSATION}` });

    // agy writes the clipped log beside it: the conversation moves to it, under the same key.
    const clipped = join(sessions, 'transcript.jsonl');
    await writeFile(clipped, jsonl(user, { ...answer('The directory'), truncated_fields: ['content'] }));
    await apply(clipped);
    expect(listed()).toEqual({ 'transcript.jsonl': `antigravity:${CONVERSATION}` });

    // Only the full transcript changes: the conversation is read again (from the log, with the full steps).
    await writeFile(full, jsonl(user, answer('The directory holds a README and a LICENSE.')));
    changes.length = 0;
    await apply(full);
    expect(listed()).toEqual({ 'transcript.jsonl': `antigravity:${CONVERSATION}` });
    expect(changes).toEqual([{ changed: [`antigravity:${CONVERSATION}`], removed: [] }]);
  });
});

describe('a kimi-cli session folder with its context and its wire', () => {
  const SESSION = '1b7c-aaaa';
  const marker = (offset: number, type: string) => ({ timestamp: 1_770_000_000 + offset, message: { type, payload: {} } });
  const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

  it('is listed once, from context.jsonl; a change to the wire alone reads the session again; a folder with the wire alone is listed from it', async () => {
    const { sessions, sync, changes, apply, listed } = await setUp(join('.kimi', 'sessions', '3f2a9c41d5b6e7f8091a2b3c4d5e6f70', SESSION));
    await writeFile(join(sessions, 'context.jsonl'), jsonl({ role: 'user', content: 'Rename the module' }, { role: 'assistant', content: 'Renamed.' }));
    const wire = join(sessions, 'wire.jsonl');
    await writeFile(wire, jsonl(marker(0, 'TurnBegin')));
    await sync.firstScan();
    expect(listed()).toEqual({ 'context.jsonl': `kimi:${SESSION}` });

    // The turn ends: kimi-cli appends to the wire only.
    await writeFile(wire, jsonl(marker(0, 'TurnBegin'), marker(5, 'TurnEnd')));
    changes.length = 0;
    await apply(wire);
    expect(listed()).toEqual({ 'context.jsonl': `kimi:${SESSION}` });
    expect(changes).toEqual([{ changed: [`kimi:${SESSION}`], removed: [] }]);

    await unlink(join(sessions, 'context.jsonl'));
    await writeFile(
      wire,
      jsonl(
        { timestamp: 1_770_000_000, message: { type: 'TurnBegin', payload: { user_input: 'Rename the module' } } },
        { timestamp: 1_770_000_001, message: { type: 'ContentPart', payload: { type: 'text', text: 'Renamed.' } } },
        marker(5, 'TurnEnd'),
      ),
    );
    await apply(join(sessions, 'context.jsonl'), wire);
    expect(listed()).toEqual({ 'wire.jsonl': `kimi:${SESSION}` });
  });
});

describe('a Cline task folder with its history and its UI messages', () => {
  const TASK = '1700000000000';
  const history = [
    { role: 'user', content: [{ type: 'text', text: '<task>\nRename the module\n</task>' }], ts: 1_700_000_000_100 },
    { role: 'assistant', content: [{ type: 'text', text: 'Renamed.' }], ts: 1_700_000_001_000 },
  ];
  const request = (cost: number) => ({
    ts: 1_700_000_000_500,
    type: 'say',
    say: 'api_req_started',
    text: JSON.stringify({ tokensIn: 10, tokensOut: 2, cost }),
  });

  it('is listed once, from the history; a change to the UI messages alone reads the task again; a task without its history is listed from them', async () => {
    const { sessions, sync, changes, apply, listed } = await setUp(join('.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev', 'tasks', TASK));
    const historyFile = join(sessions, 'api_conversation_history.json');
    const ui = join(sessions, 'ui_messages.json');
    await writeFile(historyFile, JSON.stringify(history));
    await writeFile(ui, JSON.stringify([request(0.01)]));
    await sync.firstScan();
    expect(listed()).toEqual({ 'api_conversation_history.json': `cline:${TASK}` });

    // Cline records the next request's cost in the UI messages only.
    await writeFile(ui, JSON.stringify([request(0.01), request(0.02)]));
    changes.length = 0;
    await apply(ui);
    expect(listed()).toEqual({ 'api_conversation_history.json': `cline:${TASK}` });
    expect(changes).toEqual([{ changed: [`cline:${TASK}`], removed: [] }]);

    await unlink(historyFile);
    await apply(historyFile);
    expect(listed()).toEqual({ 'ui_messages.json': `cline:${TASK}` });
  });
});
