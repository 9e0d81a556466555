// Assembles one Hermes session from its transcript, its state.db row, or both (the store's figures merged into the transcript).
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { LifecycleStatus, Message, Session, SourceFile } from '../../../shared/session.ts';
import { flattenConfig, Fields, lastSegment, titleFromText, type WarningList } from '../coerce.ts';
import { userInstruction } from './hermes-prompt.ts';
import type { StoreFacts } from './hermes-store-facts.ts';
import type { HermesTranscript } from './hermes-transcript.ts';

/** How the session relates to others in the store. */
export interface HermesLinks {
  /** A delegated sub-agent's parent. */
  parentKey: string | null;
  childKeys: string[];
  /** The session this one continues after Hermes compressed the conversation, and the ones continuing it. */
  continues: string | null;
  continuedIn: string[];
}

export const NO_LINKS: HermesLinks = { parentKey: null, childKeys: [], continues: null, continuedIn: [] };

export interface HermesPieces {
  id: string;
  formatVersion: string;
  sourceFiles: SourceFile[];
  transcript: HermesTranscript | null;
  store: { facts: StoreFacts; messages: Message[]; links: HermesLinks } | null;
  warnings: WarningList;
  now: number;
}

function latest(...times: Array<string | null | undefined>): string | null {
  let best: string | null = null;
  for (const t of times) if (t && (best === null || Date.parse(t) > Date.parse(best))) best = t;
  return best;
}

function firstPrompt(messages: Message[]): string | null {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const text = m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    const title = titleFromText(userInstruction(text.trim()));
    if (title) return title;
  }
  return null;
}

/** Ended in the store: closed (or compacted into a continuation). Otherwise running while its own records are recent. */
function statusOf(facts: StoreFacts | null, lastActivity: string | null, now: number): LifecycleStatus {
  if (facts?.endedAt) return facts.endReason === 'compression' ? 'compacted' : 'closed';
  const at = lastActivity ? Date.parse(lastActivity) : NaN;
  return !Number.isNaN(at) && now - at < ACTIVE_WINDOW_MS ? 'active' : 'unknown';
}

/**
 * Messages from the transcript, which Hermes writes whole; the store's rows instead when they hold more messages
 * (a transcript that stopped being written, or lost its messages).
 */
function chooseMessages(p: HermesPieces, extra: Record<string, unknown>): Message[] {
  const fromTranscript = p.transcript?.messages ?? [];
  const fromStore = p.store?.messages ?? [];
  if (p.transcript && fromStore.length > fromTranscript.length) {
    extra.messagesFrom = 'state.db';
    return fromStore;
  }
  return p.transcript ? fromTranscript : fromStore;
}

export function buildHermesSession(p: HermesPieces): Session {
  const t = p.transcript;
  const s = p.store?.facts ?? null;
  const links = p.store?.links ?? NO_LINKS;
  const extra: Record<string, unknown> = { ...(s?.extra ?? {}) };
  const messages = chooseMessages(p, extra);

  const platform = s?.platform ?? t?.platform ?? null;
  if (platform) extra.platform = platform;
  if (t?.tags.length) extra.tags = t.tags;
  if (t?.tools.length) extra.tools = t.tools;
  if (s?.endReason) extra.endReason = s.endReason;
  if (s?.parentId) extra.parentSessionId = s.parentId;
  if (links.continues) extra.continues = links.continues;
  if (links.continuedIn.length) extra.continuedIn = links.continuedIn;
  if (t?.sessionId && t.sessionId !== p.id) extra.transcriptSessionId = t.sessionId;

  const modelConfig = s?.modelConfig ?? t?.modelConfig ?? null;
  const configCwd = typeof modelConfig?.cwd === 'string' ? modelConfig.cwd : null;
  const cwd = t?.cwd ?? configCwd;
  const model = s?.model ?? t?.model ?? null;
  const provider = s?.provider ?? null;
  const systemPrompt = s?.systemPrompt ?? t?.systemPrompt ?? null;
  const lastMessageAt = messages.findLast((m) => m.timestamp)?.timestamp ?? null;
  const updatedAt = latest(t?.updatedAt, s?.endedAt, lastMessageAt);

  return {
    key: `hermes:${p.id}`,
    id: p.id,
    format: 'hermes',
    formatVersion: p.formatVersion,
    title: titleFromText(s?.title) ?? titleFromText(t?.title) ?? firstPrompt(messages) ?? `Hermes session ${p.id}`,
    project: { path: cwd, name: cwd ? lastSegment(cwd) : null, branch: null, headCommit: null },
    createdAt: s?.startedAt ?? t?.startedAt ?? messages.find((m) => m.timestamp)?.timestamp ?? null,
    updatedAt,
    closedAt: s?.endedAt ?? null,
    status: statusOf(s, latest(updatedAt, t?.startedAt, s?.startedAt), p.now),
    outcome: null,
    model: model || provider ? { provider, name: model, parameters: {} } : null,
    config: modelConfig ? flattenConfig(new Fields(modelConfig, 'model_config', p.warnings), 'session') : [],
    systemPrompt: systemPrompt ? { path: null, hash: null, text: systemPrompt } : null,
    toolVersion: null,
    messages,
    operations: [],
    todos: [],
    summary: null,
    artifacts: [],
    usage: s?.usage ?? null,
    cost: s?.cost ?? null,
    parentKey: links.parentKey,
    childKeys: links.childKeys,
    sourceFiles: p.sourceFiles,
    warnings: p.warnings.list(),
    extra,
  };
}
