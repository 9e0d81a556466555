// Reads a kimi-cli session folder through its context.jsonl (the wire.jsonl beside it when that holds the conversation), or through its wire.jsonl alone in an older folder.
import { basename, join } from 'node:path';
import type { Session, SourceFile, Warning } from '../../../shared/session.ts';
import { isoFromEpochMs, WarningList, primarySourceFile, type DocumentContext } from '../coerce.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { UnreadableError } from '../types.ts';
import { foldersWith, readLinesCompanion, readObjectCompanion } from './kimi-companions.ts';
import { readContext } from './kimi-context.ts';
import { agentKey, sessionKey, type KimiLayout } from './kimi-paths.ts';
import { buildKimiSession } from './kimi-session.ts';
import { newKimiState, type KimiState } from './kimi-state.ts';
import { readWire, wireHasConversation } from './kimi-wire.ts';

type CliLayout = Extract<KimiLayout, { kind: 'cli' | 'cli-subagent' }>;

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A cleared context is an empty file (kimi-cli rotates the old one away); its wire can still hold the session. */
async function readContextLines(path: string, size: number): Promise<{ records: JsonLine[]; warnings: Warning[] }> {
  return size === 0 ? { records: [], warnings: [] } : readJsonLines(path);
}

/** Dates the prompts of a context read without its wire's content: the n-th prompt began the n-th turn. */
function datePrompts(state: KimiState, turnTimes: Array<string | null>): void {
  const prompts = state.messages.filter((m) => m.role === 'user' && !(m.annotations as Record<string, unknown> | undefined)?.injected);
  if (prompts.length !== turnTimes.length) return;
  prompts.forEach((m, i) => (m.timestamp = turnTimes[i] ?? null));
}

export async function readKimiCliSession(ctx: DocumentContext, layout: CliLayout, now: number): Promise<Session> {
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const folder = layout.kind === 'cli' ? layout.sessionDir : join(layout.sessionDir, 'subagents', layout.agentId);
  // An older session folder holds the wire alone: it is then the session's one file, and there is no context.
  const wireOnly = basename(ctx.path) === 'wire.jsonl';
  const context = wireOnly ? { records: [], warnings: [] } : await readContextLines(ctx.path, ctx.size);
  warnings.addAll(context.warnings);
  const wire = wireOnly ? { value: await readJsonLines(ctx.path), file: primarySourceFile(ctx) } : await readLinesCompanion(join(folder, 'wire.jsonl'), folder);
  const wireFileIndex = wireOnly ? 0 : 1;
  const side = await readObjectCompanion(join(folder, layout.kind === 'cli' ? 'state.json' : 'meta.json'), folder);
  for (const c of [wire, side]) if (c && 'problem' in c) warnings.add('bad_companion', `The session's ${c.problem}; it was read without it.`);
  const sourceFiles: SourceFile[] = [primarySourceFile(ctx)];
  const wireRead = wire && 'value' in wire ? wire : null;
  if (wireRead) {
    if (!wireOnly) sourceFiles.push(wireRead.file);
    warnings.addAll(wireRead.value.warnings);
  }
  const sideRead = side && 'value' in side ? side : null;
  if (sideRead) sourceFiles.push(sideRead.file);

  // The wire logs every event; the context only what the model still sees after a /clear or /compact.
  const fromWire = wireRead !== null && wireHasConversation(wireRead.value.records);
  const contextState = newKimiState(warnings, 0);
  readContext(contextState, context.records);
  let state = contextState;
  if (fromWire) {
    state = newKimiState(warnings, wireFileIndex);
    readWire(state, wireRead.value.records);
    state.systemPrompt = contextState.systemPrompt;
    state.cwd = contextState.cwd;
    state.contextTokens ??= contextState.contextTokens;
  } else if (wireRead) {
    // A wire of bare markers still says when the turns happened and whether one is open.
    const markers = newKimiState(new WarningList(), wireFileIndex);
    readWire(markers, wireRead.value.records);
    Object.assign(state, { firstTimestamp: markers.firstTimestamp, lastTimestamp: markers.lastTimestamp, turns: markers.turns, openTurn: markers.openTurn });
    state.extra.wireProtocol = markers.extra.wireProtocol;
    datePrompts(state, markers.turnTimes);
  }
  if (state.messages.length === 0 && context.records.length === 0) {
    throw new UnreadableError(
      'empty_file',
      wireOnly
        ? 'This wire.jsonl holds no conversation, and no context.jsonl lies beside it.'
        : 'The context file is empty (kimi-cli empties it on /clear) and no wire.jsonl beside it holds the conversation.',
    );
  }

  const meta = sideRead?.value ?? {};
  const extra: Record<string, unknown> = {};
  if (meta.archived === true) extra.archived = true;
  const archivedAt = typeof meta.archived_at === 'number' ? isoFromEpochMs(meta.archived_at * 1000) : null;
  if (archivedAt !== null) extra.archivedAt = archivedAt;
  if (fromWire) extra.readFrom = 'wire.jsonl';
  // Sub-agent folders with a context, or (older ones) a wire alone.
  const children =
    layout.kind === 'cli'
      ? [
          ...new Set([...(await foldersWith(join(folder, 'subagents'), 'context.jsonl')), ...(await foldersWith(join(folder, 'subagents'), 'wire.jsonl'))]),
        ].sort()
      : [];
  if (layout.kind === 'cli-subagent') {
    for (const key of ['subagent_type', 'status', 'description']) if (text(meta[key])) extra[key] = meta[key];
    const spec = meta.launch_spec;
    const model = spec && typeof spec === 'object' ? text((spec as Record<string, unknown>).effective_model) : null;
    if (model) state.model ??= model;
  }
  const id = layout.kind === 'cli' ? layout.sessionId : `${layout.sessionId}/${layout.agentId}`;
  if (state.childByCall.size)
    extra.subagentCalls = Object.fromEntries([...state.childByCall].map(([call, agent]) => [call, agentKey(layout.sessionId, agent)]));
  return buildKimiSession(state, ctx, {
    id,
    key: layout.kind === 'cli' ? sessionKey(id) : agentKey(layout.sessionId, layout.agentId),
    parentKey: layout.kind === 'cli-subagent' ? sessionKey(layout.sessionId) : null,
    childKeys: children.map((agent) => agentKey(layout.sessionId, agent)),
    titles: layout.kind === 'cli' ? [text(meta.custom_title), text(meta.title)] : [text(meta.description), text(meta.subagent_type)],
    fallbackTitle: layout.kind === 'cli' ? `Kimi session ${layout.sessionId.slice(0, 8)}` : `Sub-agent ${layout.agentId}`,
    cwd: null,
    createdAt: null,
    updatedAt: null,
    turnsKnown: wireRead !== null,
    sourceFiles,
    extra,
    now,
  });
}
