// Turns Antigravity CLI transcript steps ({step_index, source, type, status, created_at, content?, thinking?, tool_calls?}) into canonical messages.
import type { Message, MessagePart, MessageRole } from '../../../shared/session.ts';
import { elementFields, type Fields, limitDepth, type WarningList } from '../coerce.ts';
import { wellFormed } from '../claude-code/claude-code-blocks.ts';
import type { JsonLine } from '../jsonl.ts';

/** Step types that report what a tool the planner called did (seen in agy 1.0 transcripts). */
const RESULT_STEPS = new Set(['RUN_COMMAND', 'VIEW_FILE', 'LIST_DIRECTORY', 'CODE_ACTION', 'SEARCH_WEB', 'GREP_SEARCH', 'GENERIC']);

export interface AntigravityConversation {
  messages: Message[];
  /** The model the user last selected (`<USER_SETTINGS_CHANGE>` … `Model Selection` from X to Y). */
  model: string | null;
  firstAt: string | null;
  lastAt: string | null;
  /** The last step's status (DONE, RUNNING ...) and type, for the "still running" test. */
  lastStatus: string | null;
  unknownTypes: Map<string, number>;
  /** Step types not known to carry a tool's result, shown as one anyway. */
  unknownResults: Map<string, number>;
  /** Steps that carried nothing to show. */
  empty: number;
  /** CONVERSATION_HISTORY markers (the CLI replaying earlier turns into the context). */
  historyMarkers: number;
}

function tagged(text: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return m ? (m[1] ?? '').trim() : null;
}

/**
 * The user's words from a USER_INPUT step, the settings changes the CLI wrapped around them, and the names of the
 * wrappers it used (`USER_REQUEST`, `USER_SETTINGS_CHANGE`, ...), each once in the order they come.
 */
export function unwrapUserInput(content: string): { request: string; settings: string | null; metadata: string | null; wrappers: string[] } {
  const settings = tagged(content, 'USER_SETTINGS_CHANGE');
  const metadata = tagged(content, 'ADDITIONAL_METADATA');
  const request = tagged(content, 'USER_REQUEST') ?? content.replace(/<(USER_SETTINGS_CHANGE|ADDITIONAL_METADATA)>[\s\S]*?<\/\1>/g, '').trim();
  const wrappers = [...new Set(Array.from(content.matchAll(/<([A-Z][A-Z_]*)>[\s\S]*?<\/\1>/g), (m) => m[1] as string))];
  return { request, settings, metadata, wrappers };
}

/** `... Model Selection` from <old> to <new>.` names the model the conversation runs on from then on. */
export function modelFromSettings(settings: string): string | null {
  const m = /Model Selection`?\s+from\s+.+?\s+to\s+(.+?)\.?\s*$/m.exec(settings);
  return m?.[1]?.trim() || null;
}

/** Tool arguments arrive with every value JSON-encoded (`"\"/tmp/repo\""`); each is decoded where it parses. */
function decodeArgs(args: Fields | null): unknown {
  if (!args) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args.raw)) {
    if (typeof value !== 'string') {
      out[key] = limitDepth(value, args.warnings, args.name(key));
      continue;
    }
    try {
      out[key] = limitDepth(JSON.parse(value), args.warnings, args.name(key));
    } catch {
      out[key] = value;
    }
  }
  return out;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function isErrorStatus(status: string | null): boolean | null {
  if (status === null) return null;
  if (/^(ERROR|FAILED|CANCELED|CANCELLED)$/i.test(status)) return true;
  return status === 'DONE' ? false : null;
}

/**
 * Reads the steps in order. Tool calls carry no id, so each is given one (`step-<line>-<n>`) and the result steps
 * that follow are paired with the calls in the order the planner made them.
 */
/** `fileIndex`: where in the session's source files the records come from (the unclipped transcript_full.jsonl is the second). */
export function readSteps(records: readonly JsonLine[], warnings: WarningList, fileIndex = 0): AntigravityConversation {
  const out: AntigravityConversation = {
    messages: [],
    model: null,
    firstAt: null,
    lastAt: null,
    lastStatus: null,
    unknownTypes: new Map(),
    unknownResults: new Map(),
    empty: 0,
    historyMarkers: 0,
  };
  const pending: string[] = [];
  const push = (line: number, role: MessageRole, at: string | null, parts: MessagePart[], annotations?: Record<string, unknown>) => {
    if (parts.length === 0) {
      out.empty++;
      return;
    }
    const message: Message = {
      id: `step-${line}`,
      role,
      timestamp: at,
      model: role === 'assistant' ? out.model : null,
      usage: null,
      cost: null,
      parts,
      agentId: null,
      origin: { fileIndex, line, pointer: null },
    };
    if (annotations && Object.keys(annotations).length) message.annotations = annotations;
    out.messages.push(message);
  };
  for (const { value, line } of records) {
    const f = elementFields(value, 'transcript', warnings);
    if (!f) continue;
    const type = f.string('type');
    const source = f.present('source') ? f.string('source') : null;
    const status = f.present('status') ? f.string('status') : null;
    const at = f.present('created_at') ? f.timestamp('created_at') : null;
    if (at) {
      out.firstAt ??= at;
      out.lastAt = at;
    }
    out.lastStatus = status;
    const raw = f.present('content') ? f.string('content') : null;
    const content = raw === null ? null : wellFormed(raw, warnings);
    const notes: Record<string, unknown> = {};
    if (Array.isArray(f.raw.truncated_fields) && f.raw.truncated_fields.includes('content')) notes.note = 'content clipped by Antigravity';
    if (type) notes.stepType = type;
    // Who the step came from (USER_EXPLICIT, MODEL, SYSTEM): the raw record says it, and so does the message.
    if (source) notes.source = source;

    if (type === 'USER_INPUT') {
      const { request, settings, metadata, wrappers } = unwrapUserInput(content ?? '');
      // The wrappers' names, so the message says (and search finds) how the CLI framed the words it shows.
      if (wrappers.length) notes.wrappers = wrappers;
      if (settings) {
        out.model = modelFromSettings(settings) ?? out.model;
        notes.note = [notes.note, settings].filter(Boolean).join(' · ');
      }
      if (metadata) notes.metadata = metadata;
      push(line, 'user', at, request ? [{ type: 'text', text: request }] : [], notes);
    } else if (type === 'PLANNER_RESPONSE') {
      const parts: MessagePart[] = [];
      const thinking = f.present('thinking') ? f.string('thinking') : null;
      if (thinking) parts.push({ type: 'thinking', text: wellFormed(thinking, warnings), redacted: false });
      if (content) parts.push({ type: 'text', text: content });
      const calls = f.present('tool_calls') ? (f.array('tool_calls') ?? []) : [];
      calls.forEach((rawCall, n) => {
        const call = elementFields(rawCall, 'tool_calls', warnings);
        if (!call) return;
        const callId = `step-${line}-${n}`;
        pending.push(callId);
        parts.push({ type: 'tool_call', callId, name: call.string('name') ?? 'tool', input: decodeArgs(call.present('args') ? call.object('args') : null) });
      });
      push(line, 'assistant', at, parts, notes);
    } else if (type === 'CHECKPOINT') {
      push(line, 'system', at, [{ type: 'compaction', summary: content, trigger: null, tokensBefore: null }], notes);
    } else if (type === 'CONVERSATION_HISTORY' && !content) {
      out.historyMarkers++;
    } else if (source === 'SYSTEM' || type === 'SYSTEM_MESSAGE' || type === 'CONVERSATION_HISTORY') {
      push(line, 'system', at, content ? [{ type: 'text', text: content }] : [], notes);
    } else if (type !== null && (source === 'MODEL' || RESULT_STEPS.has(type))) {
      if (!RESULT_STEPS.has(type)) count(out.unknownResults, type);
      push(line, 'tool', at, [{ type: 'tool_result', callId: pending.shift() ?? null, output: content ?? '', isError: isErrorStatus(status) }], notes);
    } else {
      count(out.unknownTypes, type ?? 'without a type');
      if (content) push(line, 'system', at, [{ type: 'text', text: content }], notes);
    }
  }
  return out;
}
