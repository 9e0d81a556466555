// Turns a message's OpenCode parts (text, reasoning, tool, file, step-start/step-finish, patch, compaction, ...) into canonical message parts, step usage and sub-session links.
import type { MessagePart, TokenUsage } from '../../../shared/session.ts';
import { addUsage, emptyUsage, isRecord, limitDepth, MAX_DEPTH, type WarningList } from '../coerce.ts';
import type { OcPart } from './opencode-rows.ts';

/** Parts that record how a turn ran, not what was said: known, and never content. */
const BOOKKEEPING = new Set(['step-start', 'step-finish', 'snapshot', 'patch', 'agent', 'retry']);

export interface PartsOfMessage {
  parts: MessagePart[];
  /**
   * Tokens the message's step-finish parts recorded, summed: each step is one model call with its own usage. OpenCode
   * overwrites the message's `tokens` with each step's (only its cost is added up), so for a message of several steps
   * these, not the message's, are what it spent. Null when no step recorded any.
   */
  stepUsage: TokenUsage | null;
  /** The cost its step-finish parts recorded, summed (the message's own `cost` is that sum already); used when the message records none. */
  stepCost: number | null;
  /** Sessions a task tool started (state.metadata.sessionId), with the tool part's call id and agent. */
  subSessions: Array<{ id: string; callId: string | null; agent: string | null; description: string | null; status: string | null }>;
  /** Files a patch part says this step changed. */
  patchedFiles: string[];
  /** A tool is still pending or running. */
  openTool: boolean;
}

/** OpenCode's token record `{input, output, reasoning, cache {read, write}}`, or null when absent or empty. */
export function tokensOf(value: unknown): TokenUsage | null {
  if (!isRecord(value)) return null;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  const cache = isRecord(value.cache) ? value.cache : {};
  const usage = { input: n(value.input), output: n(value.output), cacheRead: n(cache.read), cacheWrite: n(cache.write), reasoning: n(value.reasoning) };
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite + usage.reasoning > 0 ? usage : null;
}

function stringOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A tool's output as text: strings as they are, anything else as JSON. */
function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** Whether a JSON value nests no deeper than limitDepth keeps (`depth` levels in already). */
function withinDepth(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!withinDepth(item, depth + 1)) return false;
    return true;
  }
  for (const key in value) if (Object.hasOwn(value, key) && !withinDepth((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/**
 * A tool's input as limitDepth gives it: the parsed JSON itself when it is shallow enough (as every real input is),
 * since limitDepth's copy of it cost a tenth of building a store's sessions and holds the same keys and values.
 */
function toolInput(value: unknown, warnings: WarningList, field: string): unknown {
  return withinDepth(value) ? value : limitDepth(value, warnings, field);
}

function toolParts(data: Record<string, unknown>, out: PartsOfMessage, warnings: WarningList): void {
  const name = stringOf(data.tool) ?? 'tool';
  const callId = stringOf(data.callID) ?? stringOf(data.id);
  const state = isRecord(data.state) ? data.state : {};
  const status = stringOf(state.status);
  const metadata = isRecord(state.metadata) ? state.metadata : {};
  // A command that ran to its end with a non-zero exit (the bash tool's metadata.exit) failed, though the part is
  // "completed"; a call the model made to a tool that does not exist comes back as the tool "invalid".
  const exitFailed = typeof metadata.exit === 'number' && metadata.exit !== 0;
  out.parts.push({ type: 'tool_call', callId, name, input: toolInput(state.input ?? {}, warnings, `${name}.input`) });
  if (status === 'completed') out.parts.push({ type: 'tool_result', callId, output: outputText(state.output), isError: exitFailed || name === 'invalid' });
  else if (status === 'error') out.parts.push({ type: 'tool_result', callId, output: outputText(state.error ?? state.output), isError: true });
  else if (status === 'pending' || status === 'running') out.openTool = true;
  else {
    // A status the current app does not write (older trees wrote "success"): what the part holds is still shown.
    const failed = status === 'failed' || (state.error !== undefined && state.error !== null);
    const output = failed ? (state.error ?? state.output) : state.output;
    const shown = output !== undefined && output !== null;
    if (shown) out.parts.push({ type: 'tool_result', callId, output: outputText(output), isError: failed });
    warnings.add(
      'unknown_tool_status',
      `A ${name} tool part has the status ${JSON.stringify(status)}, which OpenCode does not write; ${shown ? 'the output it holds is shown' : 'it holds no output to show'}.`,
    );
  }
  const child = stringOf(metadata.sessionId) ?? stringOf(metadata.sessionID);
  if (child) {
    const input = isRecord(state.input) ? state.input : {};
    out.subSessions.push({
      id: child,
      callId,
      agent: stringOf(input.subagent_type) ?? stringOf(input.agent),
      description: stringOf(input.description),
      status,
    });
  }
}

function fileParts(data: Record<string, unknown>, out: PartsOfMessage): void {
  const mime = stringOf(data.mime);
  const url = stringOf(data.url);
  const name = stringOf(data.filename) ?? url ?? 'file';
  if (mime?.startsWith('image/')) {
    const inline = url?.startsWith('data:') ? (/^data:[^;,]*;base64,(.*)$/s.exec(url)?.[1] ?? null) : null;
    out.parts.push({ type: 'image', mediaType: mime, data: inline, url: inline ? null : url });
    return;
  }
  out.parts.push({ type: 'text', text: `Attached file: ${name}${mime ? ` (${mime})` : ''}` });
}

/** The parts of one message, in order, with what its steps recorded. */
export function partsOfMessage(records: readonly OcPart[], warnings: WarningList): PartsOfMessage {
  const out: PartsOfMessage = { parts: [], stepUsage: null, stepCost: null, subSessions: [], patchedFiles: [], openTool: false };
  for (const record of records) {
    const data = record.data;
    if (!data) continue;
    const type = stringOf(data.type);
    switch (type) {
      case 'text': {
        const text = stringOf(data.text) ?? stringOf(data.content);
        if (text?.trim()) out.parts.push({ type: 'text', text });
        break;
      }
      case 'reasoning': {
        const text = stringOf(data.text) ?? stringOf(data.reasoning);
        if (text?.trim()) out.parts.push({ type: 'thinking', text, redacted: false });
        break;
      }
      case 'tool':
        toolParts(data, out, warnings);
        break;
      case 'file':
        fileParts(data, out);
        break;
      case 'subtask': {
        const prompt = stringOf(data.prompt) ?? stringOf(data.description);
        if (prompt?.trim()) out.parts.push({ type: 'text', text: prompt });
        break;
      }
      case 'compaction':
        out.parts.push({ type: 'compaction', summary: null, trigger: data.auto === true ? 'auto' : data.auto === false ? 'manual' : null, tokensBefore: null });
        break;
      case 'step-finish': {
        const usage = tokensOf(data.tokens);
        if (usage) addUsage((out.stepUsage ??= emptyUsage()), usage);
        if (typeof data.cost === 'number' && Number.isFinite(data.cost)) out.stepCost = (out.stepCost ?? 0) + data.cost;
        break;
      }
      case 'patch':
        if (Array.isArray(data.files)) out.patchedFiles.push(...data.files.filter((f): f is string => typeof f === 'string'));
        break;
      default:
        if (type && BOOKKEEPING.has(type)) break;
        warnings.add('unknown_part_type', `Unknown OpenCode part type ${JSON.stringify(type ?? null)} ignored (its row stays in the raw view).`);
    }
  }
  return out;
}
