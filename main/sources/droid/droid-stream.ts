// Reads `droid exec --output-format stream-json` records: system/init, message, tool_call, tool_result, completion, error.
import { warnMissingContent } from '../missing-content.ts';
import type { TokenUsage } from '../../../shared/session.ts';
import { limitDepth, type Fields } from '../coerce.ts';
import { splitReminders } from './droid-blocks.ts';
import { bump, droidTime, pushMessage, pushPrompt, type DroidState } from './droid-state.ts';

/** The stream names the same field in camelCase or snake_case, depending on the CLI version. */
function either(rec: Fields, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = rec.string(key);
    if (value !== null) return value;
  }
  return null;
}

function init(state: DroidState, rec: Fields): void {
  state.model ??= either(rec, 'model', 'modelId', 'model_name');
  state.cwd ??= either(rec, 'cwd', 'workingDirectory', 'working_directory');
  const effort = either(rec, 'reasoning_effort', 'reasoningEffort');
  if (effort !== null) state.config.reasoningEffort = effort;
  if (Array.isArray(rec.raw.tools)) state.config.tools = rec.value('tools');
  bump(state.otherRecords, 'system');
}

function messageRecord(state: DroidState, rec: Fields, line: number, timestamp: string | null): void {
  const text = either(rec, 'text', 'content', 'message');
  if (text === null || text.trim() === '') {
    warnMissingContent(state.warnings, 'A Droid stream message record', { found: 'no text' });
    return;
  }
  // Lower-cased: a role written `USER` is still the user's prompt, not a system notice.
  const role = rec.string('role')?.toLowerCase() ?? null;
  if (role === 'user') {
    const { reminders, prompt } = splitReminders(text);
    pushPrompt(state, rec.string('id'), line, timestamp, reminders, prompt.trim() ? [{ type: 'text', text: prompt }] : []);
    return;
  }
  pushMessage(
    state,
    rec.string('id'),
    line,
    role === 'assistant' ? 'assistant' : 'system',
    timestamp,
    [{ type: 'text', text }],
    role === 'assistant' ? undefined : { role },
  );
}

/** A run of tool calls is one assistant turn; a call right after an assistant message joins it. */
function toolCall(state: DroidState, rec: Fields, line: number, timestamp: string | null): void {
  const part = {
    type: 'tool_call' as const,
    callId: either(rec, 'toolCallId', 'tool_call_id', 'id'),
    name: either(rec, 'toolName', 'tool_name', 'name', 'toolId') ?? 'tool',
    input: limitDepth(rec.raw.parameters ?? rec.raw.input ?? null, state.warnings, 'parameters'),
  };
  const last = state.messages.at(-1);
  if (last?.role === 'assistant' && !(last.annotations as Record<string, unknown> | undefined)?.completion) last.parts.push(part);
  else pushMessage(state, null, line, 'assistant', timestamp, [part]);
}

function toolResult(state: DroidState, rec: Fields, line: number, timestamp: string | null): void {
  const value = rec.raw.value ?? rec.raw.result ?? rec.raw.output;
  const output = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(limitDepth(value, state.warnings, 'value'));
  const flag = rec.raw.isError ?? rec.raw.is_error;
  pushMessage(state, null, line, 'tool', timestamp, [
    { type: 'tool_result', callId: either(rec, 'toolCallId', 'tool_call_id', 'id'), output, isError: typeof flag === 'boolean' ? flag : null },
  ]);
}

function streamUsage(usage: Fields | null): TokenUsage | null {
  if (!usage) return null;
  const n = (key: string) => Math.max(0, usage.number(key) ?? 0);
  const found = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'].some((k) => usage.present(k));
  return found
    ? {
        input: n('input_tokens'),
        output: n('output_tokens'),
        cacheRead: n('cache_read_input_tokens'),
        cacheWrite: n('cache_creation_input_tokens'),
        reasoning: n('reasoning_tokens'),
      }
    : null;
}

/** The run's end: its final answer (unless the last message already said it), its token count and outcome. */
function completion(state: DroidState, rec: Fields, line: number, timestamp: string | null): void {
  const final = either(rec, 'finalText', 'final');
  const usage = streamUsage(rec.object('usage'));
  const last = state.messages.at(-1);
  const repeated = last?.role === 'assistant' && last.parts.length === 1 && last.parts[0]?.type === 'text' && last.parts[0].text === final;
  if (final && !repeated) {
    const message = pushMessage(state, null, line, 'assistant', timestamp, [{ type: 'text', text: final }], { completion: true });
    message.usage = usage;
  } else if (usage && last?.role === 'assistant') last.usage = usage;
  if (usage) state.usage = usage;
  state.outcome = { status: 'completed', summary: final, commitSha: null };
  for (const key of ['durationMs', 'duration_ms', 'numTurns', 'num_turns']) if (rec.present(key)) state.extra[key] = rec.value(key);
}

function errorRecord(state: DroidState, rec: Fields, line: number, timestamp: string | null): void {
  const text = either(rec, 'message', 'text', 'error') ?? 'Droid reported an error without a message.';
  const source = rec.string('source');
  pushMessage(state, null, line, 'system', timestamp, [{ type: 'text', text }], { error: true, ...(source ? { source } : {}) });
  state.outcome = { status: 'failed', summary: text, commitSha: null };
}

export function streamRecord(state: DroidState, rec: Fields, type: string, line: number): void {
  state.sessionId ??= either(rec, 'session_id', 'sessionId');
  const timestamp = droidTime(state, rec.raw.timestamp);
  switch (type) {
    case 'system':
      return init(state, rec);
    case 'message':
      return messageRecord(state, rec, line, timestamp);
    case 'tool_call':
      return toolCall(state, rec, line, timestamp);
    case 'tool_result':
      return toolResult(state, rec, line, timestamp);
    case 'completion':
      return completion(state, rec, line, timestamp);
    case 'error':
      return errorRecord(state, rec, line, timestamp);
    default:
      bump(state.unknownTypes, type);
  }
}
