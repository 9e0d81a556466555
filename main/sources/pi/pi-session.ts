// Builds the canonical Session from a Pi-format file (Pi, oh-my-pi, OpenClaw): header, active branch, facts, status.
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { LifecycleStatus, ModelInfo, Outcome, Session, SourceFile } from '../../../shared/session.ts';
import { FORMAT_LABELS } from '../../../shared/source-formats.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { lastSegment, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';
import { UnreadableError } from '../types.ts';
import { activeBranch, type PiBranch } from './pi-branch.ts';
import { splitPiFile, type PiFile } from './pi-entries.ts';
import { fileIdOf } from './pi-paths.ts';
import { isFinalAnswer } from './pi-message.ts';
import { readTranscript } from './pi-transcript.ts';
import type { PiTranscript } from './pi-transcript-state.ts';

export interface PiSessionOptions {
  format: 'pi' | 'openclaw';
  /** The id when the header has none (from the file name). */
  fileId: string;
  /** Wall-clock time for the "still running" test (tests pin it). */
  now: number;
  parentKey: string | null;
  childKeys: string[];
  /** The title when neither the file nor its first prompt gives one (an oh-my-pi sub-agent's file name). */
  fallbackTitle: string | null;
  /** Facts of the file's place on disk (OpenClaw's agent id, a sub-agent's file name). */
  extra: Record<string, unknown>;
  /** A transcript the tool set aside (OpenClaw's `.deleted.<ts>` / `.reset.<ts>`): never running, and says so. */
  archived: { reason: string; at: string | null } | null;
  /** Companion files read for this session. */
  extraFiles: SourceFile[];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function reportUnknown(t: PiTranscript): void {
  for (const [type, n] of t.unknownTypes) t.warnings.add('unknown_record_type', `Unknown entry type "${type}" (${plural(n, 'entry')}) skipped.`);
  for (const [type, n] of t.unknownBlocks) t.warnings.add('unknown_block_type', `Unknown content block type "${type}" (${plural(n, 'block')}) skipped.`);
  for (const [role, n] of t.unknownRoles)
    t.warnings.add('unknown_role', `Messages with the unknown role "${role}" (${plural(n, 'message')}) are shown as system messages.`);
}

function firstPrompt(t: PiTranscript): string | null {
  for (const m of t.messages) {
    if (m.role !== 'user' || (m.annotations as Record<string, unknown> | undefined)?.bashExecution) continue;
    const text = m.parts.find((p) => p.type === 'text');
    const title = text?.type === 'text' ? titleFromText(text.text) : null;
    if (title) return title;
  }
  return null;
}

function mostUsedModel(t: PiTranscript): ModelInfo | null {
  let best: { name: string; provider: string | null; count: number } | null = null;
  for (const [name, seen] of t.models) if (!best || seen.count > best.count) best = { name, ...seen };
  const chosen = best ? { provider: best.provider, name: best.name } : t.current;
  const parameters: Record<string, unknown> = t.thinkingLevel !== null ? { thinkingLevel: t.thinkingLevel } : {};
  if (!chosen && !Object.keys(parameters).length) return null;
  return { provider: chosen?.provider ?? null, name: chosen?.name ?? null, parameters };
}

/** Still running: written within the active window (by the file and by its own records) and no final answer yet. */
function lifecycle(t: PiTranscript, ctx: DocumentContext, opts: PiSessionOptions): LifecycleStatus {
  if (opts.archived) return 'closed';
  if (opts.now - ctx.mtimeMs >= ACTIVE_WINDOW_MS) return 'closed';
  if (t.lastTimestamp !== null && opts.now - Date.parse(t.lastTimestamp) >= ACTIVE_WINDOW_MS) return 'closed';
  const last = t.messages.filter((m) => m.role !== 'system').at(-1);
  return last && !isFinalAnswer(last) ? 'active' : 'closed';
}

function buildExtra(file: PiFile, branch: PiBranch, t: PiTranscript, opts: PiSessionOptions): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  const header = file.header;
  if (header?.version !== null && header?.version !== undefined) extra.version = header.version;
  // The session this one was branched from: Pi records its file's path (or its id); kept as that session's key.
  if (header?.forkedFrom) extra.forkedFrom = `${opts.format}:${/[\\/]|\.jsonl$/.test(header.forkedFrom) ? fileIdOf(header.forkedFrom) : header.forkedFrom}`;
  const offMessages = branch.offBranch.filter((e) => e.type === 'message').length;
  if (branch.offBranch.length) extra.otherBranches = { entries: branch.offBranch.length, messages: offMessages };
  if (t.compactions) extra.compactions = t.compactions;
  if (t.labels.size) extra.labels = Object.fromEntries(t.labels);
  if (t.sideCalls.length) extra.sideCalls = t.sideCalls;
  if (t.otherEntries.size) extra.otherEntries = Object.fromEntries(t.otherEntries);
  if (t.lastStopReason !== null && t.lastStopReason !== 'stop') extra.lastStopReason = t.lastStopReason;
  return { ...extra, ...opts.extra };
}

function totalCost(t: PiTranscript): Session['cost'] {
  const total = new CostTotal();
  for (const m of t.messages) if (m.usage) total.add(m.cost, m.usage);
  for (const call of t.sideCalls) total.add(call.usd !== null ? { usd: call.usd, estimated: false } : null, call.usage);
  return total.total();
}

function archiveOutcome(archived: PiSessionOptions['archived']): Outcome | null {
  if (!archived) return null;
  const when = archived.at ? ` on ${archived.at}` : '';
  return { status: archived.reason, summary: `The tool set this transcript aside (${archived.reason})${when}.`, commitSha: null };
}

/** Parses the lines of one Pi-format file into the canonical model (pure; tests call it directly). */
export function buildPiSession(records: readonly JsonLine[], ctx: DocumentContext, opts: PiSessionOptions): Session {
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const file = splitPiFile(records, warnings);
  const label = FORMAT_LABELS[opts.format];
  if (!file.header && file.entries.length === 0) {
    throw new UnreadableError('wrong_shape', `Not a ${label} session: no line is a session header or an entry with a "type".`);
  }
  if (!file.header) warnings.add('missing_header', `The file has no session header ({"type":"session"}); its id is taken from the file name.`);
  const branch = activeBranch(file.entries, file.header?.id ?? null, warnings);
  const t = readTranscript(branch, file.entries, warnings);
  reportUnknown(t);

  const id = file.header?.id ?? opts.fileId;
  const fallback = opts.fallbackTitle ?? `${label} session ${id.slice(0, 8)}`;
  // oh-my-pi's title slot is rewritten in place: the current title, past any session_info rename.
  const title = [file.titleSlot, t.name, file.header?.title ?? null, firstPrompt(t)].map((c) => titleFromText(c)).find((c) => c !== null) ?? fallback;
  const cwd = file.header?.cwd || null;
  const createdAt = file.header?.timestamp ?? t.firstTimestamp;
  return {
    key: `${opts.format}:${id}`,
    id,
    format: opts.format,
    formatVersion: file.header?.version !== null && file.header?.version !== undefined ? String(file.header.version) : null,
    title,
    project: { path: cwd, name: cwd ? lastSegment(cwd) : null, branch: null, headCommit: null },
    createdAt: createdAt !== null && t.firstTimestamp !== null && t.firstTimestamp < createdAt ? t.firstTimestamp : createdAt,
    updatedAt: t.lastTimestamp ?? createdAt,
    closedAt: opts.archived?.at ?? null,
    status: lifecycle(t, ctx, opts),
    outcome: archiveOutcome(opts.archived),
    model: mostUsedModel(t),
    config: [],
    systemPrompt: t.systemPrompt !== null ? { path: null, hash: null, text: t.systemPrompt } : null,
    toolVersion: null,
    messages: t.messages,
    operations: [],
    todos: [],
    summary: null,
    artifacts: [],
    usage: t.usage,
    cost: totalCost(t),
    parentKey: opts.parentKey,
    childKeys: opts.childKeys,
    sourceFiles: [primarySourceFile(ctx), ...opts.extraFiles],
    warnings: warnings.list(),
    extra: buildExtra(file, branch, t, opts),
  };
}
