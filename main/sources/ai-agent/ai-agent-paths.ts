// Where ai-agent keeps its files: which paths are snapshots or v3 ledgers, and the sessions root payload refs resolve against.
import { dirname } from 'node:path';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SNAPSHOT_NAME = new RegExp(`^${UUID}\\.json\\.gz$`, 'i');
const LEDGER_NAME = new RegExp(`^${UUID}\\.jsonl$`, 'i');

/** Path segments split on either separator, so Windows paths are judged the same way. */
function segments(absPath: string): string[] {
  return absPath.split(/[\\/]+/).filter((s) => s.length > 0);
}

/** The writer's `<file>.tmp-<pid>-<ms>` and any other `.tmp` leftover; never a finished file. */
export function isTempName(name: string): boolean {
  return /\.tmp(?:-[^\\/]*)?$/i.test(name);
}

/**
 * `<...>/sessions/<originId>.json.gz`: the snapshot name must look like an origin id (a UUID) so
 * unrelated gzip files in a folder called `sessions` are left alone; inside `~/.ai-agent/sessions`
 * any `*.json.gz` is ai-agent's. Payload bodies (`payloads/<id>/turn-NNNN/*.gz`) never match.
 */
export function claimsSnapshot(absPath: string): boolean {
  const parts = segments(absPath);
  const name = parts.at(-1) ?? '';
  if (parts.at(-2) !== 'sessions' || isTempName(name) || name.startsWith('.')) return false;
  if (SNAPSHOT_NAME.test(name)) return true;
  return parts.at(-3) === '.ai-agent' && name.toLowerCase().endsWith('.json.gz');
}

/** `<...>/session/<sessionId>.jsonl` (v3 ledger); inside `~/.ai-agent/sessions/session/` any `*.jsonl`. */
export function claimsLedger(absPath: string): boolean {
  const parts = segments(absPath);
  const name = parts.at(-1) ?? '';
  if (parts.at(-2) !== 'session' || isTempName(name) || name.startsWith('.')) return false;
  if (LEDGER_NAME.test(name)) return true;
  return parts.at(-3) === 'sessions' && parts.at(-4) === '.ai-agent' && name.toLowerCase().endsWith('.jsonl');
}

/** The folder payload refs are relative to: the snapshot's own folder. */
export function snapshotRoot(absPath: string): string {
  return dirname(absPath);
}

/** The folder payload refs are relative to: the parent of the ledger's `session/` folder. */
export function ledgerRoot(absPath: string): string {
  return dirname(dirname(absPath));
}
