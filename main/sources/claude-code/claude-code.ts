// Reads Claude Code transcripts (<config>/projects/<encoded-cwd>/<sessionId>.jsonl and their sub-agent files).
import { recognizesClaudeCode } from './claude-code-recognize.ts';
import { shellArg } from '../shell-quote.ts';
import { pointIntoDocument, readWebExportRecords, recognizesClaudeWebExport } from './claude-code-web-export.ts';
import { basename, dirname, extname, join } from 'node:path';
import type { Session, SourceFile } from '../../../shared/session.ts';
import { lastSegment, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { textOf } from './claude-code-blocks.ts';
import { isPrompt, isRunning, mostUsedModel, priceMessages } from './claude-code-facts.ts';
import { metadataExtra, ownSummary } from './claude-code-metadata.ts';
import { readConversation, type Conversation } from './claude-code-records.ts';
import {
  agentKey,
  isClaudeCodeCompanion,
  layoutOf,
  listSubagents,
  readSubagentMeta,
  sessionKey,
  type ClaudeCodeLayout,
  type SubagentFile,
  type SubagentMeta,
} from './claude-code-subagents.ts';
import { UnreadableError, type SourceReader } from '../types.ts';
import { statPath } from '../file-bytes.ts';
import { cannotRead } from '../read-failure.ts';

export interface ClaudeCodeContext extends DocumentContext {
  /** Wall-clock time for the "still running" test (tests pin it). */
  now: number;
  /** Where the file sits; null for a file outside the layout, read as a session named after the file. */
  layout: ClaudeCodeLayout | null;
  /** The sub-agent's own meta file (sub-agent transcripts only). */
  meta: SubagentMeta | null;
  /** Sub-agent transcripts in this session's `subagents/` folder (for a sub-agent: its siblings). */
  children: SubagentFile[];
  /** Companion files read for this session (the meta file). */
  extraFiles: SourceFile[];
}

export function claimsClaudeCode(absPath: string): boolean {
  return layoutOf(absPath) !== null;
}

function noConversation(conv: Conversation): UnreadableError {
  const held = [...conv.recordTypes].map(([type, n]) => `${n} × ${type}`).join(', ');
  return new UnreadableError('wrong_shape', `Not a Claude Code conversation: no user, assistant or system record (the file holds ${held}).`);
}

/** Older CLIs (2.0) wrote sub-agents as `agent-<id>.jsonl` beside the parent, tagged with the parent's sessionId. */
function legacyAgentLayout(layout: ClaudeCodeLayout, conv: Conversation): ClaudeCodeLayout {
  if (layout.kind !== 'session' || !layout.sessionId.startsWith('agent-') || !conv.sidechainOnly) return layout;
  const parent = conv.sessionIds.find((id) => id !== layout.sessionId);
  return parent ? { kind: 'subagent', parentSessionId: parent, agentId: layout.sessionId.slice('agent-'.length), workflowRun: null } : layout;
}

/**
 * A file outside any projects folder (opened directly, or found loose by its content) is the session its records
 * name, as it is to Claude Code, whatever it was renamed to: the last `sessionId` its records carry (a resumed file
 * begins with the records of the session it resumed). Its name serves only when no record names one, and for a
 * sub-agent's transcript, whose records carry its parent's id.
 */
function looseLayout(named: ClaudeCodeLayout, conv: Conversation): ClaudeCodeLayout {
  const legacy = legacyAgentLayout(named, conv);
  if (legacy !== named || conv.sidechainOnly) return legacy;
  const own = conv.sessionIds.at(-1);
  return own ? { kind: 'session', sessionId: own } : named;
}

/** Parses the records of one Claude Code JSONL file into the canonical model (pure; tests call it directly). */
export function parseClaudeCode(records: readonly JsonLine[], ctx: ClaudeCodeContext): Session {
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const given = ctx.layout ?? { kind: 'session', sessionId: basename(ctx.path, extname(ctx.path)) };
  const childByToolUseId = new Map(ctx.children.flatMap((c) => (c.meta?.toolUseId ? [[c.meta.toolUseId, c.key] as const] : [])));
  const conv = readConversation(records, warnings, { agentFile: given.kind === 'subagent' || given.sessionId.startsWith('agent-'), childByToolUseId });
  if (conv.conversationRecords === 0) throw noConversation(conv);
  const layout = ctx.layout === null ? looseLayout(given, conv) : legacyAgentLayout(given, conv);

  const id = layout.kind === 'session' ? layout.sessionId : `${layout.parentSessionId}/agent-${layout.agentId}`;
  const key = layout.kind === 'session' ? sessionKey(id) : agentKey(layout.parentSessionId, layout.agentId);
  const linked = conv.operations.flatMap((op) => (op.childSessionKey && op.childSessionKey !== key ? [op.childSessionKey] : []));
  const childKeys = layout.kind === 'session' ? [...new Set([...ctx.children.map((c) => c.key), ...linked])] : [...new Set(linked)];

  const { meta } = conv;
  const prompt = conv.messages.find(isPrompt);
  const summaryText = ownSummary(meta, conv.recordUuids);
  const own = [meta.customTitle, meta.aiTitle, summaryText, prompt ? textOf(prompt.parts) : null];
  // A sub-agent's meta names it by the spawner's one-line description; its bare type ("general-purpose", shared by
  // every agent of that kind) names it only when its own records say nothing better.
  const candidates = layout.kind === 'subagent' ? [ctx.meta?.description ?? null, ...own, ctx.meta?.agentType ?? null] : own;
  const fallback = layout.kind === 'subagent' ? `Sub-agent ${layout.agentId}` : `Claude Code session ${id.slice(0, 8)}`;
  const title = candidates.map((t) => titleFromText(t)).find((t) => t !== null) ?? fallback;

  const extra: Record<string, unknown> = { ...metadataExtra(meta) };
  if (conv.version !== null) extra.version = conv.version;
  if (conv.cwds.length > 1) extra.cwds = conv.cwds;
  if (ctx.meta) {
    for (const [k, v] of Object.entries(ctx.meta)) if (v !== null) extra[k] = v;
  }
  const path = conv.cwds[0] ?? null;
  const cost = priceMessages(conv.messages, warnings);
  return {
    key,
    id,
    format: 'claude-code',
    formatVersion: null,
    title,
    // The launch directory: the folder name encodes it (lossily); later cwd values follow `cd`.
    project: { path, name: path ? lastSegment(path) : null, branch: conv.branch, headCommit: null },
    createdAt: conv.createdAt,
    updatedAt: conv.updatedAt,
    closedAt: null,
    status: isRunning(conv.messages, ctx.mtimeMs, ctx.now) ? 'active' : 'closed',
    outcome: null,
    model: mostUsedModel(conv),
    config: [],
    systemPrompt: null,
    toolVersion: conv.version,
    messages: conv.messages,
    operations: conv.operations,
    todos: conv.todos,
    // Claude Code's own summary of the conversation (its `summary` record), which the exports carry.
    summary: summaryText ? { overview: summaryText, decisions: [], outcomes: [], openItems: [], tags: [] } : null,
    artifacts: [],
    usage: conv.usage,
    cost,
    parentKey: layout.kind === 'subagent' ? sessionKey(layout.parentSessionId) : null,
    childKeys,
    sourceFiles: [primarySourceFile(ctx), ...ctx.extraFiles],
    warnings: warnings.list(),
    extra,
  };
}

/** Reads a Claude Code on the web session document (found by its content wherever it lies). */
export async function readClaudeWebExport(absPath: string, now = Date.now()): Promise<Session> {
  const { records, sessionId, ctx } = await readWebExportRecords(absPath);
  const session = parseClaudeCode(records, { ...ctx, now, layout: { kind: 'session', sessionId }, meta: null, children: [], extraFiles: [] });
  return pointIntoDocument(session);
}

/** How Claude Code starts every file-history-snapshot line (type, messageId, snapshot, isSnapshotUpdate, in that order). */
const SNAPSHOT_PREFIX = Buffer.from('{"type":"file-history-snapshot","messageId":"');
const SNAPSHOT = { type: 'file-history-snapshot' } as const;
const CLOSE_BRACE = 0x7d;

/**
 * A file-history-snapshot line (the editor's file backups, which the reader only counts) stands in unparsed: in a realistic
 * corpus they are a quarter of a transcript's bytes. It must begin as Claude Code writes one and end with its closing
 * brace; anything else (another writer's key order, a line cut short) is parsed and, when broken, warned about as before.
 */
function snapshotStandIn(line: Buffer): Record<string, unknown> | null {
  let end = line.length - 1;
  while (end > 0 && (line[end] === 0x20 || line[end] === 0x09 || line[end] === 0x0d)) end--;
  if (line[end] !== CLOSE_BRACE || line.length < SNAPSHOT_PREFIX.length) return null;
  return line.subarray(0, SNAPSHOT_PREFIX.length).equals(SNAPSHOT_PREFIX) ? { ...SNAPSHOT } : null;
}

/** Reads one claimed file with its companions (sub-agent meta, sibling metas) and parses it. */
export async function readClaudeCodeFile(absPath: string, now = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  const { records, warnings } = await readJsonLines(absPath, { unparsed: snapshotStandIn });
  const layout = layoutOf(absPath);
  const ctx: ClaudeCodeContext = { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings, now, layout, meta: null, children: [], extraFiles: [] };
  if (layout?.kind === 'session') {
    ctx.children = await listSubagents(join(dirname(absPath), layout.sessionId, 'subagents'), layout.sessionId);
  } else if (layout?.kind === 'subagent') {
    const own = await readSubagentMeta(absPath);
    if (own?.ok) {
      ctx.meta = own.meta;
      ctx.extraFiles.push(own.file);
    } else if (own) {
      ctx.warnings = [...warnings, { code: 'bad_meta', message: `The sub-agent's ${own.reason}; its type and description are unknown.`, count: 1 }];
    }
    // Siblings this agent spawned in turn are matched to its own Task calls through their meta files.
    ctx.children = await listSubagents(dirname(absPath), layout.parentSessionId, layout.agentId);
  }
  return parseClaudeCode(records, ctx);
}

export const claudeCodeReader: SourceReader = {
  format: 'claude-code',
  capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: true },
  // Transcripts live under <config dir>/projects; CLAUDE_CONFIG_DIR moves the config dir.
  defaultRoots: (env, home) => [join(env.CLAUDE_CONFIG_DIR?.trim() || join(home, '.claude'), 'projects')],
  // Sub-agents are resumed through their parent.
  resumeCommand: (s) => (s.isSubAgent ? null : `claude --resume ${shellArg(s.id)}`),
  claims: claimsClaudeCode,
  recognizes: (head) => recognizesClaudeCode(head) || recognizesClaudeWebExport(head),
  confirmByContent: true,
  // Sub-agent meta files and workflow journals: read with their transcripts, never sniffed as sessions.
  companion: isClaudeCodeCompanion,
  // Transcripts are JSONL; a `.json` file reaches this reader only when its content is a web session document.
  read: (absPath) => (extname(absPath).toLowerCase() === '.json' ? readClaudeWebExport(absPath) : readClaudeCodeFile(absPath)),
};
