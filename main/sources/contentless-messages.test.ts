// Every reader with message records: a message whose content is missing (or under a key the format does not use) is warned about, never listed as an empty message.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../shared/session.ts';
import { samplesDir } from '../test-support/samples.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import { isRecord } from './coerce.ts';
import { MISSING_CONTENT } from './missing-content.ts';
import { resolveReader } from './recognize.ts';
import { readers } from './registry.ts';

type Json = Record<string, unknown>;

interface Plant {
  /** The reader's format. */
  format: string;
  /** The sample home copied for the case (a folder of samples/). */
  home: string;
  /** The session file inside it. */
  file: string;
  /** For a store: the id of the session the planted message belongs to. */
  id?: string;
  /** Set when the plant removes rows or files (no content value is left to empty). */
  removes?: true;
  /** Takes the content away from one user message of the copy, as `how` says. */
  plant(abs: string, how: How): void;
}

/**
 * How the content goes: moved to a key the format does not use (`moved`), or left in place but emptied (`emptied`:
 * an empty string, list or object of the same kind).
 */
type How = 'moved' | 'emptied';

const emptyLike = (value: unknown): unknown => (typeof value === 'string' ? '' : Array.isArray(value) ? [] : isRecord(value) ? {} : null);

/** Takes the content at `path` (below `record`) away, as `how` says. */
function moveKey(record: unknown, path: readonly string[], how: How): boolean {
  let at: unknown = record;
  for (const step of path.slice(0, -1)) at = isRecord(at) || Array.isArray(at) ? (at as Json)[step] : undefined;
  const key = path.at(-1)!;
  if (!isRecord(at) || !(key in at)) return false;
  if (how === 'emptied') {
    at[key] = emptyLike(at[key]);
    return true;
  }
  at.unexpected_key = at[key];
  delete at[key];
  return true;
}

/** In a JSONL file: the first record `match` picks loses the content at `path`. */
const jsonlLine =
  (match: (r: Json) => boolean, path: readonly string[]) =>
  (abs: string, how: How): void => {
    const lines = readFileSync(abs, 'utf8').split('\n');
    const at = lines.findIndex((line) => {
      if (!line.trim()) return false;
      const r = JSON.parse(line) as unknown;
      return isRecord(r) && match(r);
    });
    if (at < 0) throw new Error(`no record to plant in ${abs}`);
    const record = JSON.parse(lines[at]!) as Json;
    if (!moveKey(record, path, how)) throw new Error(`no ${path.join('.')} in line ${at + 1} of ${abs}`);
    lines[at] = JSON.stringify(record);
    writeFileSync(abs, lines.join('\n'));
  };

/** In a JSON document: the content at `path` (from the top) is moved. */
const jsonDocument =
  (path: readonly string[]) =>
  (abs: string, how: How): void => {
    const doc = JSON.parse(readFileSync(abs, 'utf8')) as unknown;
    if (!moveKey(doc, path, how)) throw new Error(`no ${path.join('.')} in ${abs}`);
    writeFileSync(abs, JSON.stringify(doc));
  };

const sql =
  (statement: string) =>
  (abs: string): void => {
    const db = new DatabaseSync(abs);
    db.exec(statement);
    db.close();
  };

const get = (r: Json, ...path: string[]): unknown => path.reduce<unknown>((at, k) => (isRecord(at) ? at[k] : undefined), r);

const PLANTS: Plant[] = [
  {
    format: 'claude-code',
    home: 'claude-code',
    file: 'projects/-home-user-src-demo/22222222-2222-4222-8222-222222222222.jsonl',
    plant: jsonlLine((r) => r.type === 'user' && r.isMeta !== true, ['message', 'content']),
  },
  {
    format: 'codex',
    home: 'codex',
    file: 'sessions/2026/03/03/rollout-2026-03-03T12-30-03-019cb33f-0000-7000-8000-00000000000e.jsonl',
    plant: jsonlLine((r) => get(r, 'payload', 'type') === 'message' && get(r, 'payload', 'role') === 'user', ['payload', 'content']),
  },
  {
    format: 'gemini',
    home: 'gemini',
    file: 'tmp/205016864bd110904e9ad8314192344ab398d043e779da15bedbb9ee9be00da2/chats/session-2025-12-16T23-47-b4f17607.json',
    plant: jsonDocument(['messages', '0', 'content']),
  },
  {
    format: 'gemini',
    home: 'gemini',
    file: 'tmp/0b7dfb1274ee51b336813b17f2ddab1f56b6591f723e7314126bbd502c69e9c9/chats/session-2026-04-29T21-39-stage0jl.jsonl',
    plant: jsonlLine((r) => r.type === 'user', ['content']),
  },
  {
    format: 'jido-code',
    home: 'jido-code',
    file: '.jido_code/sessions/a7e3d9c1-5f2b-4a80-8c6e-2d4f6b8a0c1e.json',
    plant: jsonDocument(['conversation', '0', 'content']),
  },
  {
    format: 'vizier',
    home: 'vizier',
    file: 'ledgerly/.vizier/sessions/b81e4c07-52d9-4f3e-a6b2-7c0d19e35f42/session.json',
    plant: jsonDocument(['messages', '0', 'content']),
  },
  {
    format: 'opencode',
    home: 'opencode',
    file: '.local/share/opencode/opencode.db',
    id: 'ses_001',
    removes: true,
    plant: sql(`DELETE FROM part WHERE message_id = 'msg_001'`),
  },
  {
    format: 'opencode',
    home: 'opencode',
    file: '.local/share/opencode/storage/session/proj_test/ses_s_stage0_small.json',
    removes: true,
    // The prompt's only part removed, and its summary (which would be shown in its place) with it.
    plant: (abs) => {
      rmSync(join(abs, '../../../part/m_user_small/001.json'));
      const message = join(abs, '../../../message/s_stage0_small/msg_0001.json');
      const { summary: _shownInstead, ...rest } = JSON.parse(readFileSync(message, 'utf8')) as Record<string, unknown>;
      writeFileSync(message, JSON.stringify(rest));
    },
  },
  {
    format: 'kilo',
    home: 'kilo',
    file: '.local/share/kilo/storage/session/global/ses_kilo.json',
    removes: true,
    plant: (abs) => rmSync(join(abs, '../../../part/msg_1/prt_1.json')),
  },
  {
    format: 'copilot-cli',
    home: 'copilot-cli',
    file: '.copilot/session-state/copilot_stage0_small/events.jsonl',
    // The text is under content and again under transformedContent: both move.
    plant: (abs, how) => {
      jsonlLine((r) => r.type === 'user.message' && get(r, 'data', 'content') === 'List the files', ['data', 'content'])(abs, how);
      jsonlLine((r) => r.type === 'user.message' && get(r, 'data', 'transformedContent') === 'List the files', ['data', 'transformedContent'])(abs, how);
    },
  },
  {
    format: 'cursor',
    home: 'cursor-agent',
    file: '.cursor/projects/tmp-repo/agent-transcripts/5ca1ab1e-0000-4000-8000-000000000001/5ca1ab1e-0000-4000-8000-000000000001.jsonl',
    plant: jsonlLine((r) => r.role === 'user', ['message', 'content']),
  },
  {
    format: 'qwen-code',
    home: 'qwen-code',
    file: '.qwen/projects/-tmp-as-qwen-fixture-project/chats/019f0000-0000-7000-8000-000000000001.jsonl',
    // The prompt is in message.parts and again in systemPayload.displayText: both move.
    plant: (abs, how) => {
      jsonlLine((r) => r.type === 'user' && r.parentUuid === null, ['message', 'parts'])(abs, how);
      jsonlLine((r) => r.type === 'user' && r.parentUuid === null, ['systemPayload'])(abs, how);
    },
  },
  {
    format: 'kimi',
    home: 'kimi',
    file: '.kimi/sessions/project-hash/session-1/context.jsonl',
    plant: jsonlLine((r) => r.role === 'user', ['content']),
  },
  {
    format: 'kimi',
    home: 'kimi',
    file: '.kimi-code/sessions/wd_project_ac3bb318f98e/session_9eb1bf57-c1af-48a5-b658-0e8d9fe794f5/agents/main/wire.jsonl',
    // The prompt is in the turn's input and again in the message appended to the context: both move.
    plant: (abs, how) => {
      jsonlLine((r) => r.type === 'turn.prompt', ['input'])(abs, how);
      jsonlLine((r) => r.type === 'context.append_message' && get(r, 'message', 'role') === 'user', ['message', 'content'])(abs, how);
    },
  },
  {
    format: 'pi',
    home: 'pi',
    file: '.pi/agent/sessions/--tmp-as-agent-fixture-project--/2026-05-12T01-02-27-657Z_019e19b4-eb48-746a-aa6b-8dfcfa37954b.jsonl',
    plant: jsonlLine((r) => r.type === 'message' && get(r, 'message', 'role') === 'user', ['message', 'content']),
  },
  {
    format: 'openclaw',
    home: 'openclaw',
    file: '.openclaw/agents/main/sessions/openclaw-stage0-small.jsonl',
    plant: jsonlLine((r) => r.type === 'message' && get(r, 'message', 'role') === 'user', ['message', 'content']),
  },
  {
    format: 'grok',
    home: 'grok',
    file: '.grok/sessions/%2Ftmp%2Fas-agent-lab%2Fgrok%2Fproject/019f6851-7ec4-7ef0-97d3-03f3eee38755/summary.json',
    plant: (abs, how) => jsonlLine((r) => r.type === 'user' && r.prompt_index === 0, ['content'])(abs.replace(/summary\.json$/, 'chat_history.jsonl'), how),
  },
  {
    format: 'droid',
    home: 'droid',
    file: '.factory/sessions/-tmp/droid_s1.jsonl',
    plant: jsonlLine((r) => r.type === 'message' && get(r, 'message', 'role') === 'user', ['message', 'content']),
  },
  {
    format: 'droid',
    home: 'droid',
    file: '.factory/projects/-tmp/sid_stage0_small.jsonl',
    plant: jsonlLine((r) => r.type === 'message' && r.role === 'user', ['text']),
  },
  {
    format: 'hermes',
    home: 'hermes',
    file: '.hermes/state.db',
    removes: true,
    plant: sql(`UPDATE messages SET content = NULL WHERE id = 1`),
  },
  {
    format: 'hermes',
    home: 'hermes',
    file: '.hermes/sessions/session_20260429_hermes_small.json',
    plant: jsonDocument(['messages', '0', 'content']),
  },
  {
    format: 'goose',
    home: 'goose',
    file: '.local/share/goose/sessions/sessions.db',
    removes: true,
    plant: sql(`UPDATE messages SET content_json = '[]' WHERE id = 1`),
  },
  {
    format: 'amp',
    home: 'amp',
    file: '.local/share/amp/threads/T-thread-a.json',
    plant: jsonDocument(['messages', '0', 'content']),
  },
  {
    format: 'codebuff',
    home: 'codebuff',
    file: '.config/manicode/projects/myproject/chats/2026-07-15T15-04-00.000Z/chat-messages.json',
    plant: jsonDocument(['0', 'content']),
  },
  {
    format: 'cline',
    home: 'cline',
    file: '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1700000000000/api_conversation_history.json',
    plant: jsonDocument(['0', 'content']),
  },
  {
    format: 'roo-code',
    home: 'roo-code',
    file: '.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/5f0c6a52-1b7e-4c41-9a57-2d3f1c0e8b11/api_conversation_history.json',
    plant: jsonDocument(['0', 'content']),
  },
  {
    format: 'vibe',
    home: 'vibe',
    file: '.vibe/logs/session/session_20260613_100000_abc123de/messages.jsonl',
    plant: jsonlLine((r) => r.role === 'user', ['content']),
  },
  {
    format: 'devin',
    home: 'devin',
    file: '.local/share/devin/cli/sessions.db',
    id: 'bald-ketch',
    removes: true,
    plant: sql(`UPDATE message_nodes SET chat_message = json_remove(chat_message, '$.content') WHERE row_id = 2`),
  },
  {
    format: 'antigravity',
    home: 'antigravity',
    file: '.gemini/antigravity-cli/brain/00000000-0000-4000-8000-00000000a902/.system_generated/logs/transcript.jsonl',
    plant: jsonlLine((r) => r.type === 'USER_INPUT', ['content']),
  },
];

/** Readers with no case above, and why a content-less message cannot reach the list through them. */
const NOT_PLANTED: Record<string, string> = {
  projecthub: "its transcript is a Claude Code transcript, read by the Claude Code reader's own records code (the claude-code case)",
  aider: 'a Markdown history: a turn is its text, so a turn without text is no record at all (blank inputs are counted)',
  'ai-agent': 'an op-tree snapshot: a call without reply text keeps its model and tokens and carries a note saying why it has none',
};

async function readCase(home: string, c: Plant): Promise<Session> {
  const abs = join(home, c.file);
  const reader = await resolveReader(abs);
  expect(reader?.format).toBe(c.format);
  const store = reader!.container && (reader!.container.isStore?.(abs) ?? true) ? reader!.container : null;
  if (!store) return reader!.read(abs);
  const id = c.id ?? (await store.list(abs))[0]!.id;
  return store.readOne(abs, id);
}

/** A message that shows nothing: no part, or only text and thinking with no characters. */
const isEmpty = (m: Message) => m.parts.every((p) => (p.type === 'text' ? !p.text.trim() : p.type === 'thinking' ? !p.text.trim() : false));
const warned = (s: Session) => s.warnings.filter((w) => w.code === MISSING_CONTENT).reduce((n, w) => n + w.count, 0);

describe('a message with no content', () => {
  it('is planted for every reader that has message records', () => {
    const planted = new Set(PLANTS.map((c) => c.format));
    expect(readers.map((r) => r.format).filter((f) => !planted.has(f) && !(f in NOT_PLANTED))).toEqual([]);
  });

  it.each(PLANTS.map((c) => [`${c.format}: ${c.file.split('/').at(-1)}`, c] as const))('%s is warned about, never listed empty', (_, c) =>
    expectWarnedNotEmpty(c, 'moved'),
  );

  it.each(PLANTS.filter((c) => !c.removes).map((c) => [`${c.format}: ${c.file.split('/').at(-1)}`, c] as const))(
    '%s with its content emptied (an empty string or list) is warned about too',
    (_, c) => expectWarnedNotEmpty(c, 'emptied'),
  );
});

/** Reads the case's copy before and after planting: one more missing-content warning, one message fewer, no new empty one. */
async function expectWarnedNotEmpty(c: Plant, how: How): Promise<void> {
  const home = testTempDir('sv-contentless-');
  cpSync(join(samplesDir, c.home), home, { recursive: true });
  const before = await readCase(home, c);
  c.plant(join(home, c.file), how);
  const after = await readCase(home, c);
  expect(warned(after)).toBeGreaterThan(warned(before));
  expect(after.warnings.find((w) => w.code === MISSING_CONTENT)?.message).toMatch(/no content/i);
  // Left out, not shown as an empty message (a user message records no tokens to keep).
  expect(after.messages.filter(isEmpty).length).toBe(before.messages.filter(isEmpty).length);
  expect(after.messages.length).toBeLessThan(before.messages.length);
}
