// Where Pi and oh-my-pi keep session files, and what a path says about one (its id, whether it is an oh-my-pi sub-agent).
import { basename, dirname } from 'node:path';

export type PiLayout =
  | { kind: 'session' }
  /** oh-my-pi writes a sub-agent's transcript into a folder named after its parent's file: `<parent>/<agent>.jsonl`. */
  | { kind: 'subagent'; parentFile: string };

function segments(absPath: string): string[] {
  return absPath.split(/[\\/]+/).filter((s) => s.length > 0);
}

/** Index of the `sessions` folder in `<home>/<.pi|.omp>/agent/sessions/`, or -1. */
function agentSessionsAt(parts: readonly string[], home: '.pi' | '.omp'): number {
  for (let i = parts.length - 1; i >= 2; i--) {
    if (parts[i] === 'sessions' && parts[i - 1] === 'agent' && parts[i - 2] === home) return i;
  }
  return -1;
}

function isJsonl(name: string): boolean {
  return name.endsWith('.jsonl') && name.length > '.jsonl'.length && !name.startsWith('.');
}

/** An oh-my-pi file: `~/.omp/agent/sessions/<project>/<file>.jsonl`, or nested below a parent's folder (sub-agents, any depth). */
function ompLayout(absPath: string): PiLayout | null {
  const parts = segments(absPath);
  const at = agentSessionsAt(parts, '.omp');
  const depth = parts.length - 1 - at;
  if (at < 0 || depth < 2 || !isJsonl(parts.at(-1)!)) return null;
  return depth === 2 ? { kind: 'session' } : { kind: 'subagent', parentFile: `${dirname(absPath)}.jsonl` };
}

/**
 * A Pi file: `<agent dir>/sessions/<project>/<file>.jsonl` where the agent dir is `~/.pi/agent` or any folder
 * (`PI_CODING_AGENT_DIR`) whose project folders carry Pi's `--<cwd with - for />--` names.
 */
function piLayout(absPath: string): PiLayout | null {
  const name = basename(absPath);
  if (!isJsonl(name)) return null;
  const project = basename(dirname(absPath));
  if (basename(dirname(dirname(absPath))) !== 'sessions' || project.length === 0) return null;
  const parts = segments(absPath);
  const underPiHome = agentSessionsAt(parts, '.pi') === parts.length - 3;
  return underPiHome || /^--.*--$/.test(project) ? { kind: 'session' } : null;
}

export function layoutOfPi(absPath: string): PiLayout | null {
  return ompLayout(absPath) ?? piLayout(absPath);
}

export function claimsPi(absPath: string): boolean {
  return layoutOfPi(absPath) !== null;
}

/** Pi names files `<header timestamp>_<session id>.jsonl`; the id is the part after the timestamp, else the whole stem. */
export function fileIdOf(absPath: string): string {
  const stem = basename(absPath).replace(/\.jsonl$/, '');
  const match = /^\d{4}-\d{2}-\d{2}T[\d-]+Z_(.+)$/.exec(stem);
  return match?.[1] ?? stem;
}
