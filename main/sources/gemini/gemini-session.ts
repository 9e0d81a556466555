// Assembles the canonical Session from a replayed Gemini CLI conversation: messages, usage, project, sub-agent links.
import { recentlyActive } from '../../../shared/activity.ts';
import { basename, dirname, extname } from 'node:path';
import type { Cost, Message, MessageRole, Session, SourceFile, TokenUsage } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import {
  addUsage,
  elementFields,
  emptyUsage,
  Fields,
  lastSegment,
  primarySourceFile,
  titleFromText,
  warnUnknownFields,
  type DocumentContext,
  type WarningList,
} from '../coerce.ts';
import { heldKeys, showsNothing, warnMissingContent } from '../missing-content.ts';
import { contentParts, epochToIso, readTokens, thoughtParts, toolCallParts, type GeminiAcc } from './gemini-parts.ts';
import type { GeminiConversation, RecordedMessage } from './gemini-replay.ts';
import { UnreadableError } from '../types.ts';

const KNOWN_FIELDS = [
  'sessionId',
  'projectHash',
  'startTime',
  'lastUpdated',
  'kind',
  'summary',
  'directories',
  'memoryScratchpad',
  'activeExtensionName',
  'messages',
  'history',
  'start_time',
  'meta',
] as const;

/** Where the file sits in `tmp/<project>/chats/[<parent session>/]<file>`, when it does. */
export interface GeminiPlacement {
  projectDir: string | null;
  parentSessionId: string | null;
}

export function placementOf(path: string): GeminiPlacement {
  const dir = dirname(path);
  if (basename(dir) === 'chats' && basename(dirname(dirname(dir))) === 'tmp') return { projectDir: basename(dirname(dir)), parentSessionId: null };
  const chats = dirname(dir);
  if (basename(chats) === 'chats' && basename(dirname(dirname(chats))) === 'tmp') {
    return { projectDir: basename(dirname(chats)), parentSessionId: basename(dir) };
  }
  return { projectDir: null, parentSessionId: null };
}

/** Extra facts the reader found beside the chat file. */
export interface GeminiSurroundings {
  /** Contents of `tmp/<slug>/.project_root`, which newer CLIs write to name the project folder. */
  projectRoot: string | null;
  projectRootFile: SourceFile | null;
}

function toRole(type: string | null): MessageRole | null {
  if (type === 'user') return 'user';
  if (type === 'gemini' || type === 'model') return 'assistant';
  if (type === 'info' || type === 'error' || type === 'warning') return 'system';
  return null;
}

function convert(rec: RecordedMessage, index: number, legacy: boolean, acc: GeminiAcc, unknownTypes: Map<string, number>, ids: Set<string>): Message | null {
  const f = elementFields(rec.raw, legacy ? 'history' : 'messages', acc.warnings);
  if (!f) return null;
  const type = legacy ? f.string('role') : (f.string('type') ?? f.string('role'));
  const role = toRole(type);
  if (role === null) {
    const kind = type ?? 'without a type';
    unknownTypes.set(kind, (unknownTypes.get(kind) ?? 0) + 1);
    return null;
  }
  let id = f.string('id') ?? `${legacy ? 'history' : 'message'}-${index}`;
  if (ids.has(id)) id = `${id}#${index}`;
  ids.add(id);
  const ts = f.present('timestamp') ? f.timestamp('timestamp') : (epochToIso(f.raw.ts) ?? (typeof f.raw.ts === 'string' ? f.timestamp('ts') : null));
  const body = f.present('content') ? f.raw.content : f.raw.parts;
  const parts = [...thoughtParts(f), ...contentParts(body, acc, f.name(f.present('content') ? 'content' : 'parts')), ...toolCallParts(f, acc, rec.origin, id)];
  const usage = readTokens(f);
  if (showsNothing(parts)) {
    const found = f.present('content') || f.present('parts') ? 'none of it can be shown' : heldKeys(f.raw, ['id', 'type', 'role', 'timestamp', 'ts']);
    warnMissingContent(acc.warnings, `A Gemini ${type} message`, { found, ...(usage ? { keptFor: 'its token counts' } : {}) });
    if (!usage) return null;
  }
  const message: Message = {
    id,
    role,
    timestamp: ts,
    model: f.string('model'),
    usage,
    cost: null,
    // Kept for its tokens only: shown as a message without text, not as an empty one.
    parts: showsNothing(parts) ? [] : parts,
    agentId: null,
    origin: rec.origin,
  };
  if (role === 'system') message.annotations = { kind: type };
  return message;
}

function firstPrompt(messages: Message[]): string | null {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const text = m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    const title = titleFromText(text);
    if (title) return title;
  }
  return null;
}

/** Gemini records no cost: each message is priced with its own model; unknown models leave the total partial. */
function totals(messages: Message[], fallbackModel: string | null): { usage: TokenUsage | null; cost: Cost | null } {
  const withUsage = messages.filter((m) => m.usage);
  if (!withUsage.length) return { usage: null, cost: null };
  const usage = emptyUsage();
  const cost = new CostTotal();
  for (const m of withUsage) {
    if (!m.usage) continue;
    addUsage(usage, m.usage);
    m.cost = builtinPricing.estimate(m.model ?? fallbackModel, m.usage);
    cost.add(m.cost, m.usage);
  }
  return { usage, cost: cost.total() };
}

/** `lastUpdated` lags behind the last message when the writer stopped before patching it. */
function latest(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function buildGeminiSession(conv: GeminiConversation, ctx: DocumentContext, around: GeminiSurroundings, now: number, warnings: WarningList): Session {
  const head = new Fields(conv.header, '', warnings);
  const acc: GeminiAcc = { warnings, unknownParts: new Map(), operations: [] };
  const unknownTypes = new Map<string, number>();
  const ids = new Set<string>();
  const messages = conv.messages.map((rec, i) => convert(rec, i, conv.legacy, acc, unknownTypes, ids)).filter((m): m is Message => m !== null);

  const sessionId = head.string('sessionId');
  if (sessionId === null && !messages.length) {
    const found = Object.keys(conv.header).slice(0, 6).join(', ');
    throw new UnreadableError('wrong_shape', `Not a Gemini chat: no sessionId and no messages${found ? ` (fields: ${found})` : ''}.`);
  }
  const stem = basename(ctx.path, extname(ctx.path));
  const id = sessionId ?? stem;
  if (sessionId === null) warnings.add('missing_field', 'The chat has no sessionId; the session id is taken from the file name.');

  const place = placementOf(ctx.path);
  const isHash = place.projectDir !== null && /^[0-9a-f]{64}$/i.test(place.projectDir);
  const projectPath = around.projectRoot;
  const projectHash = head.string('projectHash') ?? (isHash ? place.projectDir : null);
  // Legacy `history[]` files name the model once, in a top-level `meta` object ({model}), kept whole in the extras.
  const meta = head.present('meta') ? head.object('meta') : null;
  const lastModel = [...messages].reverse().find((m) => m.model)?.model ?? meta?.string('model') ?? null;
  const { usage, cost } = totals(messages, lastModel);
  const startTime = head.present('startTime') ? head.timestamp('startTime') : head.present('start_time') ? head.timestamp('start_time') : null;
  const lastUpdated = head.present('lastUpdated') ? head.timestamp('lastUpdated') : null;
  const updatedAt = latest(lastUpdated, messages.at(-1)?.timestamp ?? null);
  const summary = head.present('summary') ? head.string('summary') : null;
  const kind = head.present('kind') ? head.string('kind') : null;

  const extra: Record<string, unknown> = {};
  if (projectHash !== null) extra.projectHash = projectHash;
  if (kind !== null) extra.kind = kind;
  if (head.present('directories')) extra.directories = head.value('directories');
  if (conv.legacy) extra.legacyHistory = true;
  if (meta) extra.meta = head.value('meta');
  // Rewinding is something the user did, not a fault of the file: the dropped messages are a fact, not a warning.
  if (conv.rewinds) extra.rewind = { rewinds: conv.rewinds, droppedMessages: conv.dropped };
  for (const [type, n] of conv.unknownRecords) warnings.add('unknown_record_type', `Unknown Gemini chat record (${type}): ${plural(n, 'record')} ignored.`);
  for (const [type, n] of unknownTypes) warnings.add('unknown_record_type', `Unknown Gemini message type "${type}" (${plural(n, 'message')}) skipped.`);
  for (const [type, n] of acc.unknownParts) warnings.add('unknown_block_type', `Unknown Gemini content part "${type}" (${plural(n, 'part')}) ignored.`);
  warnUnknownFields(head, KNOWN_FIELDS);

  const parentKey = place.parentSessionId ? `gemini:${place.parentSessionId}` : null;
  const sourceFiles = [primarySourceFile(ctx)];
  if (around.projectRootFile) sourceFiles.push(around.projectRootFile);
  return {
    // A sub-agent chat lives in its parent's folder; its key names the parent so it stays unique and stable.
    key: parentKey ? `gemini:${place.parentSessionId}/${id}` : `gemini:${id}`,
    id,
    format: 'gemini',
    formatVersion: extname(ctx.path) === '.jsonl' ? 'jsonl' : conv.legacy ? 'legacy-history' : 'json',
    title: titleFromText(summary) ?? firstPrompt(messages) ?? `Gemini session ${id.replace(/^session-/, '').slice(0, 8)}`,
    project: {
      path: projectPath,
      name: projectPath ? lastSegment(projectPath) : isHash ? null : place.projectDir,
      branch: null,
      headCommit: null,
    },
    createdAt: startTime ?? messages[0]?.timestamp ?? null,
    updatedAt,
    closedAt: null,
    // Gemini CLI writes no end marker: a chat is live while its file and its own times move, and unknown after.
    status: recentlyActive(now, ctx.mtimeMs, updatedAt) ? 'active' : 'unknown',
    outcome: null,
    model: lastModel ? { provider: null, name: lastModel, parameters: {} } : null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages,
    operations: acc.operations,
    todos: [],
    summary: null,
    artifacts: [],
    usage,
    cost,
    parentKey,
    childKeys: [],
    sourceFiles,
    warnings: warnings.list(),
    extra,
  };
}
