// Converts Gemini CLI content (Google GenAI parts), thoughts, tool calls and token counts into canonical pieces.
import type { MessagePart, Operation, Origin, TokenUsage } from '../../../shared/session.ts';
import { elementFields, isRecord, limitDepth, type Fields, type WarningList } from '../coerce.ts';

/** What conversion collects across messages: unknown part kinds, tool operations, models. */
export interface GeminiAcc {
  warnings: WarningList;
  unknownParts: Map<string, number>;
  operations: Operation[];
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** A function response's text: `response.output` or `response.error` when the tool wrote one, else the JSON. */
function responseText(response: unknown, warnings: WarningList, field: string): { text: string; error: boolean } {
  if (typeof response === 'string') return { text: response, error: false };
  if (isRecord(response)) {
    if (typeof response.output === 'string') return { text: response.output, error: false };
    if (typeof response.error === 'string') return { text: response.error, error: true };
  }
  return { text: response === undefined ? '' : JSON.stringify(limitDepth(response, warnings, field)), error: false };
}

/** One GenAI part: text (thought or not), inline or file data, a function call or a function response. */
export function partOf(raw: unknown, acc: GeminiAcc, field: string): MessagePart | null {
  if (typeof raw === 'string') return { type: 'text', text: raw };
  if (!isRecord(raw)) {
    acc.warnings.wrongType(`${field}[]`, 'a content part', raw);
    return null;
  }
  if (typeof raw.text === 'string') return raw.thought === true ? { type: 'thinking', text: raw.text, redacted: false } : { type: 'text', text: raw.text };
  if (isRecord(raw.inlineData)) {
    const mediaType = typeof raw.inlineData.mimeType === 'string' ? raw.inlineData.mimeType : null;
    const data = typeof raw.inlineData.data === 'string' ? raw.inlineData.data : null;
    if (mediaType === null || mediaType.startsWith('image/')) return { type: 'image', mediaType, data, url: null };
    return { type: 'text', text: `[${mediaType} attachment]` };
  }
  if (isRecord(raw.fileData)) {
    const mediaType = typeof raw.fileData.mimeType === 'string' ? raw.fileData.mimeType : null;
    const url = typeof raw.fileData.fileUri === 'string' ? raw.fileData.fileUri : null;
    if (mediaType === null || mediaType.startsWith('image/')) return { type: 'image', mediaType, data: null, url };
    return { type: 'text', text: `[file ${url ?? ''}]`.replace(' ]', ']') };
  }
  if (isRecord(raw.functionCall)) {
    const call = raw.functionCall;
    return {
      type: 'tool_call',
      callId: typeof call.id === 'string' ? call.id : null,
      name: typeof call.name === 'string' ? call.name : 'unknown',
      input: limitDepth(call.args ?? null, acc.warnings, `${field}.functionCall.args`),
    };
  }
  if (isRecord(raw.functionResponse)) {
    const res = raw.functionResponse;
    const { text, error } = responseText(res.response, acc.warnings, `${field}.functionResponse.response`);
    return { type: 'tool_result', callId: typeof res.id === 'string' ? res.id : null, output: text, isError: error ? true : null };
  }
  if (isRecord(raw.executableCode) && typeof raw.executableCode.code === 'string') return { type: 'text', text: raw.executableCode.code };
  if (isRecord(raw.codeExecutionResult) && typeof raw.codeExecutionResult.output === 'string') {
    return { type: 'text', text: raw.codeExecutionResult.output };
  }
  const kind = Object.keys(raw).find((k) => k !== 'thought' && k !== 'thoughtSignature') ?? 'empty part';
  bump(acc.unknownParts, kind);
  return null;
}

/** `content` (or the legacy `parts`) is a string, one part, or a list of parts (PartListUnion). */
export function contentParts(raw: unknown, acc: GeminiAcc, field: string): MessagePart[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw === 'string') return raw.length ? [{ type: 'text', text: raw }] : [];
  const list = Array.isArray(raw) ? raw : [raw];
  const parts: MessagePart[] = [];
  for (const item of list) {
    const part = partOf(item, acc, field);
    if (part && !(part.type === 'text' && part.text === '')) parts.push(part);
  }
  return parts;
}

/** `thoughts: [{subject, description, timestamp}]`: the thought summaries Gemini showed while working. */
export function thoughtParts(f: Fields): MessagePart[] {
  const parts: MessagePart[] = [];
  for (const raw of f.present('thoughts') ? (f.array('thoughts') ?? []) : []) {
    const t = elementFields(raw, f.name('thoughts'), f.warnings);
    if (!t) continue;
    const text = [t.string('subject'), t.string('description')].filter((s): s is string => !!s && s.trim().length > 0).join('\n');
    if (text) parts.push({ type: 'thinking', text, redacted: false });
  }
  return parts;
}

/** The function responses stored in a tool call's `result`, joined into one output. */
function resultText(raw: unknown, acc: GeminiAcc, field: string): { text: string; error: boolean } | null {
  if (raw === undefined || raw === null) return null;
  const parts = contentParts(raw, acc, field);
  if (!parts.length) return null;
  const error = parts.some((p) => p.type === 'tool_result' && p.isError === true);
  const text = parts
    .map((p) => (p.type === 'tool_result' ? p.output : p.type === 'text' ? p.text : ''))
    .filter(Boolean)
    .join('\n');
  return { text, error };
}

/** The exit code run_shell_command's output reports on its own line (`Exit Code: 1`); null when it reports none. */
function shellExitCode(output: string | null): number | null {
  const found = output === null ? null : /^Exit Code: (-?\d+)\s*$/m.exec(output);
  return found ? Number(found[1]) : null;
}

/**
 * `toolCalls: [{id, name, args, result, status, timestamp, displayName, description, resultDisplay}]`: each becomes a
 * tool_call part, its inline result a tool_result part, and the call an operation.
 */
export function toolCallParts(f: Fields, acc: GeminiAcc, origin: Origin, messageId: string): MessagePart[] {
  const parts: MessagePart[] = [];
  (f.present('toolCalls') ? (f.array('toolCalls') ?? []) : []).forEach((raw, k) => {
    const t = elementFields(raw, f.name('toolCalls'), f.warnings);
    if (!t) return;
    const callId = t.string('id');
    const name = t.string('name') ?? 'unknown';
    const status = t.string('status');
    parts.push({ type: 'tool_call', callId, name, input: t.present('args') ? t.value('args') : null });
    const result = resultText(t.raw.result, acc, t.name('result'));
    const display = typeof t.raw.resultDisplay === 'string' ? t.raw.resultDisplay : null;
    // Gemini CLI's shell tool ends "success" whatever the command's exit, which its output states ("Exit Code: 1").
    const exited = name === 'run_shell_command' ? shellExitCode(result?.text ?? display) : null;
    const isError = status === 'error' || result?.error || (exited !== null && exited !== 0) ? true : status === 'success' ? false : null;
    if (result) parts.push({ type: 'tool_result', callId, output: result.text, isError });
    else if (display !== null) parts.push({ type: 'tool_result', callId, output: display, isError });
    const detail: Record<string, unknown> = {};
    for (const key of ['displayName', 'description', 'agentId'] as const) {
      const v = t.string(key);
      if (v !== null) detail[key] = v;
    }
    if (callId !== null) detail.callId = callId;
    acc.operations.push({
      id: `${messageId}/tool-${k}`,
      type: 'tool',
      name,
      timestamp: t.timestamp('timestamp'),
      endedAt: null,
      status,
      latencyMs: null,
      detail,
      vcs: null,
      usage: null,
      cost: null,
      parentId: null,
      childSessionKey: null,
      origin: { ...origin, pointer: `${origin.pointer ?? ''}/toolCalls/${k}` },
    });
  });
  return parts;
}

/** `tokens: {input, output, cached, thoughts, tool, total}`; input counts cached tokens, which are billed apart. */
export function readTokens(f: Fields): TokenUsage | null {
  if (!f.present('tokens')) return null;
  const t = f.object('tokens');
  if (!t) return null;
  const input = t.number('input');
  const output = t.number('output');
  const cached = t.number('cached');
  const thoughts = t.number('thoughts');
  const tool = t.number('tool');
  if (input === null && output === null && cached === null && thoughts === null) return null;
  const n = (v: number | null) => Math.max(0, v ?? 0);
  return { input: Math.max(0, n(input) - n(cached)) + n(tool), output: n(output), cacheRead: n(cached), cacheWrite: 0, reasoning: n(thoughts) };
}

/** Legacy `ts` may be epoch seconds or milliseconds; strings go through the shared parser. */
export function epochToIso(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  const ms = value < 1e12 ? value * 1000 : value;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
