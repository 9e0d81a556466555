// Writes stores as OpenCode 1.2+ does (its tables, indexes and WAL journal, its row shapes), for the tests and the bench's 10,000-session store.
import { DatabaseSync } from 'node:sqlite';

/** OpenCode's tables as its migrations leave them (samples/opencode's opencode.db), with its indexes. */
export const OPENCODE_SCHEMA = `
CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, name TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL,
  sandboxes TEXT NOT NULL DEFAULT '[]', vcs TEXT, icon_url TEXT, icon_color TEXT, time_initialized INTEGER, commands TEXT);
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, title TEXT NOT NULL, slug TEXT NOT NULL DEFAULT '', directory TEXT NOT NULL DEFAULT '',
  version TEXT NOT NULL DEFAULT '1.0', time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, parent_id TEXT, share_url TEXT,
  summary_additions INTEGER, summary_deletions INTEGER, summary_files INTEGER, summary_diffs TEXT, revert TEXT, permission TEXT,
  time_compacting INTEGER, time_archived INTEGER, workspace_id TEXT);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX session_project_idx ON session(project_id);
CREATE INDEX session_parent_idx ON session(parent_id);
CREATE INDEX message_session_idx ON message(session_id);
CREATE INDEX part_message_idx ON part(message_id);
CREATE INDEX part_session_idx ON part(session_id);`;

/** Opens (creating) a store at `path` the way OpenCode does: WAL journal, its schema. The caller keeps the writer open or closes it. */
export function createOpenCodeStore(path: string, worktree = '/home/dev/harbor-api'): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec(OPENCODE_SCHEMA);
  db.prepare('INSERT INTO project (id, worktree, name, time_created, time_updated, vcs) VALUES (?, ?, ?, ?, ?, ?)').run(
    'prj_main',
    worktree,
    worktree.split('/').at(-1) ?? null,
    1767225600000,
    1767225600000,
    'git',
  );
  return db;
}

/** One tool call of a turn: its name, input and output as OpenCode's tool part records them. */
export interface ToolSpec {
  tool: string;
  input: Record<string, unknown>;
  output: string;
  error?: boolean;
}

export interface TurnSpec {
  prompt: string;
  reasoning?: string;
  tools?: ToolSpec[];
  answer: string;
  tokens?: { input: number; output: number; reasoning: number; cache: { read: number; write: number } };
  cost?: number;
}

export interface SessionSpec {
  id: string;
  title: string;
  directory: string;
  /** Epoch ms of the session's start; each turn takes a minute. */
  startMs: number;
  turns: TurnSpec[];
  parentId?: string | null;
  model?: { providerID: string; modelID: string };
}

let counter = 0;
/** Ascending ids with OpenCode's prefixes (`msg_`, `prt_`), unique across a run. */
const nextId = (prefix: string) => `${prefix}_${(++counter).toString(36).padStart(10, '0')}`;

/** Writes one session with its turns: a user message and its text part, an assistant message and its parts, per turn. */
export function writeSession(db: DatabaseSync, spec: SessionSpec): void {
  const model = spec.model ?? { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' };
  const endMs = spec.startMs + spec.turns.length * 60_000;
  db.prepare(
    'INSERT INTO session (id, project_id, title, slug, directory, version, time_created, time_updated, parent_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(spec.id, 'prj_main', spec.title, spec.id.slice(-8), spec.directory, '1.2.10', spec.startMs, endMs, spec.parentId ?? null);
  spec.turns.forEach((turn, i) => appendTurn(db, spec.id, turn, spec.startMs + i * 60_000, spec.directory, model));
}

const insertMessage = (db: DatabaseSync) => db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
const insertPart = (db: DatabaseSync) =>
  db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)');

/** Adds one turn (a prompt and the assistant's answer) to a session, and touches the session row as OpenCode does. */
export function appendTurn(
  db: DatabaseSync,
  sessionId: string,
  turn: TurnSpec,
  atMs: number,
  cwd: string,
  model = { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' },
): void {
  const message = insertMessage(db);
  const part = insertPart(db);
  const userId = nextId('msg');
  message.run(userId, sessionId, atMs, atMs, JSON.stringify({ role: 'user', time: { created: atMs }, agent: 'build', model }));
  part.run(nextId('prt'), userId, sessionId, atMs, atMs, JSON.stringify({ type: 'text', text: turn.prompt }));
  const start = atMs + 1000;
  const done = atMs + 30_000;
  const tokens = turn.tokens ?? { input: 1200, output: 300, reasoning: 0, cache: { read: 8000, write: 400 } };
  const assistantId = nextId('msg');
  message.run(
    assistantId,
    sessionId,
    start,
    done,
    JSON.stringify({
      role: 'assistant',
      time: { created: start, completed: done },
      parentID: userId,
      modelID: model.modelID,
      providerID: model.providerID,
      mode: 'build',
      agent: 'build',
      path: { cwd, root: cwd },
      cost: turn.cost ?? 0.0123,
      tokens,
      finish: 'stop',
    }),
  );
  let t = start;
  const add = (data: Record<string, unknown>) => part.run(nextId('prt'), assistantId, sessionId, ++t, t, JSON.stringify(data));
  add({ type: 'step-start', snapshot: 'a1b2c3d4' });
  if (turn.reasoning) add({ type: 'reasoning', text: turn.reasoning, time: { start: t, end: t + 1 } });
  for (const tool of turn.tools ?? []) {
    const state = tool.error
      ? { status: 'error', input: tool.input, error: tool.output, time: { start: t, end: t + 5 } }
      : { status: 'completed', input: tool.input, output: tool.output, title: tool.tool, metadata: {}, time: { start: t, end: t + 5 } };
    add({ type: 'tool', callID: nextId('call'), tool: tool.tool, state });
  }
  add({ type: 'text', text: turn.answer, time: { start: t, end: t + 1 } });
  add({ type: 'step-finish', reason: 'stop', snapshot: 'a1b2c3d4', cost: turn.cost ?? 0.0123, tokens });
  db.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(done, sessionId);
}
