// Reads Pi sessions (~/.pi/agent/sessions/--<cwd>--/<ts>_<id>.jsonl) and oh-my-pi's (~/.omp/agent/sessions/, with sub-agents).
import { join } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { statPath } from '../file-bytes.ts';
import { readJsonLines } from '../jsonl.ts';
import { shellArg } from '../shell-quote.ts';
import { UnreadableError, type SourceReader } from '../types.ts';
import { claimsPi, fileIdOf, layoutOfPi } from './pi-paths.ts';
import { recognizesPiHeader } from './pi-recognize.ts';
import { buildPiSession } from './pi-session.ts';
import { agentNameOf, childKeysOf, parentKeyOf } from './pi-subagents.ts';
import { cannotRead } from '../read-failure.ts';

/** Stats a claimed or recognised file; every failure is an UnreadableError with the reason. */
export async function statSessionFile(absPath: string): Promise<{ size: number; mtimeMs: number }> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  if (!info.isFile()) throw new UnreadableError('io_error', 'Not a regular file.');
  return { size: info.size, mtimeMs: info.mtimeMs };
}

/** Reads one Pi or oh-my-pi file with its sub-agent links. */
export async function readPiFile(absPath: string, now = Date.now()): Promise<Session> {
  const info = await statSessionFile(absPath);
  const { records, warnings } = await readJsonLines(absPath);
  const layout = layoutOfPi(absPath);
  const isSubagent = layout?.kind === 'subagent';
  const parentKey = layout?.kind === 'subagent' ? await parentKeyOf(layout.parentFile, absPath) : null;
  // Only oh-my-pi keeps sub-agents in a folder beside the session file.
  const childKeys = /[\\/]\.omp[\\/]/.test(absPath) ? await childKeysOf(absPath) : [];
  return buildPiSession(
    records,
    { path: absPath, ...info, warnings },
    {
      format: 'pi',
      fileId: fileIdOf(absPath),
      now,
      parentKey,
      childKeys,
      fallbackTitle: isSubagent ? `Sub-agent ${agentNameOf(absPath)}` : null,
      extra: {
        ...(/[\\/]\.omp[\\/]/.test(absPath) ? { fork: 'oh-my-pi' } : {}),
        ...(isSubagent ? { agent: agentNameOf(absPath) } : {}),
      },
      archived: null,
      extraFiles: [],
    },
  );
}

/** `PI_AGENT_DIR` (ccusage) names sessions folders, comma-separated; `PI_CODING_AGENT_DIR` is Pi's own agent dir. */
function piRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  const listed = (env.PI_AGENT_DIR ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (listed.length) return listed;
  const agentDir = env.PI_CODING_AGENT_DIR?.trim() || join(home, '.pi', 'agent');
  return [join(agentDir, 'sessions')];
}

export const piReader: SourceReader = {
  format: 'pi',
  capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: true },
  defaultRoots: (env, home) => [...piRoots(env, home), join(home, '.omp', 'agent', 'sessions')],
  // `pi --session <path|id>` opens a saved session by (partial) id; a sub-agent is resumed through its parent.
  resumeCommand: (s) => (s.isSubAgent ? null : `pi --session ${shellArg(s.id)}`),
  claims: claimsPi,
  recognizes: recognizesPiHeader,
  read: (absPath) => readPiFile(absPath),
};
