// Reads a Kimi Code agent journal (agents/<agentId>/wire.jsonl): flat `{type, ..., time}` ops, user turns and loop events.
import { warnMissingContent } from '../missing-content.ts';
import type { Message, TokenUsage } from '../../../shared/session.ts';
import { Fields, isRecord, kindOfJson, limitDepth } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';
import { kimiPart, kimiParts, outputText, toolCallPart } from './kimi-parts.ts';
import { addTokens, bump, isoFromEpoch, noteTime, pushMessage, stepMessage, type KimiState } from './kimi-state.ts';

/**
 * Ops that keep the tool's own state (tool lists, token gauges, permissions and their approvals, plan mode switched
 * on and off, bindings): known, counted, not shown. Plan mode shows in the conversation as its ExitPlanMode call.
 */
const QUIET = new Set([
  'token_counting.measured',
  'token_counting.turn_recorded',
  'permission.set_mode',
  'permission.record_approval_result',
  'plan_mode.enter',
  'plan_mode.exit',
  'plugin.session_start',
  'runtime.set_binding',
  'turn.steer',
]);

function nativeUsage(usage: Fields | null): TokenUsage | null {
  if (!usage) return null;
  const n = (key: string) => Math.max(0, usage.number(key) ?? 0);
  const found = ['inputOther', 'output', 'inputCacheRead', 'inputCacheCreation'].some((k) => usage.present(k));
  return found ? { input: n('inputOther'), output: n('output'), cacheRead: n('inputCacheRead'), cacheWrite: n('inputCacheCreation'), reasoning: 0 } : null;
}

/** Usage belongs to the step's answer; reported after a tool result, to the last answer if it has none yet. */
function attachUsage(state: KimiState, usage: TokenUsage, model: string | null): void {
  addTokens(state, usage);
  const owner: Message | undefined = state.step ?? state.messages.findLast((m) => m.role === 'assistant');
  if (!owner || (owner !== state.step && owner.usage)) return;
  owner.usage = usage;
  if (model !== null) owner.model = model;
}

function configUpdate(state: KimiState, rec: Fields): void {
  const alias = rec.string('modelAlias');
  if (alias !== null) state.extra.modelAlias = alias;
  const effort = rec.string('thinkingEffort');
  if (effort !== null) state.parameters.thinkingEffort = effort;
  // An empty cwd (a config.update that reset it) does not wipe the one the session ran in.
  state.cwd = rec.string('cwd') || state.cwd;
  state.systemPrompt = rec.string('systemPrompt') ?? state.systemPrompt;
}

/**
 * The tool definitions the model was offered (names, descriptions, parameter schemas): kept in `extra.tools`, each
 * distinct definition once across snapshots, as the Droid reader keeps its stream's tool list. Not a turn of the
 * conversation; searchable (the index reads the extras) and shown folded in the session's facts.
 */
function toolsSnapshot(state: KimiState, rec: Fields): void {
  const tools = rec.raw.tools;
  if (!Array.isArray(tools)) {
    state.warnings.add('missing_field', 'An llm.tools_snapshot op has no tools list; it was skipped.');
    return;
  }
  const kept = Array.isArray(state.extra.tools) ? (state.extra.tools as unknown[]) : [];
  const seen = new Set(kept.map((tool) => JSON.stringify(tool)));
  for (const tool of tools) {
    const copy = limitDepth(tool, state.warnings, 'llm.tools_snapshot.tools');
    const key = JSON.stringify(copy);
    if (!seen.has(key)) {
      seen.add(key);
      kept.push(copy);
    }
  }
  state.extra.tools = kept;
  bump(state.otherRecords, 'llm.tools_snapshot');
}

/** The names of the tools switched on (tools.set_active_tools `names`, profile.bind `activeToolNames`): the latest list. */
function activeTools(state: KimiState, names: unknown): void {
  if (Array.isArray(names)) state.extra.activeTools = names.filter((n): n is string => typeof n === 'string');
}

function profileBind(state: KimiState, rec: Fields): void {
  configUpdate(state, rec);
  activeTools(state, rec.raw.activeToolNames);
  state.cwd ??= rec.object('environmentDisclosure')?.string('cwd') ?? null;
  bump(state.otherRecords, 'profile.bind');
}

function llmRequest(state: KimiState, rec: Fields): void {
  const model = rec.string('model');
  if (model !== null) state.model = model;
  state.provider = rec.string('provider') ?? state.provider;
  // A retry repeats the request; the model served one call.
  const attempt = rec.string('attempt');
  if (model !== null && (attempt === null || attempt.startsWith('1/'))) bump(state.models, model);
  bump(state.otherRecords, 'llm.request');
}

function appendMessage(state: KimiState, rec: Fields, line: number, ts: string | null): void {
  const message = rec.object('message');
  const role = message?.string('role') ?? null;
  if (!message || role === null) {
    state.warnings.add('missing_field', 'A context.append_message op has no message with a role; it was left out.');
    return;
  }
  state.step = null;
  if (role === 'tool') {
    const isError = typeof message.raw.isError === 'boolean' ? message.raw.isError : null;
    pushMessage(state, line, 'tool', ts, [
      { type: 'tool_result', callId: message.string('toolCallId'), output: outputText(message.raw.content, state.warnings), isError },
    ]);
    return;
  }
  const parts = kimiParts(message.raw.content, 'message.content', state.warnings, state.unknownBlocks);
  if (role === 'assistant' && Array.isArray(message.raw.toolCalls)) {
    for (const call of message.raw.toolCalls) {
      const part = toolCallPart(call, state.warnings);
      if (part) parts.push(part);
    }
  }
  if (parts.length === 0) {
    warnMissingContent(state.warnings, `A Kimi ${role} message`);
    return;
  }
  const origin = message.object('origin')?.string('kind') ?? null;
  const notes = origin !== null && origin !== 'user' ? { origin } : undefined;
  const kind = role === 'user' || role === 'assistant' ? role : 'system';
  const pushed = pushMessage(state, line, kind, ts, parts, kind === 'system' ? { role, ...notes } : notes);
  if (kind === 'assistant') pushed.model = state.model;
}

/**
 * A compaction (Kimi Code 0.29: full_compaction.begin, then context.apply_compaction with the model's handoff summary
 * and the tokens before and after, then full_compaction.complete): one system message where it began, its summary
 * filled in when applied. An apply with no begin before it stands on its own.
 */
function compaction(state: KimiState, type: string, rec: Fields, line: number, ts: string | null): void {
  state.step = null;
  if (type === 'full_compaction.begin') {
    const part = { type: 'compaction' as const, summary: null, trigger: rec.string('source'), tokensBefore: null };
    state.compaction = { message: pushMessage(state, line, 'system', ts, [part]), part };
    return;
  }
  if (type === 'full_compaction.complete') {
    state.compaction = null;
    return bump(state.otherRecords, type);
  }
  const summary = rec.string('summary') ?? rec.string('contextSummary');
  const tokensAfter = rec.number('tokensAfter');
  const compacted = rec.number('compactedCount');
  const notes = { ...(tokensAfter === null ? {} : { tokensAfter }), ...(compacted === null ? {} : { compactedMessages: compacted }) };
  if (!state.compaction) {
    const part = { type: 'compaction' as const, summary: null, trigger: null, tokensBefore: null };
    state.compaction = { message: pushMessage(state, line, 'system', ts, [part]), part };
  }
  const { message, part } = state.compaction;
  part.summary = summary;
  part.tokensBefore = rec.number('tokensBefore');
  if (Object.keys(notes).length) message.annotations = { ...(isRecord(message.annotations) ? message.annotations : {}), ...notes };
}

function loopEvent(state: KimiState, rec: Fields, line: number, ts: string | null): void {
  const event = rec.object('event');
  const type = event?.string('type') ?? null;
  if (!event || type === null) {
    bump(state.unknownTypes, 'loop event without a type');
    return;
  }
  switch (type) {
    case 'step.begin':
      state.step = null;
      return;
    case 'content.part': {
      const part = isRecord(event.raw.part) ? kimiPart(event.raw.part, state.unknownBlocks) : null;
      if (part) stepMessage(state, line, ts).parts.push(part);
      return;
    }
    case 'tool.call': {
      const part = toolCallPart({ id: event.raw.toolCallId, name: event.raw.name, arguments: event.raw.args }, state.warnings);
      if (part) stepMessage(state, line, ts).parts.push(part);
      return;
    }
    case 'tool.result': {
      state.step = null;
      const result = event.raw.result;
      const fields = isRecord(result) ? result : {};
      let output = outputText(isRecord(result) ? fields.output : result, state.warnings);
      if (output === '' && typeof fields.message === 'string') output = fields.message;
      const isError = typeof fields.isError === 'boolean' ? fields.isError : null;
      pushMessage(state, line, 'tool', ts, [{ type: 'tool_result', callId: event.string('toolCallId'), output, isError }]);
      return;
    }
    case 'step.end': {
      const model = event.string('model');
      if (model !== null) state.model = model;
      const usage = nativeUsage(event.object('usage'));
      const reason = event.string('finishReason');
      if (state.step && reason !== null && reason !== 'stop' && reason !== 'tool_calls') state.step.annotations = { finishReason: reason };
      if (usage) attachUsage(state, usage, model);
      state.step = null;
      return;
    }
    default:
      bump(state.unknownTypes, `loop event ${type}`);
  }
}

function op(state: KimiState, type: string, rec: Fields, line: number, ts: string | null): void {
  switch (type) {
    case 'config.update':
      configUpdate(state, rec);
      return bump(state.otherRecords, type);
    case 'profile.bind':
      return profileBind(state, rec);
    case 'llm.request':
      return llmRequest(state, rec);
    case 'llm.tools_snapshot':
      return toolsSnapshot(state, rec);
    case 'tools.set_active_tools':
      activeTools(state, rec.raw.names);
      return bump(state.otherRecords, type);
    case 'turn.prompt':
      state.turns++;
      state.openTurn = true;
      state.step = null;
      return bump(state.otherRecords, type);
    case 'turn.cancel':
    case 'turn.ended':
      state.openTurn = false;
      state.step = null;
      if (type === 'turn.cancel') state.extra.cancelledTurns = ((state.extra.cancelledTurns as number | undefined) ?? 0) + 1;
      return bump(state.otherRecords, type);
    case 'context.append_message':
      return appendMessage(state, rec, line, ts);
    case 'context.append_loop_event':
      return loopEvent(state, rec, line, ts);
    case 'full_compaction.begin':
    case 'context.apply_compaction':
    case 'full_compaction.complete':
      return compaction(state, type, rec, line, ts);
    case 'usage.record': {
      const usage = nativeUsage(rec.object('usage'));
      if (usage) attachUsage(state, usage, rec.string('model'));
      return;
    }
    default:
      if (QUIET.has(type)) bump(state.otherRecords, type);
      else bump(state.unknownTypes, type);
  }
}

export function readJournal(state: KimiState, records: readonly JsonLine[]): void {
  for (const { value, line } of records) {
    if (!isRecord(value)) {
      state.warnings.add('not_a_record', `Lines holding ${kindOfJson(value)} instead of a record object were skipped.`);
      continue;
    }
    const rec = new Fields(value, '', state.warnings);
    const type = rec.string('type');
    if (type === 'metadata') {
      state.extra.wireProtocol = rec.string('protocol_version');
      noteTime(state, isoFromEpoch(rec.raw.created_at, 'ms'));
      continue;
    }
    const ts = isoFromEpoch(rec.raw.time, 'ms');
    noteTime(state, ts);
    if (type === null) bump(state.unknownTypes, 'record without a type');
    else op(state, type, rec, line, ts);
  }
  state.step = null;
}
