// Where Droid (Factory) keeps sessions: ~/.factory/sessions/<cwd>/<id>.jsonl, and stream-json logs under ~/.factory/projects/.
import { basename, dirname } from 'node:path';

export type DroidPlace = 'session' | 'stream';

function segments(absPath: string): string[] {
  return absPath.split(/[\\/]+/).filter((s) => s.length > 0);
}

/**
 * `.factory/sessions/<cwd with / as ->/<id>.jsonl` is an interactive session; any `.jsonl` below
 * `.factory/projects/` is a `droid exec --output-format stream-json` log (where agent-sessions looks for them).
 */
export function droidPlaceOf(absPath: string): DroidPlace | null {
  const name = basename(absPath);
  if (!name.endsWith('.jsonl') || name.startsWith('.') || name === '.jsonl') return null;
  const parts = segments(absPath);
  const factory = parts.lastIndexOf('.factory');
  if (factory < 0) return null;
  const area = parts[factory + 1];
  const depth = parts.length - factory - 2;
  if (area === 'sessions' && depth === 2) return 'session';
  if (area === 'projects' && depth >= 2) return 'stream';
  return null;
}

export function claimsDroid(absPath: string): boolean {
  return droidPlaceOf(absPath) !== null;
}

/** A session's `<id>.settings.json`: Droid's own metadata beside the transcript, never a session itself. */
export function isDroidCompanion(absPath: string): boolean {
  return basename(absPath).endsWith('.settings.json') && basename(dirname(dirname(absPath))) === 'sessions';
}

/** The session id a file name gives (`<id>.jsonl`). */
export function fileIdOf(absPath: string): string {
  return basename(absPath).replace(/\.jsonl$/, '');
}
