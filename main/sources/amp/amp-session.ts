// Assembles the canonical Session from one Amp thread document: messages, tokens, model, project tree, times.
import { basename } from 'node:path';
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Message, Session } from '../../../shared/session.ts';
import {
  elementFields,
  Fields,
  isRecord,
  lastSegment,
  noUsableField,
  notAnObject,
  primarySourceFile,
  titleFromText,
  WarningList,
  type DocumentContext,
} from '../coerce.ts';
import { textOf } from '../claude-code/claude-code-blocks.ts';
import { convertMessages } from './amp-messages.ts';
import { applyLedger, mostUsedModel, price } from './amp-totals.ts';

export interface AmpContext extends DocumentContext {
  /** Wall-clock time for the "still running" test (tests pin it). */
  now: number;
}

const KNOWN = ['v', 'id', 'created', 'title', 'messages', 'env', 'meta', 'usageLedger'] as const;
const FILE_ID = /^(T-[A-Za-z0-9-]+)\.json$/;

function epochMs(value: number | null): string | null {
  if (value === null || !Number.isFinite(value) || value <= 0) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function later(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/** The first workspace tree: `{displayName, uri: file://..., repository?: {ref, sha}}`. */
function projectOf(doc: Fields): Session['project'] {
  const trees = doc.object('env')?.object('initial')?.array('trees') ?? [];
  const tree = trees.length ? elementFields(trees[0], 'env.initial.trees', doc.warnings) : null;
  if (!tree) return { path: null, name: null, branch: null, headCommit: null };
  const uri = tree.string('uri');
  let path: string | null = null;
  if (uri?.startsWith('file://')) {
    try {
      path = decodeURIComponent(new URL(uri).pathname);
    } catch {
      doc.warnings.add('bad_value', `The workspace URI ${JSON.stringify(uri)} is not a file URL this app can read.`);
    }
  }
  const repo = tree.present('repository') ? tree.object('repository') : null;
  const ref = repo?.string('ref') ?? null;
  return {
    path,
    name: tree.string('displayName') ?? (path ? lastSegment(path) : null),
    branch: ref ? ref.replace(/^refs\/heads\//, '') : null,
    headCommit: repo?.string('sha') ?? null,
  };
}

/** The last trace's end: Amp times each inference and tool run in meta.traces. */
function lastTraceEnd(doc: Fields): string | null {
  const meta = doc.present('meta') ? doc.object('meta') : null;
  const traces = meta?.present('traces') ? (meta.array('traces') ?? []) : [];
  let last: string | null = null;
  traces.forEach((raw) => {
    if (!isRecord(raw) || typeof raw.endTime !== 'string') return;
    const t = new Fields(raw, 'meta.traces[]', doc.warnings).timestamp('endTime');
    last = later(last, t);
  });
  return last;
}

/** Running: written within the window, the thread's own last time too, and the last word not a final answer. */
function isRunning(messages: Message[], lastTime: string | null, ctx: AmpContext): boolean {
  if (ctx.now - ctx.mtimeMs >= ACTIVE_WINDOW_MS) return false;
  if (lastTime !== null && ctx.now - Date.parse(lastTime) >= ACTIVE_WINDOW_MS) return false;
  const last = messages.at(-1);
  return !(last?.role === 'assistant' && !last.parts.some((p) => p.type === 'tool_call'));
}

/** Parses one thread document (pure: tests call it directly). */
export function parseAmpThread(value: unknown, ctx: AmpContext): Session {
  if (!isRecord(value)) throw notAnObject(value, 'Amp thread');
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const doc = new Fields(value, '', warnings);
  const list = doc.array('messages');
  const docId = doc.string('id');
  if (list === null && docId === null) throw noUsableField(value, warnings, 'Amp thread', KNOWN);
  const fileId = FILE_ID.exec(basename(ctx.path))?.[1] ?? null;
  if (docId !== null && fileId !== null && docId !== fileId) {
    warnings.add('id_mismatch', `The file is named after thread ${fileId} but holds thread ${docId}; the thread's own id is used.`);
  }
  const id = docId ?? fileId ?? basename(ctx.path, '.json');
  if (list === null) warnings.add('missing_field', 'The thread has no messages list.');

  const converted = convertMessages(list ?? [], warnings);
  const { messages } = converted;
  const { usage, credits, unattached } = applyLedger(doc, converted, warnings);
  const cost = price(messages, warnings);
  const title = doc.present('title') ? doc.string('title') : null;
  const prompt = messages.find((m) => m.role === 'user' && textOf(m.parts).trim() !== '');
  const createdAt = epochMs(doc.present('created') ? doc.number('created') : null);
  const stamps = messages.map((m) => m.timestamp).filter((t): t is string => t !== null);
  const lastActivity = [lastTraceEnd(doc), ...stamps].reduce<string | null>(later, null);
  const updatedAt = lastActivity ?? createdAt;
  const model = mostUsedModel(messages);
  const version = doc.present('v') ? doc.number('v') : null;

  const extra: Record<string, unknown> = {};
  if (credits !== null) extra.credits = credits;
  if (unattached) extra.ledgerEventsWithoutMessage = unattached;
  return {
    key: `amp:${id}`,
    id,
    format: 'amp',
    formatVersion: version !== null ? String(version) : null,
    title: titleFromText(title) ?? titleFromText(prompt ? textOf(prompt.parts) : null) ?? `Amp thread ${id.replace(/^T-/, '').slice(0, 8)}`,
    project: projectOf(doc),
    createdAt,
    updatedAt,
    closedAt: null,
    status: isRunning(messages, lastActivity, ctx) ? 'active' : 'closed',
    outcome: null,
    model: model ? { provider: null, name: model, parameters: {} } : null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages,
    operations: [],
    todos: [],
    summary: null,
    artifacts: [],
    usage,
    cost,
    parentKey: null,
    childKeys: [],
    sourceFiles: [primarySourceFile(ctx)],
    warnings: warnings.list(),
    extra,
  };
}
