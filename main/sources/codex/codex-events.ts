// Applies Codex event_msg records: turn lifecycle, cumulative token counts, tool outcomes, sub-agent spawns and echoes.
import type { Operation, VcsFacts } from '../../../shared/session.ts';
import { isRecord, type Fields } from '../coerce.ts';
import { durationMs } from './codex-content.ts';
import { turnSettings } from './codex-meta.ts';
import { addChild, bump, detailOf, newOperation, type CodexState, type FallbackMessage } from './codex-state.ts';
import { readCodexTokens } from './codex-usage.ts';
import { readRateLimits } from './codex-rate-limits.ts';

/** Event types of the Codex protocol that add nothing beyond the response items; they are only counted. */
const QUIET_EVENTS = new Set([
  'agent_message_delta',
  'agent_reasoning_delta',
  'agent_reasoning_raw_content_delta',
  'agent_reasoning_section_break',
  'agent_message_content_delta',
  'reasoning_content_delta',
  'reasoning_raw_content_delta',
  'session_configured',
  'mcp_startup_update',
  'mcp_startup_complete',
  'mcp_tool_call_begin',
  'web_search_begin',
  'exec_command_begin',
  'exec_command_output_delta',
  'terminal_interaction',
  'view_image_tool_call',
  'exec_approval_request',
  'elicitation_request',
  'apply_patch_approval_request',
  'deprecation_notice',
  'background_event',
  'undo_started',
  'undo_completed',
  'stream_error',
  'patch_apply_begin',
  'turn_diff',
  'get_history_entry_response',
  'mcp_list_tools_response',
  'list_custom_prompts_response',
  'list_skills_response',
  'skills_update_available',
  'plan_update',
  'shutdown_complete',
  'entered_review_mode',
  'exited_review_mode',
  'raw_response_item',
  'item_started',
  'context_compacted',
  'warning',
  'collab_agent_spawn_begin',
  'collab_agent_interaction_begin',
  'collab_agent_interaction_end',
  'collab_waiting_begin',
  'collab_waiting_end',
  'collab_close_begin',
  'collab_close_end',
  'collab_resume_begin',
  'collab_resume_end',
  'dynamic_tool_call_request',
  'dynamic_tool_call_response',
  'image_generation_begin',
  'image_generation_end',
  'guardian_assessment',
  'thread_goal_updated',
  'thread_settings_applied',
  'sub_agent_activity',
  'thread_rolled_back',
  'request_user_input',
  'model_reroute',
  'agent_reasoning_raw_content',
]);

const MAX_ERRORS = 50;

function fallback(state: CodexState, candidate: Omit<FallbackMessage, 'late'>, late = false): void {
  if (candidate.text.trim()) state.fallbacks.push({ ...candidate, late });
}

/** A status written as a word or as `{completed: ...}` / `{errored: ...}`. */
function statusWord(raw: unknown): string | null {
  if (typeof raw === 'string') return raw;
  if (isRecord(raw)) return Object.keys(raw)[0] ?? null;
  return null;
}

/** `changes` maps paths to `{type: add|update|delete, move_path}` (older writers: `{add: {...}}`, `{update: {...}}`). */
export function readChanges(raw: unknown): VcsFacts | null {
  if (!isRecord(raw)) return null;
  const staged: VcsFacts['staged'] = { A: [], M: [], D: [], R: [] };
  for (const [path, change] of Object.entries(raw)) {
    if (!isRecord(change)) continue;
    const type = typeof change.type === 'string' ? change.type : (Object.keys(change)[0] ?? '');
    const inner = typeof change.type === 'string' ? change : isRecord(change[type]) ? (change[type] as Record<string, unknown>) : {};
    const move = typeof inner.move_path === 'string' ? inner.move_path : null;
    if (type === 'add') staged.A.push(path);
    else if (type === 'delete') staged.D.push(path);
    else if (type === 'update' && move) staged.R.push({ from: path, to: move });
    else if (type === 'update') staged.M.push(path);
  }
  const any = staged.A.length + staged.M.length + staged.D.length + staged.R.length > 0;
  return any ? { staged, appliedSha: null, restoredSha: null } : null;
}

/** The tool operation an event reports on, or a new operation when the call itself was never recorded. */
function toolFor(state: CodexState, f: Fields, line: number, ts: string | null, type: string, name: string): Operation {
  const callId = f.string('call_id');
  const known = callId !== null ? state.toolsByCallId.get(callId) : undefined;
  if (known) return known;
  const op = newOperation(state, line, type, name, ts, callId === null ? {} : { callId });
  if (callId !== null) state.toolsByCallId.set(callId, op);
  return op;
}

function readTokenCount(state: CodexState, f: Fields): void {
  const info = f.present('info') ? f.object('info') : null;
  if (!info) return;
  const total = info.present('total_token_usage') ? readCodexTokens(info.object('total_token_usage')) : null;
  const last = info.present('last_token_usage') ? readCodexTokens(info.object('last_token_usage')) : null;
  // The parent's counts, replayed with a fork's copied history: where this session's own counting starts.
  if (state.forkReplay.waiting) {
    if (total) state.tokens.inherit(total);
    return;
  }
  const delta = total ? state.tokens.pushTotal(total) : last ? state.tokens.pushCall(last) : null;
  if (!delta) return;
  state.turns.addUsage(delta);
  state.costParts.push({ model: state.currentModel, usage: delta });
  if (state.lastAssistant && state.lastAssistant.usage === null) state.lastAssistant.usage = delta;
  state.lastAssistant = null;
}

/** Older events carry the two streams without the combined output. */
function joinStreams(f: Fields): string | null {
  const streams = [f.string('stdout'), f.string('stderr')].filter((s): s is string => s !== null && s !== '');
  return streams.length ? streams.join('\n') : null;
}

function readExecEnd(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const op = toolFor(state, f, line, ts, 'exec', 'exec_command');
  const d = detailOf(op);
  const exitCode = f.number('exit_code');
  if (f.present('command')) d.command = f.value('command');
  const cwd = f.string('cwd');
  if (cwd !== null) d.cwd = cwd;
  if (exitCode !== null) d.exitCode = exitCode;
  const output = f.string('aggregated_output') ?? joinStreams(f);
  // Codex cuts long output in the middle and says so with this marker.
  if (output !== null && /\[\.\. omitted \d+ bytes \.\.\]/.test(output)) d.outputTruncated = true;
  if (output !== null && output.trim() !== '') state.execOutputs.push({ op, callId: f.string('call_id'), text: output });
  op.status = f.string('status') ?? (exitCode === null ? 'completed' : exitCode === 0 ? 'completed' : 'failed');
  op.endedAt = ts;
  op.latencyMs = durationMs(f.raw.duration) ?? op.latencyMs;
}

function readPatchEnd(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const op = toolFor(state, f, line, ts, 'patch', 'apply_patch');
  const success = typeof f.raw.success === 'boolean' ? f.raw.success : null;
  op.status = f.string('status') ?? (success === false ? 'failed' : 'completed');
  op.endedAt = ts;
  op.vcs = readChanges(f.raw.changes) ?? op.vcs;
  const stderr = f.string('stderr');
  if (success === false && stderr) detailOf(op).error = stderr;
}

function readMcpEnd(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const invocation = f.object('invocation');
  const name = [invocation?.string('server'), invocation?.string('tool')].filter(Boolean).join('.') || 'mcp';
  const op = toolFor(state, f, line, ts, 'mcp', name);
  const result = isRecord(f.raw.result) ? f.raw.result : null;
  const ok = result && isRecord(result.Ok) ? result.Ok : null;
  op.status = result && 'Err' in result ? 'failed' : ok?.isError === true ? 'failed' : 'completed';
  op.endedAt = ts;
  op.latencyMs = durationMs(f.raw.duration) ?? op.latencyMs;
}

function readWebSearchEnd(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const callId = f.string('call_id');
  // The web_search_call item has no call id; the end events arrive in the order of the calls.
  const op =
    (callId !== null ? state.toolsByCallId.get(callId) : undefined) ??
    state.webSearches.find((w) => w.endedAt === null) ??
    newOperation(state, line, 'tool', 'web_search', ts, {});
  op.endedAt = ts;
  op.status ??= 'completed';
  const query = f.string('query');
  if (query !== null) detailOf(op).query = query;
  if (f.present('action')) detailOf(op).action = f.value('action');
}

function readSpawn(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const thread = f.string('new_thread_id');
  if (thread === null) return;
  const key = addChild(state, thread);
  const op = toolFor(state, f, line, ts, 'spawn', 'spawn_agent');
  op.childSessionKey = key;
  op.status = statusWord(f.raw.status) ?? op.status;
  op.endedAt ??= ts;
  const d = detailOf(op);
  for (const [from, to] of [
    ['new_agent_nickname', 'nickname'],
    ['new_agent_role', 'role'],
    ['model', 'model'],
    ['reasoning_effort', 'reasoningEffort'],
  ] as const) {
    const v = f.string(from);
    if (v !== null) d[to] = v;
  }
}

function itemText(item: Fields): string {
  return (item.array('content') ?? []).map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : '')).join('');
}

export function readEvent(state: CodexState, f: Fields, line: number, ts: string | null): void {
  const type = f.string('type');
  if (type === null) {
    bump(state.unknownRecords, 'event_msg without a type');
    return;
  }
  state.recognised++;
  switch (type) {
    case 'task_started': {
      const turn = state.turns.taskStarted(line, ts, f.string('turn_id'));
      const d = turn.op.detail as Record<string, unknown>;
      if (d.model === undefined && state.context) Object.assign(d, turnSettings(state.context));
      return;
    }
    case 'task_complete': {
      const error = f.present('error') ? f.object('error')?.string('message') : null;
      const facts = { ttftMs: f.number('time_to_first_token_ms'), lastAgentMessage: f.string('last_agent_message'), error };
      if (!state.turns.finish(ts, error ? 'failed' : 'completed', facts, f.number('duration_ms')))
        bump(state.otherRecords, 'event_msg/task_complete (no open turn)');
      return;
    }
    case 'turn_aborted': {
      const reason = f.string('reason');
      const turn = state.turns.finish(ts, 'aborted', { reason }, f.number('duration_ms'));
      state.abortedTurns.push({ turnId: turn?.turnId ?? f.string('turn_id'), reason, timestamp: ts });
      return;
    }
    case 'token_count':
      // The latest rate-limit state the session saw (codex-rate-limits.ts), kept even on events without usage.
      state.rateLimits = readRateLimits(f.raw.rate_limits, ts) ?? state.rateLimits;
      return readTokenCount(state, f);
    case 'user_message':
      return fallback(state, { role: 'user', kind: 'text', text: f.string('message') ?? '', line, timestamp: ts });
    case 'agent_message':
      return fallback(state, { role: 'assistant', kind: 'text', text: f.string('message') ?? '', line, timestamp: ts });
    case 'agent_reasoning':
      return fallback(state, { role: 'assistant', kind: 'thinking', text: f.string('text') ?? '', line, timestamp: ts });
    case 'item_completed': {
      const item = f.object('item');
      const kind = item?.string('type');
      if (item && (kind === 'UserMessage' || kind === 'AgentMessage')) {
        fallback(state, { role: kind === 'UserMessage' ? 'user' : 'assistant', kind: 'text', text: itemText(item), line, timestamp: ts }, true);
      } else bump(state.otherRecords, `event_msg/item_completed/${kind ?? 'unknown'}`);
      return;
    }
    case 'exec_command_end':
      return readExecEnd(state, f, line, ts);
    case 'patch_apply_end':
      return readPatchEnd(state, f, line, ts);
    case 'mcp_tool_call_end':
      return readMcpEnd(state, f, line, ts);
    case 'web_search_end':
      return readWebSearchEnd(state, f, line, ts);
    case 'collab_agent_spawn_end':
      return readSpawn(state, f, line, ts);
    case 'thread_name_updated':
      state.threadName = f.string('thread_name') ?? state.threadName;
      return;
    case 'error':
      if (state.errors.length < MAX_ERRORS) state.errors.push({ line, timestamp: ts, message: f.string('message') ?? '' });
      return;
    default:
      if (QUIET_EVENTS.has(type)) bump(state.otherRecords, `event_msg/${type}`);
      else {
        state.recognised--;
        bump(state.unknownRecords, `event_msg/${type}`);
      }
  }
}
