// A session's tool calls per tool (calls and failures) and its number of turns, worked out in the scan worker for the dashboard.
import type { Message, Session } from '../../shared/session.ts';

/** Calls of one tool in one session file, and how many of them failed. */
export interface ToolUse {
  name: string;
  calls: number;
  failures: number;
}

/** Operation statuses that mean the call failed (readers write the tool's own words). */
const FAILED = new Set(['failed', 'failure', 'error', 'errored', 'aborted', 'cancelled', 'canceled', 'rejected', 'timeout', 'timed_out']);
/** Operations that are a tool call, in formats that record tools as operations rather than message parts. */
const TOOL_OPERATIONS = new Set(['tool', 'tool_call', 'tool_use', 'function_call', 'exec', 'patch', 'mcp', 'web_search']);

function bump(tools: Map<string, ToolUse>, name: string, failed: boolean): void {
  let t = tools.get(name);
  if (!t) {
    t = { name, calls: 0, failures: 0 };
    tools.set(name, t);
  }
  t.calls++;
  if (failed) t.failures++;
}

/**
 * Each tool call counts once: from the messages' tool calls, a failure when its result says it is an error; a format
 * with no tool calls in its messages counts its tool operations instead (a failure when their status says so).
 */
export function toolUses(session: Session): ToolUse[] {
  const tools = new Map<string, ToolUse>();
  const failedIds = new Set<string>();
  let calls = 0;
  for (const m of session.messages) for (const p of m.parts) if (p.type === 'tool_result' && p.isError === true && p.callId) failedIds.add(p.callId);
  for (const m of session.messages) {
    for (const p of m.parts) {
      if (p.type !== 'tool_call') continue;
      calls++;
      bump(tools, p.name || '(unnamed)', p.callId !== null && failedIds.has(p.callId));
    }
  }
  if (calls === 0) {
    for (const op of session.operations) {
      if (!TOOL_OPERATIONS.has(op.type.toLowerCase())) continue;
      bump(tools, op.name || op.type, op.status !== null && FAILED.has(op.status.toLowerCase()));
    }
  }
  return [...tools.values()];
}

const isPrompt = (m: Message) =>
  m.role === 'user' &&
  m.parts.some((p) => p.type === 'text' && p.text.trim() !== '') &&
  !(typeof m.annotations === 'object' && m.annotations !== null && (m.annotations as Record<string, unknown>).injected === true);

/** Turns: the prompts a person typed (user messages with text, not tool results or text the tool injected). */
export function turnCount(session: Session): number {
  return session.messages.filter(isPrompt).length;
}
