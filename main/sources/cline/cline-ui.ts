// Reads ui_messages.json (what the extension showed: {ts, type say|ask, say/ask, text, images?, reasoning?}): per-request tokens and cost from api_req_started, times, the working directory, and the conversation itself when the task's history is gone.
import type { Message, MessagePart, TokenUsage } from '../../../shared/session.ts';
import { elementFields, emptyUsage, isRecord, limitDepth, type Fields, type WarningList } from '../coerce.ts';
import { wellFormed } from '../claude-code/claude-code-blocks.ts';
import { parseJsonText } from '../decode.ts';
import { cwdIn, splitUserText, taskMessage } from './cline-text.ts';

/** Records that carry no words of the conversation: the request bookkeeping, checkpoints, UI prompts. */
const BOOKKEEPING = new Set([
  'api_req_started',
  'api_req_finished',
  'api_req_retried',
  'api_req_retry_delayed',
  'api_req_deleted',
  'deleted_api_reqs',
  'checkpoint_created',
  'checkpoint_saved',
  'shell_integration_warning',
  'shell_integration_warning_with_suggestion',
  'mcp_server_request_started',
  'load_mcp_documentation',
  'task_progress',
  'hook_status',
  'hook_output_stream',
  'conditional_rules_applied',
  'resume_task',
  'resume_completed_task',
  'new_task',
  'condense_context',
  'sliding_window_truncation',
]);

/** Say/ask records whose text is the assistant speaking. */
const ASSISTANT_TEXT = new Set(['text', 'completion_result', 'followup', 'plan_mode_respond', 'act_mode_respond', 'info']);
const ERRORS = new Set(['error', 'diff_error', 'rooignore_error', 'clineignore_error', 'api_req_failed', 'mistake_limit_reached']);

/** One api_req_started record with tokens or a cost: a call to the model, at its own time. */
export interface UiRequest {
  /** Its place in ui_messages.json's list. */
  index: number;
  at: string | null;
  usage: TokenUsage;
  /** USD the extension recorded for it; null when it recorded none. */
  cost: number | null;
  model: string | null;
}

export interface UiFacts {
  /** api_req_started records read. */
  requests: number;
  /** Those with tokens or a cost, in order. */
  calls: UiRequest[];
  /** The calls' tokens summed (their costs: cline-requests.ts). */
  usage: TokenUsage | null;
  /** Model and provider named by a request, when one was. */
  model: string | null;
  provider: string | null;
  firstAt: string | null;
  lastAt: string | null;
  /** The task ended with the model's completion_result. */
  completed: boolean;
  completion: string | null;
  cwd: string | null;
  /** The first prompt (the first `say: text`), for a task whose history is gone or starts without one. */
  firstPrompt: string | null;
}

export interface UiConversion {
  facts: UiFacts;
  /** The conversation as the UI showed it (used when no api_conversation_history.json lies beside). */
  messages: Message[];
  unknownKinds: Map<string, number>;
  empty: number;
}

function isoOf(ts: number | null): string | null {
  if (ts === null || !Number.isFinite(ts) || ts <= 0) return null;
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function parsed(text: string | null): Record<string, unknown> | null {
  if (!text || !text.trimStart().startsWith('{')) return null;
  try {
    const value = parseJsonText(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function images(f: Fields): MessagePart[] {
  const list = f.present('images') ? (f.array('images') ?? []) : [];
  return list.flatMap((raw): MessagePart[] => {
    if (typeof raw !== 'string') return [];
    const data = /^data:([^;,]+);base64,(.*)$/s.exec(raw);
    return [data ? { type: 'image', mediaType: data[1]!, data: data[2]!, url: null } : { type: 'image', mediaType: null, data: null, url: raw }];
  });
}

function questionText(q: Record<string, unknown>): string {
  const options = Array.isArray(q.options) ? q.options.filter((o): o is string => typeof o === 'string') : [];
  return options.length ? `${String(q.question)}\n${options.map((o) => `- ${o}`).join('\n')}` : String(q.question);
}

/** One api_req_started record (at `index`, time `at`): its tokens go to the task's totals, and it is one of its calls. */
function addRequest(facts: UiFacts, request: Record<string, unknown>, index: number, at: string | null): void {
  facts.requests++;
  const u = emptyUsage();
  u.input = count(request.tokensIn);
  u.output = count(request.tokensOut);
  u.cacheWrite = count(request.cacheWrites);
  u.cacheRead = count(request.cacheReads);
  if (u.input + u.output + u.cacheRead + u.cacheWrite > 0) {
    const total = (facts.usage ??= emptyUsage());
    total.input += u.input;
    total.output += u.output;
    total.cacheRead += u.cacheRead;
    total.cacheWrite += u.cacheWrite;
  }
  const cost = typeof request.cost === 'number' && Number.isFinite(request.cost) && request.cost >= 0 ? request.cost : null;
  const model = str(request.model) ?? str(request.modelId);
  if (cost !== null || u.input + u.output + u.cacheRead + u.cacheWrite > 0) facts.calls.push({ index, at, usage: u, cost, model });
  facts.model = model ?? facts.model;
  facts.provider = str(request.apiProvider) ?? str(request.provider) ?? str(request.inferenceProvider) ?? facts.provider;
  const asked = str(request.request);
  if (asked && facts.cwd === null) facts.cwd = cwdIn(asked);
}

class UiMessages {
  readonly messages: Message[] = [];
  #pendingCall: string | null = null;
  #calls = 0;

  push(role: Message['role'], parts: MessagePart[], at: string | null, index: number, annotations?: unknown): void {
    this.messages.push(taskMessage(`ui-${index}`, role, parts, at, index, annotations as Message['annotations']));
  }

  call(name: string, input: unknown, at: string | null, index: number): void {
    const callId = `ui-call-${++this.#calls}`;
    this.#pendingCall = callId;
    this.push('assistant', [{ type: 'tool_call', callId, name, input }], at, index);
  }

  /** A command's or MCP server's output: the result of the call just before it. */
  result(output: string, at: string | null, index: number): void {
    const last = this.messages.at(-1);
    const part: MessagePart = { type: 'tool_result', callId: this.#pendingCall, output, isError: null };
    if (last?.role === 'tool' && last.parts.at(-1)?.type === 'tool_result' && this.#pendingCall !== null) {
      const prev = last.parts.at(-1)!;
      // Streamed output comes in chunks: one result.
      if (prev.type === 'tool_result' && prev.callId === this.#pendingCall) {
        prev.output += `\n${output}`;
        return;
      }
    }
    this.push('tool', [part], at, index);
  }
}

/** Converts ui_messages.json; the facts are always taken, the messages used when the history is missing. */
export function convertUi(list: unknown[], warnings: WarningList): UiConversion {
  const facts: UiFacts = {
    requests: 0,
    calls: [],
    usage: null,
    model: null,
    provider: null,
    firstAt: null,
    lastAt: null,
    completed: false,
    completion: null,
    cwd: null,
    firstPrompt: null,
  };
  const out = new UiMessages();
  const unknownKinds = new Map<string, number>();
  let empty = 0;
  list.forEach((raw, i) => {
    const f = elementFields(raw, 'ui_messages.json', warnings);
    if (!f) return;
    const ts = f.present('ts') ? f.number('ts') : null;
    const at = isoOf(ts);
    if (at !== null) {
      if (facts.firstAt === null || at < facts.firstAt) facts.firstAt = at;
      if (facts.lastAt === null || at > facts.lastAt) facts.lastAt = at;
    }
    const type = f.string('type');
    const kind = type === 'say' ? f.string('say') : type === 'ask' ? f.string('ask') : null;
    const text = f.present('text') ? f.string('text') : null;
    const shown = text !== null ? wellFormed(text, warnings) : '';
    if (kind === null) {
      const label = type === 'say' || type === 'ask' ? `${type} without a kind` : (type ?? 'without a type');
      unknownKinds.set(label, (unknownKinds.get(label) ?? 0) + 1);
      return;
    }
    if (kind === 'api_req_started') {
      const request = parsed(text);
      if (request) addRequest(facts, request, i, at);
      else if (text && facts.cwd === null) facts.cwd = cwdIn(text);
      return;
    }
    if (kind === 'completion_result') {
      facts.completed = true;
      if (shown.trim()) facts.completion = shown;
    }
    if (BOOKKEEPING.has(kind)) return;
    const pics = images(f);
    const nothing = shown.trim() === '' && pics.length === 0;
    if (type === 'say' && kind === 'text' && facts.firstPrompt === null && out.messages.length === 0) {
      // The first `say: text` is the user's task.
      if (nothing) {
        empty++;
        return;
      }
      facts.firstPrompt = shown;
      const user = splitUserText(shown);
      out.push('user', [...(user.text.trim() ? [{ type: 'text' as const, text: user.text }] : []), ...pics], at, i);
      return;
    }
    if (kind === 'completion_result' && type === 'ask' && nothing) return;
    if (kind === 'reasoning') {
      const thought = (f.present('reasoning') ? f.string('reasoning') : null) ?? shown;
      if (thought.trim()) out.push('assistant', [{ type: 'thinking', text: wellFormed(thought, warnings), redacted: false }], at, i);
      else empty++;
      return;
    }
    if (kind === 'tool' || kind === 'use_mcp_server' || kind === 'browser_action_launch') {
      const data = parsed(text);
      const name = str(data?.tool) ?? str(data?.toolName) ?? str(data?.type) ?? kind;
      out.call(name, data ? limitDepth(data, warnings, `ui_messages.json[${i}].text`) : { text: shown }, at, i);
      return;
    }
    if (kind === 'command') {
      if (nothing) empty++;
      else out.call('execute_command', { command: shown }, at, i);
      return;
    }
    if (kind === 'command_output' || kind === 'mcp_server_response' || kind === 'browser_action_result') {
      if (shown.trim()) out.result(shown, at, i);
      return;
    }
    if (nothing) {
      empty++;
      return;
    }
    // A follow-up question is JSON ({question, options}) in newer versions: shown as the question and its options.
    const question = kind === 'followup' ? parsed(text) : null;
    const said = typeof question?.question === 'string' ? questionText(question) : shown;
    const parts: MessagePart[] = [...(said.trim() ? [{ type: 'text' as const, text: said }] : []), ...pics];
    if (kind === 'user_feedback' || kind === 'user_feedback_diff') out.push('user', parts, at, i);
    else if (ERRORS.has(kind)) out.push('system', parts, at, i, { kind });
    else if (ASSISTANT_TEXT.has(kind)) out.push('assistant', parts, at, i);
    else {
      // Shown, marked with its kind, and warned about: a record kind this reader does not know yet.
      unknownKinds.set(`${type}: ${kind}`, (unknownKinds.get(`${type}: ${kind}`) ?? 0) + 1);
      out.push('assistant', parts, at, i, { kind });
    }
  });
  return { facts, messages: out.messages, unknownKinds, empty };
}
