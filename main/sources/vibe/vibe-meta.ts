// Reads a Vibe session folder's meta.json (id, parent, times, git, model, working directory, title, token stats).
import { join } from 'node:path';
import type { SourceFile, TokenUsage } from '../../../shared/session.ts';
import { Fields, isRecord, type WarningList } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { readJsonFile } from '../decode.ts';
import { statPath } from '../file-bytes.ts';

export interface VibeMeta {
  sessionId: string | null;
  parentSessionId: string | null;
  startTime: string | null;
  endTime: string | null;
  gitCommit: string | null;
  gitBranch: string | null;
  model: string | null;
  workingDirectory: string | null;
  title: string | null;
  /** Session totals from `stats`: prompt tokens include the cached ones, as OpenAI-style usage reports them. */
  usage: TokenUsage | null;
  /** `stats.session_cost`: Vibe's own figure from its price table (prompt and completion tokens, caching ignored). */
  sessionCost: number | null;
  agentProfile: string | null;
  systemPrompt: string | null;
  steps: number | null;
}

export type MetaRead = { ok: true; meta: VibeMeta; file: SourceFile } | { ok: false; reason: string } | null;

function whole(stats: Fields, key: string): number | null {
  const value = stats.number(key);
  if (value === null) return null;
  if (!Number.isSafeInteger(value) || value < 0) {
    stats.warnings.add('bad_value', `Field "${stats.name(key)}" should be a whole number of at least 0 but is ${value}; it was skipped.`);
    return null;
  }
  return value;
}

function statsUsage(stats: Fields | null): TokenUsage | null {
  if (!stats) return null;
  const prompt = whole(stats, 'session_prompt_tokens');
  const completion = whole(stats, 'session_completion_tokens');
  const cached = whole(stats, 'session_cached_tokens') ?? 0;
  if (prompt === null && completion === null) return null;
  // Cached tokens are a part of the prompt tokens: split them out so they are not counted twice.
  const cacheRead = Math.min(cached, prompt ?? 0);
  return { input: (prompt ?? 0) - cacheRead, output: completion ?? 0, cacheRead, cacheWrite: 0, reasoning: 0 };
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('\n');
  return null;
}

/** The fields of a parsed meta.json; wrong types become warnings in `warnings`. */
export function readVibeMeta(value: unknown, warnings: WarningList): VibeMeta | null {
  if (!isRecord(value)) return null;
  const f = new Fields(value, 'meta.json', warnings);
  const opt = (key: string) => (f.present(key) ? f.string(key) : null);
  const time = (key: string) => (f.present(key) ? f.timestamp(key) : null);
  const env = f.present('environment') ? f.object('environment') : null;
  const config = f.present('config') ? f.object('config') : null;
  const stats = f.present('stats') ? f.object('stats') : null;
  const profile = f.present('agent_profile') ? f.object('agent_profile') : null;
  const system = f.present('system_prompt') ? f.object('system_prompt') : null;
  const cost = stats?.present('session_cost') ? stats.number('session_cost') : null;
  return {
    sessionId: opt('session_id'),
    parentSessionId: opt('parent_session_id'),
    startTime: time('start_time'),
    endTime: time('end_time'),
    gitCommit: opt('git_commit'),
    gitBranch: opt('git_branch'),
    model: opt('model') ?? (config?.present('active_model') ? config.string('active_model') : null),
    workingDirectory: (env?.present('working_directory') ? env.string('working_directory') : null) ?? opt('working_dir'),
    title: opt('title'),
    usage: statsUsage(stats),
    sessionCost: cost !== null && cost > 0 ? cost : null,
    agentProfile: profile?.present('name') ? profile.string('name') : null,
    systemPrompt: system ? text(system.raw.content) : null,
    steps: stats?.present('steps') ? whole(stats, 'steps') : null,
  };
}

/**
 * The meta.json beside a messages.jsonl: null when there is none (a session Vibe has not saved metadata for yet,
 * or a link to a file outside the folder), a reason when it cannot be read.
 */
export async function readVibeMetaFile(sessionDir: string, warnings: WarningList): Promise<MetaRead> {
  const path = join(sessionDir, 'meta.json');
  if (!(await companionInside(path, sessionDir))) return null;
  try {
    const [info, { value, warnings: decoding }] = await Promise.all([statPath(path), readJsonFile(path)]);
    warnings.addAll(decoding);
    const meta = readVibeMeta(value, warnings);
    if (!meta) return { ok: false, reason: 'meta.json does not hold a JSON object' };
    return { ok: true, meta, file: { path, size: info.size, mtimeMs: info.mtimeMs, role: 'meta' } };
  } catch (err) {
    return { ok: false, reason: `meta.json cannot be read (${(err as Error).message})` };
  }
}
