// The pieces of one ai-agent OperationNode: request/response payloads (inline or refs), reasoning, logs and captured bodies.
import { elementFields, isRecord, limitDepth, type Fields } from '../coerce.ts';
import { decodeCapture, describeInline, splitHttp } from './ai-agent-content.ts';
import type { PayloadRef } from './ai-agent-payloads.ts';
import type { TreeContext } from './ai-agent-tree-context.ts';

/** Logs kept per operation in its detail; the rest stay in the raw record. */
const MAX_LOGS = 50;

export interface Side {
  /** The payload when it is inline JSON or text; undefined when absent or only referenced. */
  inline: unknown;
  refs: PayloadRef[];
  size: number | null;
  truncated: boolean | null;
  /** Bounded description for the operation detail. */
  detail: Record<string, unknown> | null;
}

/** `request` / `response` = {kind?, payload, size, truncated?}; payload is inline or `{ref}` / `{sdk:{ref}}`. */
export function readSide(side: Fields | null, ctx: TreeContext): Side {
  const out: Side = { inline: undefined, refs: [], size: null, truncated: null, detail: null };
  if (!side) return out;
  out.size = side.number('size');
  const truncated = side.raw.truncated;
  out.truncated = typeof truncated === 'boolean' ? truncated : null;
  const payload = side.raw.payload;
  const isRefs = isRecord(payload) && (Object.hasOwn(payload, 'ref') || (isRecord(payload.sdk) && Object.hasOwn(payload.sdk, 'ref')));
  if (isRefs) {
    const field = side.name('payload');
    if (isRecord(payload.ref)) {
      const ref = ctx.payloads.read(payload.ref, `${field}.ref`);
      if (ref) out.refs.push(ref);
    } else if (typeof payload.ref === 'string') {
      const ref = ctx.payloads.read({ path: payload.ref }, `${field}.ref`);
      if (ref) out.refs.push(ref);
    }
    if (isRecord(payload.sdk) && isRecord(payload.sdk.ref)) {
      const ref = ctx.payloads.read(payload.sdk.ref, `${field}.sdk.ref`);
      if (ref) out.refs.push({ ...ref, kind: ref.kind ?? 'sdk' });
    }
  } else if (payload !== undefined && payload !== null) {
    out.inline = limitDepth(payload, ctx.warnings, side.name('payload'));
  }
  const kind = side.string('kind');
  out.detail = {
    ...(kind !== null ? { kind } : {}),
    size: out.size,
    ...(out.truncated !== null ? { truncated: out.truncated } : {}),
    payload: out.refs.length ? { refs: out.refs } : describeInline(out.inline),
  };
  return out;
}

/** `reasoning {chunks[{text, ts}], final?}`: the final text when recorded, else the chunks joined. */
export function readReasoning(f: Fields | null): { text: string | null; chunks: number } {
  if (!f) return { text: null, chunks: 0 };
  const chunks = f.array('chunks') ?? [];
  const joined = chunks.map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : '')).join('');
  const final = f.string('final');
  const text = final !== null && final.trim() ? final : joined.trim() ? joined : null;
  return { text, chunks: chunks.length };
}

export interface Capture {
  direction: 'request' | 'response';
  format: string | null;
  text: string;
}

export interface Logs {
  entries: Array<Record<string, unknown>>;
  captures: Capture[];
  total: number;
}

function readCapture(log: Fields, key: string, direction: Capture['direction'], ctx: TreeContext): Capture | null {
  const f = log.object(key);
  if (!f) return null;
  const body = f.string('body');
  if (body === null) return null;
  const text = decodeCapture(body, ctx.warnings, `LLM ${direction}`);
  return text === null ? null : { direction, format: f.string('format'), text };
}

/** LogEntry[] → short {time, severity, message} lines plus any captured HTTP/SSE bodies (decoded, bounded). */
export function readLogs(list: unknown[] | null, field: string, ctx: TreeContext): Logs {
  const out: Logs = { entries: [], captures: [], total: list?.length ?? 0 };
  for (const raw of list ?? []) {
    const log = elementFields(raw, field, ctx.warnings);
    if (!log) continue;
    if (out.entries.length < MAX_LOGS) {
      const entry: Record<string, unknown> = { time: ctx.time(log, 'timestamp'), severity: log.string('severity'), message: log.string('message') };
      if (log.present('remoteIdentifier')) entry.remote = log.string('remoteIdentifier');
      if (log.raw.fatal === true) entry.fatal = true;
      out.entries.push(entry);
    }
    const request = readCapture(log, 'llmRequestPayload', 'request', ctx);
    const response = readCapture(log, 'llmResponsePayload', 'response', ctx);
    if (request) out.captures.push(request);
    if (response) out.captures.push(response);
  }
  return out;
}

/** What the detail view shows of a capture: never the body, only its start line and size. */
export function describeCapture(c: Capture): Record<string, unknown> {
  return { direction: c.direction, format: c.format, chars: c.text.length, startLine: splitHttp(c.text).startLine };
}
