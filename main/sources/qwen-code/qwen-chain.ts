// Rebuilds the conversation Qwen Code would load: the active uuid/parentUuid chain after rewinds, this session's records only.
import { isRecord, kindOfJson, type WarningList } from '../coerce.ts';
import type { QwenLine } from './qwen-lines.ts';

export interface QwenRecord {
  raw: Record<string, unknown>;
  uuid: string;
  parentUuid: string | null;
  /** The record has no `parentUuid` field at all (Qwen Code always writes one, `null` for a root): its place is its line. */
  unlinked: boolean;
  type: string;
  subtype: string | null;
  line: number;
  /** A sub-agent's record (a sidechain off the parent conversation). */
  sidechain: boolean;
}

export interface QwenChain {
  /** Records of the conversation, in file order: the active chain and the sub-agents' records. */
  records: QwenRecord[];
  /** Records of branches a rewind left behind (parentless metadata records off the chain are not counted). */
  dropped: number;
  /** Records naming another session (they belong to that session, not this file's); `lastWritten` is the latest time among them. */
  foreign: { count: number; ids: string[]; lastWritten: string | null };
  /** Every record of this session, for its first and last times. */
  all: QwenRecord[];
}

/** Writer state records (artifact events and snapshots) are never the conversation's leaf. */
const ARTIFACT = new Set(['session_artifact_event', 'session_artifact_snapshot']);
/** Record types that are turns of the conversation: each can be its leaf, a root or not. */
const TURNS = new Set(['user', 'assistant', 'tool_result']);

function recordOf(value: unknown, line: number, warnings: WarningList, unknown: Map<string, number>): QwenRecord | null {
  if (!isRecord(value)) {
    warnings.add('wrong_type', `A line holds ${kindOfJson(value)} where a Qwen Code chat record (an object) is expected; it was skipped.`);
    return null;
  }
  if (typeof value.uuid !== 'string' || typeof value.type !== 'string') {
    const kind = typeof value.type === 'string' ? `"${value.type}" without a uuid` : 'record without a uuid or type';
    unknown.set(kind, (unknown.get(kind) ?? 0) + 1);
    return null;
  }
  return {
    raw: value,
    uuid: value.uuid,
    parentUuid: typeof value.parentUuid === 'string' && value.parentUuid !== '' ? value.parentUuid : null,
    unlinked: !('parentUuid' in value),
    type: value.type,
    subtype: typeof value.subtype === 'string' ? value.subtype : null,
    line,
    sidechain: value.isSidechain === true,
  };
}

/** A logical message written in several records with one uuid (streamed parts): parts joined, the latest usage and time. */
function aggregate(fragments: QwenRecord[]): QwenRecord {
  const [first, ...rest] = fragments as [QwenRecord, ...QwenRecord[]];
  if (!rest.length) return first;
  const raw: Record<string, unknown> = { ...first.raw };
  let parts: unknown[] = isRecord(raw.message) && Array.isArray(raw.message.parts) ? [...raw.message.parts] : [];
  for (const f of rest) {
    if (isRecord(f.raw.message) && Array.isArray(f.raw.message.parts)) parts = [...parts, ...f.raw.message.parts];
    if (f.raw.usageMetadata != null) raw.usageMetadata = f.raw.usageMetadata;
    if (raw.toolCallResult == null && f.raw.toolCallResult != null) raw.toolCallResult = f.raw.toolCallResult;
    if (!raw.model && typeof f.raw.model === 'string') raw.model = f.raw.model;
    if (typeof f.raw.timestamp === 'string' && (typeof raw.timestamp !== 'string' || f.raw.timestamp > raw.timestamp)) raw.timestamp = f.raw.timestamp;
  }
  raw.message = { ...(isRecord(raw.message) ? raw.message : {}), parts };
  return { ...first, raw };
}

/** A main record written without a `parentUuid` field follows the main record before it (of another uuid), as its line says. */
function linkUnlinked(main: QwenRecord[]): QwenRecord[] {
  let previous: string | null = null;
  return main.map((r) => {
    const linked = r.unlinked && previous !== r.uuid ? { ...r, parentUuid: previous } : r;
    previous = r.uuid;
    return linked;
  });
}

export function activeChain(lines: readonly QwenLine[], sessionId: string, warnings: WarningList): QwenChain {
  const unknown = new Map<string, number>();
  const foreignIds = new Set<string>();
  let foreign = 0;
  let foreignLast: string | null = null;
  const all: QwenRecord[] = [];
  for (const { value, line } of lines) {
    const rec = recordOf(value, line, warnings, unknown);
    if (!rec) continue;
    const owner = typeof rec.raw.sessionId === 'string' ? rec.raw.sessionId : null;
    if (owner !== null && owner.toLowerCase() !== sessionId.toLowerCase()) {
      foreign++;
      foreignIds.add(owner);
      const at = typeof rec.raw.timestamp === 'string' ? Date.parse(rec.raw.timestamp) : Number.NaN;
      if (!Number.isNaN(at) && (foreignLast === null || at > Date.parse(foreignLast))) foreignLast = new Date(at).toISOString();
      continue;
    }
    all.push(rec);
  }
  for (const [kind, n] of unknown) warnings.add('unknown_record_type', `Unknown Qwen Code chat line (${kind}): ${n} ignored.`);
  const conversation = all.filter((r) => !(r.type === 'system' && r.subtype !== null && ARTIFACT.has(r.subtype)));
  const main = linkUnlinked(conversation.filter((r) => !r.sidechain));
  const fragments = new Map<string, QwenRecord[]>();
  for (const r of main) fragments.set(r.uuid, [...(fragments.get(r.uuid) ?? []), r]);
  // A system record hanging from nothing in the file (a title or other metadata written with no parent) is no turn
  // of any branch: it never becomes the leaf, which would make the chain that one record and drop the conversation.
  const canLead = (r: QwenRecord) => TURNS.has(r.type) || r.subtype === 'rewind' || (r.parentUuid !== null && fragments.has(r.parentUuid));
  const chain: QwenRecord[] = [];
  const seen = new Set<string>();
  for (let uuid: string | null = main.findLast(canLead)?.uuid ?? null; uuid !== null && !seen.has(uuid);) {
    seen.add(uuid);
    const found = fragments.get(uuid);
    if (!found) {
      warnings.add('broken_chain', `The conversation's chain of records breaks: record ${uuid} is not in the file, so the records before it are not shown.`);
      break;
    }
    chain.push(aggregate(found));
    uuid = found[0]!.parentUuid;
  }
  chain.reverse();
  const offChain = main.filter((r) => !seen.has(r.uuid));
  const dropped = new Set(offChain.filter(canLead).map((r) => r.uuid)).size;
  // Metadata records off the chain still tell the session's title, parent or model, in their place in the file.
  const detached = offChain.filter((r) => !canLead(r));
  const records = [...chain, ...detached, ...conversation.filter((r) => r.sidechain)].sort((a, b) => a.line - b.line);
  return { records, dropped, foreign: { count: foreign, ids: [...foreignIds], lastWritten: foreignLast }, all };
}
