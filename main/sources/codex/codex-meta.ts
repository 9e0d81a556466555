// Reads Codex's session_meta (identity, git, fork and sub-agent facts) and turn_context (model and policies) payloads.
import { isRecord, limitDepth, type Fields } from '../coerce.ts';
import type { CodexContext, CodexMeta } from './codex-state.ts';

/**
 * `source` is a string ("cli", "exec", "vscode") or, for threads another thread started,
 * `{subagent: "review" | {thread_spawn: {parent_thread_id, depth, agent_nickname, agent_role}} | {other: ...}}`.
 */
function readSource(meta: Fields): { label: unknown; parent: string | null; subagent: Record<string, unknown> | null } {
  const raw = meta.raw.source;
  if (raw === undefined || raw === null) return { label: null, parent: null, subagent: null };
  meta.used.add('source');
  if (typeof raw === 'string') return { label: raw, parent: null, subagent: null };
  const source = meta.object('source');
  const sub = source?.raw.subagent;
  if (!source || sub === undefined) return { label: source ? limitDepth(raw, meta.warnings, 'session_meta.source') : null, parent: null, subagent: null };
  const subagent: Record<string, unknown> = {};
  let parent: string | null = null;
  if (typeof sub === 'string') subagent.kind = sub;
  else if (isRecord(sub)) {
    const spawn = source.object('subagent')?.object('thread_spawn');
    if (spawn) {
      subagent.kind = 'thread_spawn';
      parent = spawn.string('parent_thread_id');
      const depth = spawn.number('depth');
      const nickname = spawn.string('agent_nickname');
      const role = spawn.string('agent_role');
      const path = spawn.string('agent_path');
      if (depth !== null) subagent.depth = depth;
      if (nickname !== null) subagent.nickname = nickname;
      if (role !== null) subagent.role = role;
      if (path !== null) subagent.path = path;
    } else {
      const [kind] = Object.keys(sub);
      subagent.kind = kind ?? 'other';
      if (kind !== undefined && typeof sub[kind] === 'string') subagent.detail = sub[kind];
    }
  }
  // Newer writers also put the parent at the top level of the payload.
  parent ??= meta.string('parent_thread_id');
  if (parent !== null) subagent.parentThreadId = parent;
  const nickname = meta.string('agent_nickname');
  const role = meta.string('agent_role');
  if (nickname !== null && subagent.nickname === undefined) subagent.nickname = nickname;
  if (role !== null && subagent.role === undefined) subagent.role = role;
  return { label: 'subagent', parent, subagent };
}

/** `instructions` (older writers) or `base_instructions.text` (newer ones): the system prompt Codex sent. */
function readInstructions(meta: Fields): string | null {
  if (meta.present('instructions')) return meta.string('instructions');
  if (!meta.present('base_instructions')) return null;
  if (typeof meta.raw.base_instructions === 'string') return meta.string('base_instructions');
  return meta.object('base_instructions')?.string('text') ?? null;
}

export function readSessionMeta(meta: Fields, line: number): CodexMeta {
  const git = meta.object('git');
  const source = readSource(meta);
  return {
    line,
    id: meta.string('id') ?? meta.string('session_id'),
    timestamp: meta.timestamp('timestamp'),
    cwd: meta.string('cwd'),
    originator: meta.string('originator'),
    cliVersion: meta.string('cli_version'),
    source: source.label,
    modelProvider: meta.string('model_provider'),
    branch: git?.string('branch') ?? null,
    commit: git?.string('commit_hash') ?? null,
    repositoryUrl: git?.string('repository_url') ?? null,
    forkedFromId: meta.string('forked_from_id'),
    parentThreadId: source.parent,
    subagent: source.subagent,
    instructions: readInstructions(meta),
  };
}

/** Fields of turn_context shown as configuration; the rest (permission profiles, instructions) stays in the raw view. */
const CONFIG_KEYS = ['model', 'effort', 'summary', 'approval_policy', 'approvals_reviewer', 'sandbox_policy', 'personality'] as const;

export function readTurnContext(ctx: Fields, line: number): CodexContext {
  const config: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    if (ctx.present(key)) config[key] = ctx.value(key);
  }
  const sandbox = ctx.present('sandbox_policy') && isRecord(ctx.raw.sandbox_policy) ? ctx.object('sandbox_policy') : null;
  return {
    line,
    turnId: ctx.string('turn_id'),
    cwd: ctx.string('cwd'),
    model: ctx.string('model'),
    effort: ctx.string('effort'),
    summary: ctx.string('summary'),
    approvalPolicy: ctx.string('approval_policy'),
    sandbox: sandbox ? (sandbox.string('type') ?? sandbox.string('mode')) : ctx.string('sandbox_policy'),
    config,
  };
}

/** The turn_context facts worth showing on the turn itself. */
export function turnSettings(ctx: CodexContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (ctx.model !== null) out.model = ctx.model;
  if (ctx.effort !== null) out.effort = ctx.effort;
  if (ctx.approvalPolicy !== null) out.approvalPolicy = ctx.approvalPolicy;
  if (ctx.sandbox !== null) out.sandbox = ctx.sandbox;
  return out;
}
