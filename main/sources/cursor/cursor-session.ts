// Assembles the canonical Session from a Cursor agent transcript (lines without ids or times) and its chat store's metadata.
import { heldKeys, warnMissingContent } from '../missing-content.ts';
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Message, MessagePart, Operation, Session } from '../../../shared/session.ts';
import { isRecord, kindOfJson, lastSegment, primarySourceFile, titleFromText, type DocumentContext, type WarningList } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';
import { contentParts, type BlockAcc } from './cursor-blocks.ts';
import type { CursorLayout } from './cursor-paths.ts';
import type { CursorStoreFacts } from './cursor-store.ts';
import { UnreadableError } from '../types.ts';

export interface CursorContext extends DocumentContext {
  layout: CursorLayout;
  store: CursorStoreFacts;
  /** Keys of the sub-agent transcripts in this session's subagents/ folder. */
  children: string[];
  now: number;
}

const ROLES: Record<string, Message['role']> = { user: 'user', human: 'user', assistant: 'assistant', model: 'assistant', system: 'system', tool: 'tool' };
const SPAWN = /^(task|agent|subagent|spawn_?agent)$/i;

interface Transcript {
  messages: Message[];
  operations: Operation[];
  turns: number;
  lastTurnStatus: string | null;
  /** The last record was a turn_ended status line. */
  endsWithTurnEnd: boolean;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Calls seen so far: the ids they carry, and those that came without one, oldest first, still waiting for a result. */
type ToolCallPart = Extract<MessagePart, { type: 'tool_call' }>;

interface Pairing {
  known: Set<string>;
  waiting: Array<{ part: ToolCallPart; ref: string }>;
}

/**
 * Cursor often writes calls without ids, and results whose id no call has (or none): such a result belongs to the
 * oldest call still waiting that had no id, which takes the result's id (or one made from its place).
 */
function pairByOrder(parts: MessagePart[], lineId: string, pairing: Pairing): void {
  parts.forEach((p, k) => {
    if (p.type === 'tool_call') {
      if (p.callId === null) pairing.waiting.push({ part: p, ref: `${lineId}:${k}` });
      else pairing.known.add(p.callId);
    } else if (p.type === 'tool_result' && (p.callId === null || !pairing.known.has(p.callId))) {
      const call = pairing.waiting.shift();
      if (!call) return;
      call.part.callId ??= p.callId ?? call.ref;
      p.callId = call.part.callId;
      pairing.known.add(p.callId);
    }
  });
}

function readLines(records: readonly JsonLine[], warnings: WarningList, children: string[]): Transcript {
  const acc: BlockAcc = { warnings, unknownBlocks: new Map() };
  const out: Transcript = { messages: [], operations: [], turns: 0, lastTurnStatus: null, endsWithTurnEnd: false };
  const unknown = new Map<string, number>();
  const pairing: Pairing = { known: new Set(), waiting: [] };
  for (const { value, line } of records) {
    out.endsWithTurnEnd = false;
    if (!isRecord(value)) {
      warnings.add('wrong_type', `A line holds ${kindOfJson(value)} where a Cursor transcript record (an object) is expected; it was skipped.`);
      continue;
    }
    if (typeof value.role !== 'string') {
      const kind = typeof value.type === 'string' ? value.type : 'record without a role or type';
      if (kind === 'turn_ended') {
        out.turns++;
        out.lastTurnStatus = typeof value.status === 'string' ? value.status : null;
        out.endsWithTurnEnd = true;
      } else unknown.set(kind, (unknown.get(kind) ?? 0) + 1);
      continue;
    }
    const role = ROLES[value.role.toLowerCase()];
    if (!role) {
      unknown.set(`role ${value.role}`, (unknown.get(`role ${value.role}`) ?? 0) + 1);
      continue;
    }
    const body = isRecord(value.message) ? value.message : value;
    acc.unwrappedQuery = false;
    acc.queryContext = undefined;
    const parts = contentParts(body.content ?? body.text, role, acc);
    if (!parts.length) {
      const found = body.content === undefined && body.text === undefined ? heldKeys(body, ['role']) : 'nothing this reader can show';
      warnMissingContent(warnings, `A Cursor ${role} line`, { found });
      continue;
    }
    const id = `line-${line}`;
    pairByOrder(parts, id, pairing);
    parts.forEach((p, k) => {
      if (p.type !== 'tool_call' || !SPAWN.test(p.name)) return;
      p.callId ??= `${id}:${k}`;
      out.operations.push({
        id: p.callId,
        type: 'subagent',
        name: p.name,
        timestamp: null,
        endedAt: null,
        status: null,
        latencyMs: null,
        detail: { tool: p.name },
        vcs: null,
        usage: null,
        cost: null,
        parentId: null,
        childSessionKey: null,
        origin: { fileIndex: 0, line, pointer: null },
      });
    });
    const model = typeof value.model === 'string' && value.model !== '' ? value.model : null;
    const message: Message = { id, role, timestamp: null, model, usage: null, cost: null, parts, agentId: null, origin: { fileIndex: 0, line, pointer: null } };
    // The prompt is shown as typed; the tag Cursor wrapped it in stays on the message (and its words in the index).
    if (acc.unwrappedQuery) message.annotations = { wrapper: 'user_query', ...(acc.queryContext ? { context: acc.queryContext } : {}) };
    out.messages.push(message);
  }
  // Transcripts carry no ids: a single spawn and a single sub-agent file are the only link that can be told.
  if (out.operations.length === 1 && children.length === 1) out.operations[0]!.childSessionKey = children[0]!;
  for (const [kind, n] of unknown) warnings.add('unknown_record_type', `Unknown Cursor transcript line (${kind}): ${plural(n, 'line')} ignored.`);
  for (const [kind, n] of acc.unknownBlocks)
    warnings.add('unknown_block_type', `Unknown Cursor content block "${kind}" (${plural(n, 'block')}): its text is shown where it has one.`);
  return out;
}

/** The chat store's last-used model, else the last one a transcript line names. */
function modelOf(stored: string | null, messages: Message[]): Session['model'] {
  const name = stored && stored !== 'default' ? stored : (messages.findLast((m) => m.model !== null)?.model ?? null);
  return name ? { provider: null, name, parameters: {} } : null;
}

function firstQuery(messages: Message[]): string | null {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const title = titleFromText(m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n'));
    if (title) return title;
  }
  return null;
}

/** No times in the lines: live while the file changes and the last turn is not over (no turn_ended, no final answer). */
function isLive(t: Transcript, ctx: CursorContext): boolean {
  if (ctx.now - ctx.mtimeMs >= ACTIVE_WINDOW_MS || t.endsWithTurnEnd) return false;
  const last = t.messages.at(-1);
  return !(last?.role === 'assistant' && !last.parts.some((p) => p.type === 'tool_call'));
}

export function buildCursorSession(records: readonly JsonLine[], ctx: CursorContext, warnings: WarningList): Session {
  const { layout, store } = ctx;
  const t = readLines(records, warnings, ctx.children);
  if (!t.messages.length && !t.turns) {
    throw new UnreadableError('wrong_shape', 'Not a Cursor agent transcript: no line has a user or assistant role.');
  }
  if (store.problem) warnings.add('bad_meta', `The chat store (store.db) cannot be used: ${store.problem}; the session's name and model are unknown.`);
  const id = layout.sessionId;
  const meta = store.meta;
  const path = store.workspacePath;
  const fallback = layout.kind === 'subagent' ? `Cursor sub-agent ${id.slice(0, 8)}` : `Cursor session ${id.slice(0, 8)}`;
  const extra: Record<string, unknown> = { projectFolder: layout.projectDir };
  if (meta?.mode) extra.mode = meta.mode;
  if (t.turns) extra.turns = t.turns;
  if (t.lastTurnStatus) extra.lastTurnStatus = t.lastTurnStatus;
  const sourceFiles = [primarySourceFile(ctx)];
  if (store.file) sourceFiles.push(store.file);
  return {
    key: `cursor:${id}`,
    id,
    format: 'cursor',
    formatVersion: null,
    title: titleFromText(meta?.name) ?? firstQuery(t.messages) ?? fallback,
    project: { path, name: path ? lastSegment(path) : layout.projectDir, branch: null, headCommit: null },
    createdAt: meta?.createdAt ?? null,
    // The lines carry no times: the file's own is the only clock.
    updatedAt: new Date(ctx.mtimeMs).toISOString(),
    closedAt: null,
    status: isLive(t, ctx) ? 'active' : 'unknown',
    outcome: null,
    model: modelOf(meta?.model ?? null, t.messages),
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages: t.messages,
    operations: t.operations,
    todos: [],
    summary: null,
    artifacts: [],
    usage: null,
    cost: null,
    parentKey: layout.kind === 'subagent' && layout.parentId ? `cursor:${layout.parentId}` : null,
    childKeys: ctx.children,
    sourceFiles,
    warnings: warnings.list(),
    extra,
  };
}
