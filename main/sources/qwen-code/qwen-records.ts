// Converts the records of a Qwen Code chain into messages: Gemini-style parts (reused from the Gemini reader), tool results, notices.
import { warnMissingContent } from '../missing-content.ts';
import type { Message, MessagePart } from '../../../shared/session.ts';
import { Fields, isRecord, type WarningList } from '../coerce.ts';
import { contentParts, type GeminiAcc } from '../gemini/gemini-parts.ts';
import type { QwenRecord } from './qwen-chain.ts';
import { qwenUsage } from './qwen-usage.ts';

export interface QwenFacts {
  messages: Message[];
  title: string | null;
  parentSessionId: string | null;
  sessionModel: string | null;
  unknown: Map<string, number>;
  unknownParts: Map<string, number>;
}

/** Records that carry writer or UI state, not conversation: known, so not reported; they stay in the raw view. */
const QUIET = new Set([
  'ui_telemetry',
  'attribution_snapshot',
  'session_notes',
  'session_source',
  'session_execution_engine',
  'omni_recall',
  'session_approval_mode',
  'agent_bootstrap',
  'agent_launch_prompt',
  'agent_retry',
  'agent_session_ready',
  'file_history_snapshot',
  'user_text_elements',
  'session_sources_snapshot',
  'branch_checkpoint',
  'goal_state',
  'goal_turn_end',
  'realtime_message',
  'turn_result',
  'managed_session_header_v1',
  'managed_session_event_v1',
  'managed_session_commit_v1',
  'session_artifact_event',
  'session_artifact_snapshot',
]);
/** User records the CLI writes itself (background notifications, schedules, goals), not typed prompts. */
const INJECTED = new Set(['notification', 'cron', 'goal_runtime', 'background_task_completed']);
const HOOK_CONTEXT = /^\s*<qwen:user-prompt-submit-context>\n[\s\S]*\n<\/qwen:user-prompt-submit-context>\s*$/;

function payloadOf(f: Fields): Fields | null {
  return f.present('systemPayload') ? f.object('systemPayload') : null;
}

function textOf(items: unknown): string {
  if (!Array.isArray(items)) return '';
  return items.flatMap((i) => (isRecord(i) && typeof i.text === 'string' ? [i.text] : [])).join('\n');
}

interface Ctx {
  acc: GeminiAcc;
  facts: QwenFacts;
  ids: Set<string>;
  /** Sub-agent run -> the tool call that started it (agent_session_ready records). */
  callOfAgent: Map<string, string>;
}

function push(ctx: Ctx, rec: QwenRecord, f: Fields, role: Message['role'], parts: MessagePart[], annotations: Record<string, unknown> = {}): void {
  if (!parts.length) {
    warnMissingContent(ctx.acc.warnings, `A Qwen Code ${rec.type} record`);
    return;
  }
  let id = rec.uuid;
  if (ctx.ids.has(id)) id = `${id}#${rec.line}`;
  ctx.ids.add(id);
  const agentId = rec.sidechain ? (f.string('agentId') ?? 'sidechain') : null;
  if (agentId !== null) {
    const call = ctx.callOfAgent.get(agentId);
    if (call) annotations.parentToolCallId = call;
    const name = f.string('agentName');
    if (name) annotations.agentName = name;
  }
  const message: Message = {
    id,
    role,
    timestamp: f.present('timestamp') ? f.timestamp('timestamp') : null,
    model: role === 'assistant' ? f.string('model') : null,
    usage: role === 'assistant' ? qwenUsage(f) : null,
    cost: null,
    parts,
    agentId,
    origin: { fileIndex: 0, line: rec.line, pointer: null },
  };
  if (Object.keys(annotations).length) message.annotations = annotations;
  ctx.facts.messages.push(message);
}

function partsOf(ctx: Ctx, f: Fields): MessagePart[] {
  const message = f.present('message') ? f.object('message') : null;
  return message?.present('parts') ? contentParts(message.raw.parts, ctx.acc, message.name('parts')) : [];
}

function onUser(ctx: Ctx, rec: QwenRecord, f: Fields): void {
  const parts = partsOf(ctx, f);
  const annotations: Record<string, unknown> = {};
  const last = parts.at(-1);
  // Hook output the CLI appended for the model, not what the user typed (its own final part).
  if (parts.length > 1 && last?.type === 'text' && HOOK_CONTEXT.test(last.text)) {
    parts.pop();
    annotations.hookContext = last.text;
  }
  const display = payloadOf(f)?.string('displayText') ?? null;
  if (!parts.length && display) parts.push({ type: 'text', text: display });
  if (display) annotations.displayText = display;
  if (rec.subtype && INJECTED.has(rec.subtype)) Object.assign(annotations, { kind: rec.subtype, injected: true });
  else if (rec.subtype === 'mid_turn_user_message') annotations.queued = true;
  else if (rec.subtype) annotations.subtype = rec.subtype;
  push(ctx, rec, f, 'user', parts, annotations);
}

function onToolResult(ctx: Ctx, rec: QwenRecord, f: Fields): void {
  const result = f.present('toolCallResult') ? f.object('toolCallResult') : null;
  const failed = result !== null && (result.string('status') === 'error' || (result.present('error') && result.raw.error !== null));
  let parts = partsOf(ctx, f);
  if (!parts.length && result) {
    const display = result.raw.resultDisplay;
    parts = [
      { type: 'tool_result', callId: result.string('callId'), output: typeof display === 'string' ? display : JSON.stringify(display ?? ''), isError: null },
    ];
  }
  const status = result?.string('status');
  for (const p of parts) if (p.type === 'tool_result' && status) p.isError = failed || p.isError === true;
  push(ctx, rec, f, 'tool', parts);
}

function onSystem(ctx: Ctx, rec: QwenRecord, f: Fields): void {
  const payload = payloadOf(f);
  const sub = rec.subtype ?? '';
  if (sub === 'custom_title') ctx.facts.title = payload?.string('customTitle') ?? ctx.facts.title;
  else if (sub === 'parent_session') ctx.facts.parentSessionId = payload?.string('parentSessionId') ?? ctx.facts.parentSessionId;
  else if (sub === 'session_model') ctx.facts.sessionModel = payload?.string('modelId') ?? ctx.facts.sessionModel;
  else if (sub === 'chat_compression') {
    const info = payload?.present('info') ? payload.object('info') : null;
    const history = Array.isArray(payload?.raw.compressedHistory) ? payload.raw.compressedHistory : [];
    const summary = isRecord(history[0]) ? textOf(history[0].parts) : '';
    push(
      ctx,
      rec,
      f,
      'system',
      [{ type: 'compaction', summary: summary || null, trigger: 'compression', tokensBefore: info?.number('originalTokenCount') ?? null }],
      { kind: 'compaction' },
    );
  } else if (sub === 'slash_command') {
    const phase = payload?.string('phase');
    const text = phase === 'result' ? textOf(payload?.raw.outputHistoryItems) : (payload?.string('rawCommand') ?? '');
    if (text) push(ctx, rec, f, 'system', [{ type: 'text', text }], { kind: phase === 'result' ? 'command-output' : 'command' });
  } else if (sub === 'at_command') {
    const files = Array.isArray(payload?.raw.filesRead) ? (payload!.raw.filesRead as unknown[]).filter((x) => typeof x === 'string') : [];
    push(ctx, rec, f, 'system', [{ type: 'text', text: `${payload?.string('userText') ?? '@'}${files.length ? `\nRead: ${files.join(', ')}` : ''}` }], {
      kind: 'command',
    });
  } else if (sub === 'rewind') {
    const n = payload?.number('truncatedCount');
    push(ctx, rec, f, 'system', [{ type: 'text', text: `Rewound the conversation${n !== null && n !== undefined ? ` (${n} items)` : ''}.` }], {
      kind: 'rewind',
    });
  } else if (sub === 'agent_session_ready') {
    const agent = f.string('agentId');
    const call = payload?.string('callId');
    if (agent && call) ctx.callOfAgent.set(agent, call);
  } else if (!QUIET.has(sub))
    ctx.facts.unknown.set(`system ${sub || 'without a subtype'}`, (ctx.facts.unknown.get(`system ${sub || 'without a subtype'}`) ?? 0) + 1);
}

export function convertRecords(records: readonly QwenRecord[], warnings: WarningList): QwenFacts {
  const facts: QwenFacts = { messages: [], title: null, parentSessionId: null, sessionModel: null, unknown: new Map(), unknownParts: new Map() };
  const ctx: Ctx = { acc: { warnings, unknownParts: facts.unknownParts, operations: [] }, facts, ids: new Set(), callOfAgent: new Map() };
  for (const rec of records) {
    const f = new Fields(rec.raw, '', warnings);
    if (rec.type === 'user') onUser(ctx, rec, f);
    else if (rec.type === 'assistant') push(ctx, rec, f, 'assistant', partsOf(ctx, f));
    else if (rec.type === 'tool_result') onToolResult(ctx, rec, f);
    else if (rec.type === 'system') onSystem(ctx, rec, f);
    else facts.unknown.set(rec.type, (facts.unknown.get(rec.type) ?? 0) + 1);
  }
  return facts;
}
