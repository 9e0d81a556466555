// `codex exec --json` output (thread.started, turn.*, item.* events, saved wherever it was redirected): recognised by content and read as a Codex session.
import { heldKeys, warnMissingContent } from '../missing-content.ts';
import { basename, extname } from 'node:path';
import type { Message, MessagePart, Session, Todo, TokenUsage } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { addUsage, emptyUsage, isRecord, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import type { Head } from '../head.ts';
import type { JsonLine } from '../jsonl.ts';

/** The event types `codex exec --json` writes (Codex's exec event stream). */
const EXEC_EVENTS = new Set(['thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed', 'error']);

/** The head is Codex's exec event stream: a thread.started, or turn/item events, and nothing that is another format's. */
export function recognizesCodexExec(head: Head): boolean {
  const records = head.records();
  if (records.length === 0) return false;
  if (records.some((r) => r.type === 'thread.started' && typeof r.thread_id === 'string')) return true;
  return (
    records.every((r) => typeof r.type === 'string' && EXEC_EVENTS.has(r.type)) &&
    records.some((r) => typeof r.type === 'string' && r.type.startsWith('item.') && isRecord(r.item))
  );
}

/** True when a file's first record is an exec event (not a rollout line). */
export function isExecStream(records: readonly JsonLine[]): boolean {
  const first = records.find((r) => isRecord(r.value))?.value;
  return isRecord(first) && typeof first.type === 'string' && EXEC_EVENTS.has(first.type) && first.type !== 'error';
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/**
 * An error's own words: Codex often wraps the provider's answer as JSON inside `message`
 * ({"type":"error","error":{"message":"…"}}); the inner message is what the user needs, the wrapper is kept after it.
 */
export function errorText(value: unknown): string {
  const outer = isRecord(value) ? (str(value.message) ?? JSON.stringify(value)) : String(value ?? 'unknown error');
  try {
    const inner: unknown = JSON.parse(outer);
    const nested = isRecord(inner) ? (isRecord(inner.error) ? str(inner.error.message) : str(inner.message)) : null;
    if (nested) return `${nested}\n(${outer})`;
  } catch {
    // plain text
  }
  return outer;
}

/**
 * turn.completed usage, in OpenAI's terms as the rollout's counters are (codex-usage.ts): input includes the cached
 * part and output the reasoning, which Session Vault counts apart (so neither is billed twice).
 */
function turnUsage(u: unknown): TokenUsage | null {
  if (!isRecord(u)) return null;
  const cached = num(u.cached_input_tokens);
  const reasoning = num(u.reasoning_output_tokens);
  return {
    ...emptyUsage(),
    input: Math.max(0, num(u.input_tokens) - cached),
    cacheRead: cached,
    output: Math.max(0, num(u.output_tokens) - reasoning),
    reasoning,
  };
}

interface ExecState {
  messages: Message[];
  todos: Todo[];
  warnings: WarningList;
  threadId: string | null;
  turns: number;
  failed: string | null;
  lastAnswer: Message | null;
  usage: TokenUsage | null;
}

function itemParts(item: Record<string, unknown>, warnings: WarningList, state: ExecState): { role: Message['role']; parts: MessagePart[] } | null {
  const id = str(item.id);
  switch (item.type) {
    case 'agent_message':
    case 'reasoning': {
      const text = str(item.text);
      if (!text) {
        warnMissingContent(warnings, `A Codex exec ${item.type} item`, {
          found: item.text === undefined ? heldKeys(item, ['id', 'type']) : 'its text is empty',
        });
        return null;
      }
      return { role: 'assistant', parts: [item.type === 'reasoning' ? { type: 'thinking', text, redacted: false } : { type: 'text', text }] };
    }
    case 'command_execution': {
      const exit = typeof item.exit_code === 'number' ? item.exit_code : null;
      return {
        role: 'tool',
        parts: [
          { type: 'tool_call', callId: id, name: 'shell', input: { command: item.command ?? null } },
          { type: 'tool_result', callId: id, output: str(item.aggregated_output) ?? '', isError: exit === null ? null : exit !== 0 },
        ],
      };
    }
    case 'file_change': {
      const changes = Array.isArray(item.changes) ? item.changes : [];
      const lines = changes.filter(isRecord).map((c) => `${str(c.kind) ?? 'change'} ${str(c.path) ?? '?'}`);
      return {
        role: 'tool',
        parts: [
          { type: 'tool_call', callId: id, name: 'apply_patch', input: { changes } },
          { type: 'tool_result', callId: id, output: lines.join('\n'), isError: item.status === 'failed' },
        ],
      };
    }
    case 'mcp_tool_call': {
      const name = [str(item.server), str(item.tool)].filter(Boolean).join('.') || 'mcp';
      const failed = item.status === 'failed' || item.error != null;
      const output =
        item.error != null ? errorText(item.error) : item.result == null ? '' : typeof item.result === 'string' ? item.result : JSON.stringify(item.result);
      return {
        role: 'tool',
        parts: [
          { type: 'tool_call', callId: id, name, input: item.arguments ?? null },
          { type: 'tool_result', callId: id, output, isError: failed },
        ],
      };
    }
    case 'web_search':
      return { role: 'tool', parts: [{ type: 'tool_call', callId: id, name: 'web_search', input: { query: item.query ?? null } }] };
    case 'todo_list': {
      const items = Array.isArray(item.items) ? item.items.filter(isRecord) : [];
      state.todos = items.map((t) => ({ content: str(t.text) ?? '', status: t.completed === true ? 'completed' : 'pending', activeForm: null }));
      return null;
    }
    case 'error':
      return { role: 'system', parts: [{ type: 'text', text: `Error: ${errorText(item)}` }] };
    default:
      warnings.add('unknown_item', `Exec items of type ${JSON.stringify(item.type)} are not known to this reader; they were skipped.`);
      return null;
  }
}

/** Builds a session from the events of one `codex exec --json` run. */
export function parseCodexExec(records: readonly JsonLine[], ctx: DocumentContext): Session {
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const state: ExecState = { messages: [], todos: [], warnings, threadId: null, turns: 0, failed: null, lastAnswer: null, usage: null };
  const origin = (line: number) => ({ fileIndex: 0, line, pointer: null });
  const push = (role: Message['role'], parts: MessagePart[], line: number): Message => {
    const message: Message = { id: `line-${line}`, role, timestamp: null, model: null, usage: null, cost: null, parts, agentId: null, origin: origin(line) };
    state.messages.push(message);
    return message;
  };
  for (const { value, line } of records) {
    if (!isRecord(value)) continue;
    switch (value.type) {
      case 'thread.started':
        state.threadId = str(value.thread_id) ?? state.threadId;
        break;
      case 'turn.started':
        state.turns++;
        break;
      case 'item.started':
      case 'item.updated':
        break; // the completed item says it all
      case 'item.completed': {
        if (!isRecord(value.item)) break;
        const made = itemParts(value.item, warnings, state);
        if (made) {
          const message = push(made.role, made.parts, line);
          if (value.item.type === 'agent_message') state.lastAnswer = message;
        }
        break;
      }
      case 'turn.completed': {
        const usage = turnUsage(value.usage);
        if (!usage) break;
        // The turn's tokens sit on its last answer (or a marker when it gave none), so totals and per-turn charts agree.
        const holder = state.lastAnswer ?? push('assistant', [], line);
        holder.usage = holder.usage ? (addUsage(holder.usage, usage), holder.usage) : usage;
        state.usage ??= emptyUsage();
        addUsage(state.usage, usage);
        state.lastAnswer = null;
        break;
      }
      case 'turn.failed':
        state.failed = errorText(value.error);
        push('system', [{ type: 'text', text: `Turn failed: ${state.failed}` }], line);
        break;
      case 'error':
        push('system', [{ type: 'text', text: `Error: ${errorText(value)}` }], line);
        break;
      default:
        warnings.add('unknown_event', `Exec events of type ${JSON.stringify(value.type)} are not known to this reader; they were skipped.`);
    }
  }
  const total = new CostTotal();
  for (const m of state.messages) {
    if (!m.usage) continue;
    m.cost = builtinPricing.estimate(m.model, m.usage);
    total.add(m.cost, m.usage);
  }
  const id = state.threadId ?? basename(ctx.path, extname(ctx.path));
  const firstAnswer = state.messages.find((m) => m.role === 'assistant' && m.parts.some((p) => p.type === 'text'));
  const answerText = firstAnswer?.parts.find((p): p is Extract<MessagePart, { type: 'text' }> => p.type === 'text')?.text ?? null;
  return {
    key: `codex:${id}`,
    id,
    format: 'codex',
    formatVersion: 'exec-json',
    // The stream carries no prompt: the first answer names the run.
    title: titleFromText(answerText) ?? `Codex exec run ${id.slice(0, 8)}`,
    project: { path: null, name: null, branch: null, headCommit: null },
    createdAt: null,
    updatedAt: new Date(ctx.mtimeMs).toISOString(),
    closedAt: null,
    status: 'closed',
    outcome: state.failed ? { status: 'failed', summary: state.failed, commitSha: null } : null,
    model: null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages: state.messages,
    operations: [],
    todos: state.todos,
    summary: null,
    artifacts: [],
    usage: state.usage,
    cost: total.total(),
    parentKey: null,
    childKeys: [],
    sourceFiles: [primarySourceFile(ctx)],
    warnings: warnings.list(),
    extra: { turns: state.turns },
  };
}
