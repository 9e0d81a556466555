// Reads Grok's summary.json (current snake_case fields, with the legacy camelCase names as fallbacks) and signals.json.
import { Fields, isRecord, noUsableField, notAnObject, type WarningList } from '../coerce.ts';

export interface GrokSummary {
  id: string | null;
  cwd: string | null;
  title: string | null;
  sessionSummary: string | null;
  firstPrompt: string | null;
  lastTurnSummary: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  lastActiveAt: string | null;
  modelId: string | null;
  reasoningEffort: string | null;
  chatFormatVersion: number | null;
  sessionKind: string | null;
  parentSessionId: string | null;
  gitRoot: string | null;
  headBranch: string | null;
  headCommit: string | null;
  sourceWorkspaceDir: string | null;
  agentName: string | null;
  numChatMessages: number | null;
  /** The repository's remotes (`git_remotes`), as Codex keeps its repository URL. */
  gitRemotes: string[];
  sandboxProfile: string | null;
}

const KNOWN = [
  'info',
  'session_summary',
  'generated_title',
  'created_at',
  'updated_at',
  'last_active_at',
  'current_model_id',
  'chat_format_version',
  'session_kind',
  'parent_session_id',
  'git_root_dir',
  'head_branch',
  'head_commit',
  'num_messages',
  'num_chat_messages',
  'firstPrompt',
  'createdAt',
  'updatedAt',
  'modelId',
] as const;

/** The first of several names that holds a value; a wrong type is reported for the name that held it. */
function first(f: Fields, kind: 'string' | 'timestamp', ...names: string[]): string | null {
  for (const name of names) {
    if (!f.present(name)) continue;
    const value = kind === 'string' ? f.string(name) : f.timestamp(name);
    if (value !== null && value.trim() !== '') return value;
  }
  return null;
}

/** The summary of a folder whose summary.json cannot be used: nothing known, everything read from the transcript. */
export function emptyGrokSummary(): GrokSummary {
  return {
    id: null,
    cwd: null,
    title: null,
    sessionSummary: null,
    firstPrompt: null,
    lastTurnSummary: null,
    createdAt: null,
    updatedAt: null,
    lastActiveAt: null,
    modelId: null,
    reasoningEffort: null,
    chatFormatVersion: null,
    sessionKind: null,
    parentSessionId: null,
    gitRoot: null,
    headBranch: null,
    headCommit: null,
    sourceWorkspaceDir: null,
    agentName: null,
    numChatMessages: null,
    gitRemotes: [],
    sandboxProfile: null,
  };
}

export function readGrokSummary(value: unknown, warnings: WarningList): GrokSummary {
  if (!isRecord(value)) throw notAnObject(value, 'Grok session summary');
  const f = new Fields(value, '', warnings);
  const info = f.present('info') ? f.object('info') : null;
  const num = (name: string) => (f.present(name) ? f.number(name) : null);
  const summary: GrokSummary = {
    id: info ? first(info, 'string', 'id') : null,
    cwd: (info ? first(info, 'string', 'cwd') : null) ?? first(f, 'string', 'cwd'),
    title: first(f, 'string', 'generated_title'),
    sessionSummary: first(f, 'string', 'session_summary', 'summary'),
    firstPrompt: first(f, 'string', 'firstPrompt', 'first_prompt'),
    lastTurnSummary: first(f, 'string', 'last_turn_summary'),
    createdAt: first(f, 'timestamp', 'created_at', 'createdAt'),
    updatedAt: first(f, 'timestamp', 'updated_at', 'updatedAt'),
    lastActiveAt: first(f, 'timestamp', 'last_active_at', 'lastActiveAt'),
    modelId: first(f, 'string', 'current_model_id', 'modelId', 'model_id'),
    reasoningEffort: first(f, 'string', 'reasoning_effort'),
    chatFormatVersion: num('chat_format_version'),
    sessionKind: first(f, 'string', 'session_kind'),
    parentSessionId: first(f, 'string', 'parent_session_id'),
    gitRoot: first(f, 'string', 'git_root_dir', 'gitRootDir'),
    headBranch: first(f, 'string', 'head_branch', 'headBranch'),
    headCommit: first(f, 'string', 'head_commit'),
    sourceWorkspaceDir: first(f, 'string', 'source_workspace_dir'),
    agentName: first(f, 'string', 'agent_name'),
    numChatMessages: num('num_chat_messages'),
    gitRemotes: Array.isArray(f.raw.git_remotes) ? f.raw.git_remotes.filter((r): r is string => typeof r === 'string' && r !== '') : [],
    sandboxProfile: first(f, 'string', 'sandbox_profile'),
  };
  if (summary.id === null && summary.createdAt === null && summary.title === null && summary.sessionSummary === null && summary.cwd === null) {
    throw noUsableField(value, warnings, 'Grok', KNOWN);
  }
  return summary;
}

/** signals.json: Grok's per-session counters; the few worth showing are kept as they are. */
export function readGrokSignals(value: unknown, warnings: WarningList): Record<string, unknown> {
  if (!isRecord(value)) {
    warnings.add('bad_meta', 'signals.json does not hold a JSON object; it was ignored.');
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const key of [
    'turnCount',
    'toolCallCount',
    'toolFailureCount',
    'errorCount',
    'cancellationCount',
    'compactionCount',
    'contextTokensUsed',
    'contextWindowTokens',
    'primaryModelId',
  ]) {
    const v = value[key];
    if ((typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v !== '')) out[key] = v;
  }
  return out;
}
