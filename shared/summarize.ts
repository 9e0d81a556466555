// Derives the list's light SessionSummary from a full Session (pure; both sides use it).
import type { Session, SessionSummary, TokenUsage } from './session.ts';

/** Every bucket summed; null when none is recorded, or when damaged counts (1e308) add up past any number. */
export function totalTokens(usage: TokenUsage | null): number | null {
  if (!usage) return null;
  const total = usage.input + usage.output + usage.cacheRead + usage.cacheWrite + usage.reasoning;
  return Number.isFinite(total) ? total : null;
}

export function countToolCalls(session: Session): number {
  let n = 0;
  for (const m of session.messages) for (const p of m.parts) if (p.type === 'tool_call') n++;
  return n;
}

function firstLine(text: string | null, max = 200): string | null {
  if (!text) return null;
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function toSummary(session: Session): SessionSummary {
  const primary = session.sourceFiles.find((f) => f.role === 'primary') ?? session.sourceFiles[0];
  return {
    key: session.key,
    id: session.id,
    format: session.format,
    title: session.title,
    projectPath: session.project.path,
    projectName: session.project.name,
    branch: session.project.branch,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt ?? session.closedAt ?? session.createdAt,
    status: session.status,
    outcomeStatus: session.outcome?.status ?? null,
    outcomeSummary: firstLine(session.outcome?.summary ?? session.summary?.overview ?? null),
    model: session.model?.name ?? null,
    messageCount: session.messages.length,
    toolCallCount: countToolCalls(session),
    totalTokens: totalTokens(session.usage),
    costUsd: session.cost?.usd ?? null,
    parentKey: session.parentKey,
    childCount: session.childKeys.length,
    warningCount: session.warnings.length,
    kept: false,
    sourceGone: false,
    starred: false,
    tags: [],
    hasNote: false,
    primaryPath: primary?.path ?? '',
    size: session.sourceFiles.reduce((sum, f) => sum + f.size, 0),
    mtimeMs: primary?.mtimeMs ?? 0,
    unreadable: null,
  };
}
