// Where a Claude Code transcript sits under <config>/projects, and the sub-agent files and meta beside it.
import { basename, dirname, extname, join } from 'node:path';
import type { SourceFile } from '../../../shared/session.ts';
import { isRecord } from '../coerce.ts';
import { readJsonFile } from '../decode.ts';
import { statPath, listFolder } from '../file-bytes.ts';
import { companionInside } from '../companion.ts';

export type ClaudeCodeLayout =
  { kind: 'session'; sessionId: string } | { kind: 'subagent'; parentSessionId: string; agentId: string; workflowRun: string | null };

/**
 * What `agent-<id>.meta.json` says about a sub-agent: {agentType, description?, toolUseId?, spawnDepth?} for a
 * Task sub-agent, {label, phase, model} for an agent a workflow run started.
 */
export interface SubagentMeta {
  agentType: string | null;
  description: string | null;
  toolUseId: string | null;
  spawnDepth: number | null;
  /** The workflow run (`subagents/workflows/<run>/`) that started this agent, if a workflow did. */
  workflowRun: string | null;
  /** The workflow's name for the agent's step (`phase`), if a workflow started it. */
  workflowPhase: string | null;
}

export interface SubagentFile {
  agentId: string;
  /** Its workflow run's folder name, for agents a workflow started. */
  workflowRun: string | null;
  key: string;
  meta: SubagentMeta | null;
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

export function sessionKey(sessionId: string): string {
  return `claude-code:${sessionId}`;
}

export function agentKey(parentSessionId: string, agentId: string): string {
  return `claude-code:${parentSessionId}/agent-${agentId}`;
}

/**
 * `<encoded-cwd>` folders sit directly in `projects`; Claude Code replaces separators, spaces and
 * punctuation with "-", so a folder name with whitespace is someone else's. Factory's Droid keeps the same
 * shape in `~/.factory/projects/`, which is Droid's, not Claude Code's.
 */
function isProjectFolder(dir: string): boolean {
  const name = basename(dir);
  const projects = dirname(dir);
  return basename(projects) === 'projects' && basename(dirname(projects)) !== '.factory' && name.length > 0 && !/\s/.test(name);
}

/**
 * `projects/<encoded-cwd>/<sessionId>.jsonl`, `projects/<encoded-cwd>/<sessionId>/subagents/agent-<id>.jsonl`, or a
 * workflow run's agent `projects/<encoded-cwd>/<sessionId>/subagents/workflows/<run>/agent-<id>.jsonl` (beside it
 * the run's `journal.jsonl`, which is no transcript); anything else (temp files, `_expected/`, ProjectHub's
 * `.projecthub/transcripts/`) is null.
 */
export function layoutOf(absPath: string): ClaudeCodeLayout | null {
  if (extname(absPath) !== '.jsonl') return null;
  const name = basename(absPath);
  const dir = dirname(absPath);
  const agent = AGENT_FILE.exec(name);
  if (agent?.[1] && basename(dir) === 'subagents') {
    const sessionDir = dirname(dir);
    return isProjectFolder(dirname(sessionDir)) ? { kind: 'subagent', parentSessionId: basename(sessionDir), agentId: agent[1], workflowRun: null } : null;
  }
  const subagents = dirname(dirname(dir));
  if (agent?.[1] && basename(dirname(dir)) === 'workflows' && basename(subagents) === 'subagents') {
    const sessionDir = dirname(subagents);
    if (!isProjectFolder(dirname(sessionDir))) return null;
    return { kind: 'subagent', parentSessionId: basename(sessionDir), agentId: agent[1], workflowRun: basename(dir) };
  }
  const sessionId = basename(name, '.jsonl');
  return sessionId.length > 0 && isProjectFolder(dir) ? { kind: 'session', sessionId } : null;
}

/**
 * Claude Code's own files beside its sub-agent transcripts that are not sessions: each agent's
 * `agent-<id>.meta.json` and a workflow run's `journal.jsonl`. They are read through their session, never
 * recognised by content (a big machine holds thousands of meta files).
 */
export function isClaudeCodeCompanion(absPath: string): boolean {
  const name = basename(absPath);
  const dir = dirname(absPath);
  const meta = /^agent-(.+)\.meta\.json$/.exec(name);
  if (meta?.[1]) return layoutOf(join(dir, `agent-${meta[1]}.jsonl`))?.kind === 'subagent';
  return name === 'journal.jsonl' && workflowRunOf(absPath) !== null && layoutOf(join(dir, 'agent-journal.jsonl'))?.kind === 'subagent';
}

export function metaPathOf(agentJsonlPath: string): string {
  return agentJsonlPath.replace(/\.jsonl$/, '.meta.json');
}

function readMetaValue(value: unknown, workflowRun: string | null): SubagentMeta | null {
  if (!isRecord(value)) return null;
  const text = (k: string) => (typeof value[k] === 'string' ? (value[k] as string) : null);
  return {
    agentType: text('agentType') ?? (workflowRun !== null ? 'workflow agent' : null),
    // A workflow names its agents by label.
    description: text('description') ?? text('label'),
    toolUseId: text('toolUseId'),
    spawnDepth: typeof value.spawnDepth === 'number' && Number.isFinite(value.spawnDepth) ? value.spawnDepth : null,
    workflowRun,
    workflowPhase: workflowRun !== null ? text('phase') : null,
  };
}

/** The workflow run a sub-agent transcript belongs to (its folder under `subagents/workflows/`), if any. */
function workflowRunOf(agentJsonlPath: string): string | null {
  const runDir = dirname(agentJsonlPath);
  return basename(dirname(runDir)) === 'workflows' && basename(dirname(dirname(runDir))) === 'subagents' ? basename(runDir) : null;
}

export type MetaResult = { ok: true; meta: SubagentMeta; file: SourceFile } | { ok: false; reason: string } | null;

/**
 * The meta file of one sub-agent transcript: null when there is none (or it is a link to a file outside the
 * sub-agent's folder, which is not its meta), a reason when it cannot be used.
 */
export async function readSubagentMeta(agentJsonlPath: string): Promise<MetaResult> {
  const path = metaPathOf(agentJsonlPath);
  if (!(await companionInside(path, dirname(agentJsonlPath)))) return null;
  let info;
  try {
    info = await statPath(path);
  } catch {
    return null;
  }
  try {
    const { value } = await readJsonFile(path);
    const meta = readMetaValue(value, workflowRunOf(agentJsonlPath));
    if (!meta) return { ok: false, reason: `${basename(path)} does not hold a JSON object` };
    return { ok: true, meta, file: { path, size: info.size, mtimeMs: info.mtimeMs, role: 'meta' } };
  } catch (err) {
    return { ok: false, reason: `${basename(path)} cannot be read (${(err as Error).message})` };
  }
}

/** The agent transcripts directly in one folder (but `exceptAgentId`), each with its meta when readable. */
async function agentsIn(dir: string, parentSessionId: string, workflowRun: string | null, exceptAgentId?: string): Promise<SubagentFile[]> {
  let names: string[];
  try {
    names = await listFolder(dir);
  } catch {
    return []; // most sessions never spawned a sub-agent
  }
  const agents = names
    .map((name) => ({ name, agentId: AGENT_FILE.exec(name)?.[1] }))
    .filter((a): a is { name: string; agentId: string } => a.agentId !== undefined && a.agentId !== exceptAgentId)
    .sort((a, b) => a.name.localeCompare(b.name));
  return Promise.all(
    agents.map(async ({ name, agentId }) => {
      const result = await readSubagentMeta(join(dir, name));
      return { agentId, workflowRun, key: agentKey(parentSessionId, agentId), meta: result?.ok ? result.meta : null };
    }),
  );
}

/**
 * The sub-agent transcripts of a session: `<sessionId>/subagents/agent-*.jsonl` (Task sub-agents) and
 * `<sessionId>/subagents/workflows/<run>/agent-*.jsonl` (agents workflow runs started), but `exceptAgentId`.
 */
export async function listSubagents(subagentsDir: string, parentSessionId: string, exceptAgentId?: string): Promise<SubagentFile[]> {
  const direct = await agentsIn(subagentsDir, parentSessionId, null, exceptAgentId);
  let runs: string[];
  try {
    runs = (await listFolder(join(subagentsDir, 'workflows'))).sort();
  } catch {
    return direct; // no workflow ever ran in this session
  }
  const inRuns = await Promise.all(runs.map((run) => agentsIn(join(subagentsDir, 'workflows', run), parentSessionId, run, exceptAgentId)));
  return [...direct, ...inRuns.flat()];
}
