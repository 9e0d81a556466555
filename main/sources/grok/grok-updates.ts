// Streams Grok's updates.jsonl (ACP session/update notifications with epoch timestamps): message times, tool outcomes, per-turn usage and cost.
import { createReadStream } from 'node:fs';
import type { TokenUsage } from '../../../shared/session.ts';
import { emptyUsage, isRecord, toIsoTimestamp } from '../coerce.ts';

/** A point in the update stream a chat_history row can be matched to, in order. */
export interface Anchor {
  role: 'user' | 'assistant';
  /** Text of the message's chunks (user and agent message chunks, joined). */
  text: string;
  toolCallIds: string[];
  /** Set for a finished tool call: the call whose result this is. */
  toolResultId: string | null;
  at: string;
}

/** One `turn_completed` usage payload: Grok reports each turn's own tokens, not running totals. */
export interface TurnUsage {
  promptId: string | null;
  at: string | null;
  usage: TokenUsage;
  /** The model with most output tokens in the turn (modelUsage lists each model the turn used). */
  model: string | null;
  /** costUsdTicks summed over the turn's models: 1 tick is 10^-10 US dollars. Null when no tick count was recorded. */
  costUsd: number | null;
}

export interface GrokUpdates {
  anchors: Anchor[];
  /** Final status per tool call id: completed or failed. */
  toolStatus: Map<string, 'completed' | 'failed'>;
  turns: TurnUsage[];
  lastAt: string | null;
  /** The last update's kind: `turn_completed` means no turn is open. */
  lastKind: string | null;
  badLines: number;
}

/** Lines longer than this (tool updates repeat the whole accumulated output) are not parsed: their few small fields are read from their start. */
const PARSE_LIMIT = 256 * 1024;
const HEAD = 8192;

function epochIso(value: unknown): string | null {
  if (typeof value === 'string') return toIsoTimestamp(value);
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  const ms = value > 1e12 ? value : value * 1000;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The few fields a huge line is needed for, found in its first bytes (serde writes small fields before the payload). */
function headRecord(head: string): Record<string, unknown> | null {
  const kind = /"sessionUpdate"\s*:\s*"([A-Za-z_]+)"/.exec(head)?.[1];
  if (!kind) return null;
  const update: Record<string, unknown> = { sessionUpdate: kind };
  const id = /"toolCallId"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(head)?.[1];
  const status = /"status"\s*:\s*"([A-Za-z_]+)"/.exec(head)?.[1];
  if (id !== undefined) update.toolCallId = id;
  if (status !== undefined) update.status = status;
  const ts = /"timestamp"\s*:\s*([0-9.eE+]+)/.exec(head)?.[1];
  return { timestamp: ts ? Number(ts) : undefined, params: { update } };
}

async function* lines(path: string): AsyncGenerator<Buffer> {
  const stream = createReadStream(path, { highWaterMark: 1024 * 1024 });
  let pending: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        const piece = chunk.subarray(start, nl);
        yield pending.length ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        start = nl + 1;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    }
    if (pending.length) yield Buffer.concat(pending);
  } finally {
    stream.destroy();
  }
}

function text(content: unknown): string {
  return isRecord(content) && content.type === 'text' && typeof content.text === 'string' ? content.text : '';
}

function count(u: Record<string, unknown>, key: string): number {
  const v = u[key];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

function ticks(u: Record<string, unknown>): number | null {
  const v = u.costUsdTicks;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/** inputTokens includes the cached part; the canonical input is the uncached rest. */
function tokensOf(u: Record<string, unknown>): TokenUsage {
  const cached = count(u, 'cachedReadTokens');
  return {
    input: Math.max(count(u, 'inputTokens') - cached, 0),
    output: count(u, 'outputTokens'),
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: count(u, 'reasoningTokens'),
  };
}

function turnUsage(update: Record<string, unknown>, at: string | null): TurnUsage | null {
  const usage = update.usage;
  if (!isRecord(usage)) return null;
  const total = emptyUsage();
  let costTicks: number | null = null;
  let model: string | null = null;
  let best = -1;
  const models = isRecord(usage.modelUsage) ? Object.entries(usage.modelUsage).filter(([, v]) => isRecord(v)) : [];
  // Per-model figures when present; the flat ones otherwise (older payloads, or an empty modelUsage).
  const entries: Array<[string | null, Record<string, unknown>]> = models.length ? (models as Array<[string, Record<string, unknown>]>) : [[null, usage]];
  for (const [name, u] of entries) {
    const t = tokensOf(u);
    total.input += t.input;
    total.output += t.output;
    total.cacheRead += t.cacheRead;
    total.reasoning += t.reasoning;
    const c = ticks(u);
    if (c !== null) costTicks = (costTicks ?? 0) + c;
    if (name !== null && t.output > best) [model, best] = [name, t.output];
  }
  if (models.length && costTicks === null) costTicks = ticks(usage);
  return {
    promptId: typeof update.prompt_id === 'string' ? update.prompt_id : null,
    at,
    usage: total,
    model,
    costUsd: costTicks === null ? null : costTicks * 1e-10,
  };
}

/** Reads the whole stream once, keeping only what the transcript needs. */
export async function readGrokUpdates(path: string): Promise<GrokUpdates> {
  const out: GrokUpdates = { anchors: [], toolStatus: new Map(), turns: [], lastAt: null, lastKind: null, badLines: 0 };
  let open = null as Anchor | null;
  const flush = () => {
    if (open) out.anchors.push(open);
    open = null;
  };
  // A payload sent again for the same turn (a retry shares its prompt_id) rewrites that turn.
  const addTurn = (turn: TurnUsage | null) => {
    if (!turn) return;
    const same = turn.promptId === null ? -1 : out.turns.findIndex((t) => t.promptId === turn.promptId);
    if (same >= 0) out.turns[same] = turn;
    else out.turns.push(turn);
  };
  for await (const bytes of lines(path)) {
    if (bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0x0d)) continue;
    let record: Record<string, unknown> | null;
    if (bytes.length > PARSE_LIMIT) record = headRecord(bytes.subarray(0, HEAD).toString('utf8'));
    else {
      try {
        const value: unknown = JSON.parse(bytes.toString('utf8'));
        record = isRecord(value) ? value : null;
      } catch {
        out.badLines++;
        continue;
      }
    }
    const params = record && isRecord(record.params) ? record.params : record;
    const update = params && isRecord(params.update) ? params.update : null;
    if (!record || !update) continue;
    if (typeof update.sessionUpdate !== 'string') {
      // A usage payload that names no kind of update is still a turn's tokens (agentsview reads every params.update.usage).
      if (isRecord(update.usage)) addTurn(turnUsage(update, epochIso(record.timestamp)));
      continue;
    }
    const at = epochIso(record.timestamp);
    const kind = update.sessionUpdate;
    if (at) out.lastAt = at;
    out.lastKind = kind;
    const hostTurn = isRecord(update._meta) && update._meta.hostTurn === true;
    switch (kind) {
      case 'user_message_chunk':
      case 'agent_message_chunk': {
        const role = kind === 'user_message_chunk' ? 'user' : 'assistant';
        if (hostTurn) {
          flush();
          break;
        }
        if (open?.role !== role || open.toolCallIds.length) {
          flush();
          if (at) open = { role, text: '', toolCallIds: [], toolResultId: null, at };
        }
        if (open) open.text += role === 'user' && open.text ? `\n${text(update.content)}` : text(update.content);
        break;
      }
      case 'tool_call':
        flush();
        if (at && typeof update.toolCallId === 'string')
          out.anchors.push({ role: 'assistant', text: '', toolCallIds: [update.toolCallId], toolResultId: null, at });
        break;
      case 'tool_call_update': {
        const status = update.status;
        if ((status !== 'completed' && status !== 'failed') || typeof update.toolCallId !== 'string') break;
        flush();
        out.toolStatus.set(update.toolCallId, status);
        if (at) out.anchors.push({ role: 'assistant', text: '', toolCallIds: [], toolResultId: update.toolCallId, at });
        break;
      }
      case 'turn_completed': {
        flush();
        addTurn(turnUsage(update, at));
        break;
      }
      case 'compaction_checkpoint':
        // The conversation restarts from a summary: earlier anchors belong to rows chat_history no longer holds.
        open = null;
        out.anchors = [];
        break;
      default:
        if (isRecord(update.usage)) addTurn(turnUsage(update, at));
    }
  }
  flush();
  return out;
}
