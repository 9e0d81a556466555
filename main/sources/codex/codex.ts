// Reads Codex CLI rollouts (<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-*.jsonl and archived_sessions/, plain or compressed as .jsonl.zst) in one streaming pass.
import { recognizesCodex } from './codex-recognize.ts';
import { isExecStream, parseCodexExec, recognizesCodexExec } from './codex-exec-json.ts';
import { shellArg } from '../shell-quote.ts';
import { basename, dirname, join } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { Fields, isRecord, kindOfJson, type DocumentContext } from '../coerce.ts';
import { readEvent } from './codex-events.ts';
import { readCompacted, readResponseItem } from './codex-items.ts';
import { readSessionMeta, readTurnContext, turnSettings } from './codex-meta.ts';
import { buildCodexSession } from './codex-session.ts';
import { bump, CodexState } from './codex-state.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { UnreadableError, type SourceReader } from '../types.ts';
import { statPath } from '../file-bytes.ts';
import { cannotRead } from '../read-failure.ts';

/** A rollout, or (Codex 0.137 and later) one idle for 7 days, compressed by Codex into a zstd file of the same lines. */
const ROLLOUT_NAME = /^rollout-.+\.jsonl(?:\.zst)?$/;

/**
 * `sessions/YYYY/MM/DD/rollout-*.jsonl`, or `archived_sessions/rollout-*.jsonl` (flat, or dated like sessions/); each
 * also as `rollout-*.jsonl.zst`, read as the plain file (while both exist, the scan lists the plain one: library-sync.ts).
 */
export function claimsCodex(absPath: string): boolean {
  if (!ROLLOUT_NAME.test(basename(absPath))) return false;
  const day = dirname(absPath);
  if (basename(day) === 'archived_sessions') return true;
  const month = dirname(day);
  const year = dirname(month);
  const dated = /^\d{2}$/.test(basename(day)) && /^\d{2}$/.test(basename(month)) && /^\d{4}$/.test(basename(year));
  const root = basename(dirname(year));
  return dated && (root === 'sessions' || root === 'archived_sessions');
}

function readRecord(state: CodexState, value: Record<string, unknown>, line: number): void {
  const rec = new Fields(value, '', state.warnings);
  // Every envelope has `timestamp`; the earliest writers put `created_at` on flat records instead.
  const ts = rec.present('timestamp') ? rec.timestamp('timestamp') : rec.present('created_at') ? rec.timestamp('created_at') : null;
  if (ts !== null) {
    // Each record's time parsed once, the first and last kept with theirs: a rollout has tens of thousands of records.
    const ms = Date.parse(ts);
    if (state.firstTimestamp === null || ms < state.firstMs) {
      state.firstTimestamp = ts;
      state.firstMs = ms;
    }
    if (state.lastTimestamp === null || ms > state.lastMs) {
      state.lastTimestamp = ts;
      state.lastMs = ms;
    }
  }
  if (!Object.hasOwn(value, 'payload')) {
    // Rollouts from mid-2025 had no envelope: a bare {id, timestamp, instructions} first line, then bare items and
    // {record_type: "state"} markers.
    if (state.meta === null && typeof value.id === 'string' && value.type === undefined && value.role === undefined) {
      state.meta = readSessionMeta(rec, line);
      state.recognised++;
    } else if (typeof value.record_type === 'string') {
      bump(state.otherRecords, `record_type/${value.record_type}`);
      state.recognised++;
    } else readResponseItem(state, rec, line, ts, false);
    return;
  }
  const type = rec.string('type');
  const payload = rec.object('payload');
  if (!payload) return;
  switch (type) {
    case 'session_meta': {
      const meta = readSessionMeta(payload, line);
      // The first session_meta is this thread's own; forks and resumes append the ones they carry over.
      if (state.meta === null) {
        state.meta = meta;
        if (meta.forkedFromId) state.forkReplay = { waiting: true, forkMs: uuidV7Ms(meta.id) };
      } else state.laterMeta.push(meta);
      state.recognised++;
      return;
    }
    case 'turn_context': {
      const context = readTurnContext(payload, line);
      if (state.forkReplay.waiting) {
        // The copied history's turns were made before the fork; a turn id that cannot say when ends the wait.
        const turnMs = uuidV7Ms(context.turnId);
        const forkMs = state.forkReplay.forkMs;
        if (turnMs === null || forkMs === null || turnMs >= forkMs) state.forkReplay.waiting = false;
      }
      state.context = context;
      state.firstContextCwd ??= context.cwd;
      if (context.model !== null) {
        state.currentModel = context.model;
        state.models.add(context.model);
      }
      state.turns.context(line, ts, context.turnId, turnSettings(context));
      state.recognised++;
      return;
    }
    case 'response_item':
      return readResponseItem(state, payload, line, ts, true);
    case 'event_msg':
      return readEvent(state, payload, line, ts);
    case 'compacted':
      return readCompacted(state, payload, line, ts);
    case 'world_state':
    case 'inter_agent_communication_metadata':
      bump(state.otherRecords, type);
      state.recognised++;
      return;
    default:
      bump(state.unknownRecords, type ?? 'record without a type');
  }
}

/** The creation time a UUID v7 carries (its first 48 bits, in ms), or null for any other id. */
function uuidV7Ms(id: string | null): number | null {
  const m = id === null ? null : /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-/i.exec(id);
  return m ? parseInt(m[1]! + m[2]!, 16) : null;
}

/** Builds a session from a rollout's parsed lines (pure: tests feed malformed files through it). */
export function parseCodexRollout(records: readonly JsonLine[], ctx: DocumentContext, now: number = Date.now()): Session {
  const state = new CodexState();
  state.warnings.addAll(ctx.warnings);
  for (const { value, line } of records) {
    if (!isRecord(value)) {
      state.warnings.add('wrong_type', `A line holds ${kindOfJson(value)} where a Codex record (an object) is expected; it was skipped.`);
      continue;
    }
    readRecord(state, value, line);
  }
  return buildCodexSession(state, ctx, now, records.length);
}

/** Reads a rollout file (stat once, stream once; a `.jsonl.zst` decompressed on the way) into the canonical model. */
export async function readCodexFile(absPath: string, now: number = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  if (!info.isFile()) throw new UnreadableError('io_error', 'Not a regular file.');
  const { records, warnings } = await readJsonLines(absPath);
  const ctx = { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings };
  // `codex exec --json` output saved anywhere reaches this reader by its content.
  return isExecStream(records) ? parseCodexExec(records, ctx) : parseCodexRollout(records, ctx, now);
}

export const codexReader: SourceReader = {
  format: 'codex',
  capabilities: { tokens: true, recordedCost: false, subAgents: true, toolResults: true, thinking: true, images: true },
  // CODEX_HOME (default ~/.codex) holds sessions/YYYY/MM/DD and archived_sessions/.
  defaultRoots: (env, home) => {
    const codexHome = env.CODEX_HOME?.trim() || join(home, '.codex');
    return [join(codexHome, 'sessions'), join(codexHome, 'archived_sessions')];
  },
  resumeCommand: (s) => `codex resume ${shellArg(s.id)}`,
  claims: claimsCodex,
  recognizes: (head) => recognizesCodex(head) || recognizesCodexExec(head),
  read: (absPath) => readCodexFile(absPath),
};
