// Replays a Copilot CLI events file ({type, data, id, parentId, timestamp} per line) into the conversation state.
import { Fields, isRecord, kindOfJson, type WarningList } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';
import { flushReasoning, onAssistantMessage, onReasoning, onUserMessage } from './copilot-content.ts';
import { onAutoModeResolved, onContextChanged, onModelChange, onShutdown, onStart, onTurn, onUsageCheckpoint } from './copilot-lifecycle.ts';
import { onAbort, onCompaction, onHandoff, onNotice, onNotification, onSystemMessage, onTaskComplete, onTruncation } from './copilot-notices.ts';
import { bump, newState, type CopilotState, type EventCtx } from './copilot-state.ts';
import { onHook, onSkill, onSubagent, onToolComplete, onToolStart } from './copilot-tools.ts';

type Handler = (state: CopilotState, ev: EventCtx) => void;

const HANDLERS: Record<string, Handler> = {
  'session.start': (s, ev) => onStart(s, ev, false),
  'session.resume': (s, ev) => onStart(s, ev, true),
  'session.context_changed': onContextChanged,
  'session.model_change': onModelChange,
  'session.auto_mode_resolved': onAutoModeResolved,
  'session.usage_checkpoint': onUsageCheckpoint,
  'session.shutdown': onShutdown,
  'session.info': (s, ev) => onNotice(s, ev, 'info'),
  'session.warning': (s, ev) => onNotice(s, ev, 'warning'),
  'session.error': (s, ev) => onNotice(s, ev, 'error'),
  'session.truncation': onTruncation,
  'session.compaction_complete': onCompaction,
  'session.handoff': onHandoff,
  'session.task_complete': onTaskComplete,
  'session.title_changed': (s, ev) => {
    s.title = ev.data.string('title') ?? s.title;
  },
  'user.message': onUserMessage,
  'assistant.reasoning': onReasoning,
  'assistant.message': onAssistantMessage,
  'assistant.turn_start': (s) => onTurn(s, 'start'),
  'assistant.turn_end': (s) => onTurn(s, 'end'),
  abort: onAbort,
  'tool.execution_start': onToolStart,
  'tool.execution_complete': onToolComplete,
  'subagent.started': (s, ev) => onSubagent(s, ev, 'started'),
  'subagent.completed': (s, ev) => onSubagent(s, ev, 'completed'),
  'subagent.failed': (s, ev) => onSubagent(s, ev, 'failed'),
  'hook.start': (s, ev) => onHook(s, ev, 'start'),
  'hook.end': (s, ev) => onHook(s, ev, 'end'),
  'skill.invoked': onSkill,
  'system.message': onSystemMessage,
  'system.notification': onNotification,
};

/**
 * Events the CLI persists that carry no conversation (settings, permissions, plans, schedules, UI state), per the
 * Copilot SDK's session-event schema: known, so not reported as unknown; their records stay in the raw view.
 */
const QUIET = new Set([
  'session.remote_steerable_changed',
  'session.schedule_created',
  'session.schedule_cancelled',
  'session.schedule_rearmed',
  'session.autopilot_objective_changed',
  'session.mode_changed',
  'session.session_limits_changed',
  'session.permissions_changed',
  'session.plan_changed',
  'session.workspace_file_changed',
  'session.context_cleared',
  'session.compaction_start',
  'session.binary_asset',
  'session.canvas.recorded',
  'session.canvas.removed',
  'tool.user_requested',
  'tool_search.activated',
  'subagent.selected',
  'subagent.deselected',
  'permission.requested',
  'permission.completed',
  'external_tool.requested',
  'external_tool.completed',
  'session.idle',
  'session.todos_changed',
  'session.usage_info',
  'assistant.idle',
  'assistant.usage',
  'assistant.intent',
  'assistant.message_start',
  'assistant.message_delta',
  'assistant.reasoning_delta',
  'assistant.streaming_delta',
  'tool.execution_partial_result',
  'tool.execution_progress',
  'hook.progress',
  'pending_messages.modified',
  'model.call_failure',
]);

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Call ids some assistant.message requests: an execution may come before the request that names it. */
function requestedCalls(records: readonly JsonLine[]): Set<string> {
  const ids = new Set<string>();
  for (const { value } of records) {
    if (!isRecord(value) || value.type !== 'assistant.message' || !isRecord(value.data) || !Array.isArray(value.data.toolRequests)) continue;
    for (const r of value.data.toolRequests) if (isRecord(r) && typeof r.toolCallId === 'string') ids.add(r.toolCallId);
  }
  return ids;
}

function later(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

export function replayCopilotEvents(records: readonly JsonLine[], warnings: WarningList): CopilotState {
  const state = newState(warnings, requestedCalls(records));
  let last: EventCtx | null = null;
  for (const { value, line } of records) {
    if (!isRecord(value)) {
      warnings.add('wrong_type', `A line holds ${kindOfJson(value)} where a Copilot CLI event (an object) is expected; it was skipped.`);
      continue;
    }
    const envelope = new Fields(value, '', warnings);
    const type = envelope.string('type');
    const data = isRecord(value.data) ? new Fields(value.data, 'data', warnings) : new Fields({}, 'data', warnings);
    if (value.data !== undefined && !isRecord(value.data)) warnings.wrongType('data', 'an object', value.data);
    const ts = envelope.present('timestamp') ? envelope.timestamp('timestamp') : null;
    const agentId =
      envelope.string('agentId') ??
      (typeof value.data === 'object' && isRecord(value.data) && typeof value.data.parentToolCallId === 'string' ? value.data.parentToolCallId : null);
    const ev: EventCtx = { line, eventId: envelope.string('id'), ts, agentId, data };
    if (ts !== null) {
      state.firstTs ??= ts;
      state.lastTs = later(state.lastTs, ts);
    }
    last = ev;
    const handler = type === null ? undefined : HANDLERS[type];
    if (handler) handler(state, ev);
    else if (type === null || !QUIET.has(type)) bump(state.unknownTypes, type ?? 'without a type');
  }
  if (last) flushReasoning(state, last);
  for (const [type, n] of state.unknownTypes) {
    warnings.add('unknown_record_type', `Unknown Copilot CLI event type "${type}" (${plural(n, 'event')}) ignored.`);
  }
  return state;
}
