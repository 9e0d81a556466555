// Turns api_conversation_history.json (Anthropic-style {role, content, ts?} messages, as the model saw them) into canonical messages: tool results as tool messages, the <task> unwrapped, environment details kept as annotations.
import type { Message, MessagePart } from '../../../shared/session.ts';
import { elementFields, isRecord, type WarningList } from '../coerce.ts';
import { contentToParts, type BlockNotes } from '../claude-code/claude-code-blocks.ts';
import { showsNothing } from '../missing-content.ts';
import { cwdIn, splitUserText, taskMessage } from './cline-text.ts';

export interface HistoryConversion {
  messages: Message[];
  /** The working directory the first environment details name. */
  cwd: string | null;
  /** Records with no content (or content under a key the format does not use): left out, counted for the warning. */
  empty: number;
  unknownRoles: Map<string, number>;
  /** Environment details of a turn with nothing else to carry them (kept on the session). */
  looseEnvironment: string[];
}

function isoOf(ts: number | null): string | null {
  if (ts === null || !Number.isFinite(ts) || ts <= 0) return null;
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function convertHistory(list: unknown[], warnings: WarningList): HistoryConversion {
  const out: HistoryConversion = { messages: [], cwd: null, empty: 0, unknownRoles: new Map(), looseEnvironment: [] };
  const push = (role: Message['role'], parts: MessagePart[], i: number, at: string | null, suffix: string, annotations: Record<string, unknown>) => {
    const message = taskMessage(`${i}${suffix}`, role, parts, at, i, Object.keys(annotations).length ? (annotations as Message['annotations']) : undefined);
    out.messages.push(message);
    return message;
  };
  list.forEach((raw, i) => {
    const f = elementFields(raw, 'api_conversation_history.json', warnings);
    if (!f) return;
    const role = f.string('role');
    const at = isoOf(f.present('ts') ? f.number('ts') : null);
    if (role !== 'user' && role !== 'assistant') {
      const label = role ?? 'without a role';
      out.unknownRoles.set(label, (out.unknownRoles.get(label) ?? 0) + 1);
      return;
    }
    const notes: BlockNotes = {};
    const parts = contentToParts(isRecord(raw) ? raw.content : undefined, `[${i}].content`, warnings, notes);
    const annotations: Record<string, unknown> = { ...notes };
    if (role === 'assistant') {
      if (showsNothing(parts)) out.empty++;
      else push('assistant', parts, i, at, '', annotations);
      return;
    }
    // A user turn: the results of the previous turn's tools, then what the user wrote, with environment details aside.
    const results: MessagePart[] = [];
    const said: MessagePart[] = [];
    const environment: string[] = [];
    const wrappers: string[] = [];
    for (const part of parts) {
      if (part.type === 'tool_result' || (part.type === 'image' && results.length && !said.length)) {
        results.push(part);
        continue;
      }
      if (part.type !== 'text') {
        said.push(part);
        continue;
      }
      const user = splitUserText(part.text);
      environment.push(...user.environment);
      if (user.wrapper) wrappers.push(user.wrapper);
      if (user.text.trim() !== '') said.push({ type: 'text', text: user.text });
    }
    for (const block of environment) out.cwd ??= cwdIn(block);
    if (results.length === 0 && showsNothing(said) && environment.length === 0) {
      out.empty++;
      return;
    }
    if (wrappers.length) annotations.wrappedIn = [...new Set(wrappers)];
    let carrier: Message | null = null;
    if (results.length) carrier = push('tool', results, i, at, said.length ? '#results' : '', said.length ? {} : annotations);
    if (!showsNothing(said)) carrier = push('user', said, i, at, '', annotations);
    if (environment.length) {
      const holder = carrier ?? out.messages.at(-1);
      if (holder) holder.annotations = { ...(isRecord(holder.annotations) ? holder.annotations : {}), environmentDetails: environment };
      else out.looseEnvironment.push(...environment);
    }
  });
  showCompletions(out.messages);
  return out;
}

/**
 * attempt_completion's `result` is the answer Cline-family extensions show as "Task Completed": it becomes the assistant's
 * text. The call itself stays only when a later turn answers it (the user's feedback is its result); an unanswered one
 * would read as a tool that never returned.
 */
function showCompletions(messages: Message[]): void {
  const answered = new Set<string>();
  for (const m of messages) for (const p of m.parts) if (p.type === 'tool_result' && p.callId !== null) answered.add(p.callId);
  for (const m of messages) {
    if (m.role !== 'assistant' || !m.parts.some(isCompletion)) continue;
    m.parts = m.parts.flatMap((p): MessagePart[] => {
      if (!isCompletion(p)) return [p];
      const text: MessagePart = { type: 'text', text: p.input.result };
      return p.callId !== null && answered.has(p.callId) ? [text, p] : [text];
    });
  }
}

type CompletionCall = Extract<MessagePart, { type: 'tool_call' }> & { input: { result: string } };

function isCompletion(p: MessagePart): p is CompletionCall {
  return p.type === 'tool_call' && p.name === 'attempt_completion' && isRecord(p.input) && typeof p.input.result === 'string' && p.input.result.trim() !== '';
}
