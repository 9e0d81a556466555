// Assembles one Devin session from its sessions row, its main chain's messages and its abandoned branches.
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Message, Operation, Session, SourceFile } from '../../../shared/session.ts';
import { lastSegment, titleFromText, type Fields, type WarningList } from '../coerce.ts';
import { devinTime } from './devin-time.ts';

export interface DevinPieces {
  session: Fields;
  messages: Message[];
  branches: Operation[];
  sourceFiles: SourceFile[];
  warnings: WarningList;
  now: number;
}

function firstPrompt(messages: Message[]): string | null {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const title = titleFromText(m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n'));
    if (title) return title;
  }
  return null;
}

/** Message ids as Devin wrote them, made unique where an edit copied one (its place in the chain tells them apart). */
function uniqueIds(messages: Message[]): void {
  const seen = new Set<string>();
  messages.forEach((m, i) => {
    if (seen.has(m.id)) m.id = `${m.id}#${i}`;
    seen.add(m.id);
  });
}

export function buildDevinSession(p: DevinPieces): Session {
  const s = p.session;
  const id = String(s.raw.id);
  uniqueIds(p.messages);
  const cwd = s.string('working_directory') || null;
  const model = s.string('model') || null;
  const backend = s.string('backend_type') || null;
  const agentMode = s.string('agent_mode') || null;
  const createdAt = devinTime(s.raw.created_at) ?? p.messages.find((m) => m.timestamp)?.timestamp ?? null;
  const lastActivity = devinTime(s.raw.last_activity_at);
  const lastMessage = p.messages.findLast((m) => m.timestamp)?.timestamp ?? null;
  const updatedAt =
    [lastActivity, lastMessage]
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1) ?? createdAt;
  // Devin's system prompt is the chain's first node; it stays in the conversation too, where Devin put it.
  const first = p.messages[0];
  const systemText = first?.role === 'system' ? first.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n') : '';
  const recent = updatedAt !== null && p.now - Date.parse(updatedAt) < ACTIVE_WINDOW_MS;
  const extra: Record<string, unknown> = {};
  if (backend) extra.backend = backend;
  if (agentMode) extra.agentMode = agentMode;
  if ((s.number('hidden') ?? 0) !== 0) extra.hidden = true;
  if (p.branches.length) extra.abandonedNodes = p.branches.length;
  return {
    key: `devin:${id}`,
    id,
    format: 'devin',
    formatVersion: null,
    title: titleFromText(s.string('title')) ?? firstPrompt(p.messages) ?? `Devin session ${id}`,
    project: { path: cwd, name: cwd ? lastSegment(cwd) : null, branch: null, headCommit: null },
    createdAt,
    updatedAt,
    closedAt: null,
    // Devin writes no end marker: a session runs while its own last activity is recent.
    status: recent ? 'active' : 'unknown',
    outcome: null,
    model: model || backend ? { provider: backend, name: model, parameters: agentMode ? { agentMode } : {} } : null,
    config: [],
    systemPrompt: systemText ? { path: null, hash: null, text: systemText } : null,
    toolVersion: null,
    messages: p.messages,
    operations: p.branches,
    todos: [],
    summary: null,
    artifacts: [],
    usage: null,
    cost: null,
    parentKey: null,
    childKeys: [],
    sourceFiles: p.sourceFiles,
    warnings: p.warnings.list(),
    extra,
  };
}
