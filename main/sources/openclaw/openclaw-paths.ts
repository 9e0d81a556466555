// Where OpenClaw keeps transcripts (<home>/agents/<agentId>/sessions/), which of its files are sessions, and archives.
import { basename, dirname } from 'node:path';

export type OpenClawFile =
  | { kind: 'live'; agentId: string; sessionId: string }
  /** `<id>.jsonl.deleted.<ts>` / `.reset.<ts>`: a transcript OpenClaw set aside when the session was deleted or reset. */
  | { kind: 'archive'; agentId: string; sessionId: string; reason: 'deleted' | 'reset'; at: string | null };

const ARCHIVE = /^(.+)\.jsonl\.(deleted|reset)\.([0-9][0-9A-Za-z.:-]*)$/;
/** Pre-compaction copies kept beside a transcript: `<id>.checkpoint.<uuid>.jsonl`. */
const CHECKPOINT = /\.checkpoint\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

/** The agent id when the path lies directly in `agents/<agentId>/sessions/`. */
function agentIdOf(absPath: string): string | null {
  const sessions = dirname(absPath);
  const agent = dirname(sessions);
  if (basename(sessions) !== 'sessions' || basename(dirname(agent)) !== 'agents') return null;
  return basename(agent) || null;
}

/** OpenClaw writes archive times as ISO with "-" for ":" (2026-02-24T09-00-00.000Z). */
function archiveTime(raw: string): string | null {
  // Epoch seconds or milliseconds (as agent-sessions' OpenClaw fixtures name them), else OpenClaw's own ISO form.
  if (/^\d{10}$|^\d{13}$/.test(raw)) return new Date(raw.length === 10 ? Number(raw) * 1000 : Number(raw)).toISOString();
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})(\.\d{3})?Z$/.exec(raw);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[5] ?? ''}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export function openClawFileOf(absPath: string): OpenClawFile | null {
  const agentId = agentIdOf(absPath);
  if (agentId === null) return null;
  const name = basename(absPath);
  if (name.startsWith('.')) return null;
  const archive = ARCHIVE.exec(name);
  if (archive?.[1] && archive[3]) {
    if (archive[1].endsWith('.trajectory') || CHECKPOINT.test(`${archive[1]}.jsonl`)) return null;
    return { kind: 'archive', agentId, sessionId: archive[1], reason: archive[2] as 'deleted' | 'reset', at: archiveTime(archive[3]) };
  }
  if (!name.endsWith('.jsonl') || name.endsWith('.trajectory.jsonl') || CHECKPOINT.test(name)) return null;
  const sessionId = name.slice(0, -'.jsonl'.length);
  return sessionId ? { kind: 'live', agentId, sessionId } : null;
}

export function claimsOpenClaw(absPath: string): boolean {
  return openClawFileOf(absPath) !== null;
}

/** OpenClaw's own files beside its transcripts: the session store, runtime trajectories, locks, checkpoints, backups. */
export function isOpenClawCompanion(absPath: string): boolean {
  if (agentIdOf(absPath) === null || claimsOpenClaw(absPath)) return false;
  const name = basename(absPath);
  return (
    /^sessions\.json(\.bak\.\d+)?$/.test(name) ||
    /\.trajectory(\.jsonl|-path\.json)$/.test(name) ||
    name.endsWith('.jsonl.lock') ||
    CHECKPOINT.test(name) ||
    name.includes('.bak.')
  );
}
