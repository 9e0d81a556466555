// Assembles the canonical Session from one Grok session folder: summary.json, chat_history.jsonl, updates.jsonl, signals.json, sub-agent links.
import { warnMissingContent } from '../missing-content.ts';
import { basename, dirname } from 'node:path';
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Message, Session, SourceFile, Warning } from '../../../shared/session.ts';
import { lastSegment, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import { textOf } from '../claude-code/claude-code-blocks.ts';
import type { JsonLine } from '../jsonl.ts';
import { bucketPath } from './grok-layout.ts';
import { readGrokHistory, type GrokHistory } from './grok-history.ts';
import { grokKey, type SubagentLink } from './grok-subagents.ts';
import type { GrokSummary } from './grok-summary.ts';
import { applyTimes, applyToolStatus, applyTurnUsage } from './grok-timing.ts';
import type { GrokUpdates } from './grok-updates.ts';

export interface GrokFolder {
  now: number;
  /** summary.json, the session's primary file. */
  summaryFile: DocumentContext;
  summary: GrokSummary;
  history: { records: JsonLine[]; file: SourceFile; warnings: Warning[] } | null;
  /** Why chat_history.jsonl could not be read, when it exists but is unusable. */
  historyProblem: string | null;
  updates: { data: GrokUpdates; file: SourceFile } | null;
  signals: { values: Record<string, unknown>; file: SourceFile } | null;
  parent: SubagentLink | null;
  children: Array<{ id: string; link: SubagentLink | null }>;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function latest(...times: Array<string | null>): string | null {
  return times.reduce<string | null>((a, b) => (a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a), null);
}

function mostUsedModel(messages: Message[]): string | null {
  const counts = new Map<string, number>();
  for (const m of messages) if (m.model) counts.set(m.model, (counts.get(m.model) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** Running: its files changed within the window, its own records are that recent too, and a turn is open. */
function isRunning(folder: GrokFolder, messages: Message[], lastOwn: string | null, files: SourceFile[]): boolean {
  const newest = Math.max(...files.map((f) => f.mtimeMs));
  if (folder.now - newest >= ACTIVE_WINDOW_MS) return false;
  if (lastOwn !== null && folder.now - Date.parse(lastOwn) >= ACTIVE_WINDOW_MS) return false;
  if (folder.updates?.data.lastKind) return folder.updates.data.lastKind !== 'turn_completed';
  const last = messages.filter((m) => m.role !== 'system').at(-1);
  return !(last?.role === 'assistant' && !last.parts.some((p) => p.type === 'tool_call'));
}

/**
 * A folder without its transcript: the first prompt summary.json recorded, as the one message there is to show (as
 * agentsview does), marked as taken from the summary.
 */
function summaryPrompt(summary: GrokSummary): Message[] | null {
  const text = summary.firstPrompt?.trim();
  if (!text) return null;
  return [
    {
      id: 'summary-first-prompt',
      role: 'user',
      timestamp: summary.createdAt,
      model: null,
      usage: null,
      cost: null,
      parts: [{ type: 'text', text }],
      agentId: null,
      origin: { fileIndex: 0, line: null, pointer: null },
      annotations: { from: 'summary.json' },
    },
  ];
}

function warnAbout(history: GrokHistory | null, folder: GrokFolder, warnings: WarningList): void {
  if (folder.historyProblem)
    warnings.add(
      'transcript_unreadable',
      `chat_history.jsonl cannot be read (${folder.historyProblem}); only the summary (and the first prompt it recorded) is shown.`,
    );
  else if (!folder.history)
    warnings.add('transcript_missing', 'The session folder has no chat_history.jsonl; only the summary (and the first prompt it recorded) is shown.');
  if (!history) return;
  for (const [type, n] of history.unknownTypes) warnings.add('unknown_record_type', `Unknown Grok chat_history row "${type}" (${plural(n, 'row')}) ignored.`);
  warnMissingContent(warnings, 'A Grok chat_history row', { count: history.empty });
  const bad = folder.updates?.data.badLines ?? 0;
  if (bad) warnings.add('invalid_line', `${plural(bad, 'line')} of updates.jsonl are not valid JSON and were skipped.`);
}

export function buildGrokSession(folder: GrokFolder): Session {
  const { summary } = folder;
  const warnings = new WarningList();
  warnings.addAll(folder.summaryFile.warnings);
  const sessionDir = dirname(folder.summaryFile.path);
  const id = basename(sessionDir);
  if (summary.id !== null && summary.id !== id)
    warnings.add('id_mismatch', `The folder is session ${id} but its summary.json says ${summary.id}; the folder's id is used.`);

  const sourceFiles: SourceFile[] = [primarySourceFile(folder.summaryFile)];
  let history: GrokHistory | null = null;
  if (folder.history) {
    warnings.addAll(folder.history.warnings);
    history = readGrokHistory(folder.history.records, sourceFiles.length, warnings);
    sourceFiles.push(folder.history.file);
  }
  const messages = history?.messages ?? summaryPrompt(summary) ?? [];
  let usage = null;
  let cost = null;
  if (folder.updates) {
    sourceFiles.push(folder.updates.file);
    applyTimes(messages, folder.updates.data.anchors);
    applyToolStatus(messages, folder.updates.data.toolStatus);
    ({ usage, cost } = applyTurnUsage(messages, history?.turnEnds ?? [], folder.updates.data, summary.modelId, warnings));
  }
  if (folder.signals) sourceFiles.push(folder.signals.file);
  if (folder.parent) sourceFiles.push(folder.parent.file);
  for (const child of folder.children) if (child.link) sourceFiles.push(child.link.file);
  warnAbout(history, folder, warnings);

  const isSubagent = summary.sessionKind === 'subagent';
  const parentId = folder.parent?.parentId ?? (isSubagent ? summary.parentSessionId : null);
  const prompt = messages.find((m) => m.role === 'user' && textOf(m.parts).trim() !== '');
  const path = summary.cwd ?? summary.gitRoot ?? bucketPath(sessionDir);
  const model = summary.modelId ?? (folder.signals?.values.primaryModelId as string | undefined) ?? mostUsedModel(messages);
  const lastOwn = latest(summary.updatedAt, summary.lastActiveAt, folder.updates?.data.lastAt ?? null);

  const extra: Record<string, unknown> = {};
  if (summary.sessionKind) extra.sessionKind = summary.sessionKind;
  if (summary.agentName) extra.agentName = summary.agentName;
  if (summary.gitRemotes.length) extra.gitRemotes = summary.gitRemotes;
  if (summary.sandboxProfile) extra.sandboxProfile = summary.sandboxProfile;
  if (summary.sourceWorkspaceDir && summary.sourceWorkspaceDir !== path) extra.sourceWorkspace = summary.sourceWorkspaceDir;
  // A parent that is no sub-agent link is the session this one was forked from (/fork, --fork-session).
  if (summary.parentSessionId && !isSubagent) extra.forkedFrom = grokKey(summary.parentSessionId);
  if (folder.parent?.subagentType) extra.subagentType = folder.parent.subagentType;
  const kids = folder.children.flatMap((c) =>
    c.link?.subagentType || c.link?.description ? [{ id: c.id, type: c.link.subagentType, description: c.link.description }] : [],
  );
  if (kids.length) extra.subAgents = kids;
  if (folder.signals && Object.keys(folder.signals.values).length) extra.signals = folder.signals.values;
  if (summary.numChatMessages !== null) extra.chatMessagesRecorded = summary.numChatMessages;

  return {
    key: grokKey(id),
    id,
    format: 'grok',
    formatVersion: summary.chatFormatVersion !== null ? String(summary.chatFormatVersion) : null,
    title:
      [summary.title, summary.sessionSummary, folder.parent?.description ?? null, prompt ? textOf(prompt.parts) : null, summary.firstPrompt]
        .map((t) => titleFromText(t))
        .find((t) => t !== null) ?? `Grok session ${id.slice(0, 8)}`,
    project: { path, name: path ? lastSegment(path) : null, branch: summary.headBranch, headCommit: summary.headCommit },
    createdAt: summary.createdAt ?? messages.find((m) => m.timestamp)?.timestamp ?? null,
    updatedAt: lastOwn ?? summary.createdAt,
    closedAt: null,
    status: isRunning(
      folder,
      messages,
      lastOwn,
      sourceFiles.filter((f) => dirname(f.path) === sessionDir),
    )
      ? 'active'
      : 'closed',
    outcome: null,
    model: model ? { provider: 'xai', name: model, parameters: summary.reasoningEffort ? { reasoningEffort: summary.reasoningEffort } : {} } : null,
    config: [],
    systemPrompt: history?.systemPrompt ? { path: null, hash: null, text: history.systemPrompt } : null,
    toolVersion: null,
    messages,
    operations: [],
    todos: [],
    summary: summary.lastTurnSummary ? { overview: summary.lastTurnSummary, decisions: [], outcomes: [], openItems: [], tags: [] } : null,
    artifacts: [],
    usage,
    cost,
    parentKey: parentId ? grokKey(parentId) : null,
    childKeys: folder.children.map((c) => grokKey(c.id)),
    sourceFiles,
    warnings: warnings.list(),
    extra,
  };
}
