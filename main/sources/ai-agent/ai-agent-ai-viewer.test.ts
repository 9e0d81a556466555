// The ai-agent snapshot reader against netdata/ai-viewer's expected event streams for the ai-agent cases of the sample corpus.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { byId, read, sampleSessions } from './ai-agent-test-read.ts';

/** One normalized event of netdata/ai-viewer's expected.jsonl. */
interface Event {
  kind: string;
  payload: Record<string, unknown>;
}

function expected(caseName: string): Event[] {
  const text = readFileSync(join(samplesDir, 'ai-agent/_expected', caseName, 'expected.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Event);
}

/** The native session an operation belongs to: the root, or the embedded sub-agent whose spawning op it sits under. */
function owner(s: Session, opId: string): string {
  const turn = byId(s, byId(s, opId)?.parentId ?? '');
  const spawn = turn?.parentId ? byId(s, turn.parentId) : undefined;
  return spawn ? String((spawn.detail as { childSession: { traceId: string } }).childSession.traceId) : s.id;
}

/** Facts both readings hold, per native session: ops in order with kind, name, tokens, cost and child link. */
function ourFacts(s: Session) {
  const facts = new Map<string, unknown[]>();
  for (const o of s.operations.filter((x) => x.type !== 'turn' && x.type !== 'step')) {
    const child = (o.detail as { childSession?: { traceId: string } }).childSession?.traceId ?? '';
    const list = facts.get(owner(s, o.id)) ?? [];
    // ai-viewer leaves system ops unnamed; we show their label.
    list.push([
      o.type,
      o.type === 'system' ? '' : o.name,
      o.usage?.input ?? 0,
      o.usage?.output ?? 0,
      o.usage?.cacheRead ?? 0,
      o.cost?.usd ?? 0,
      child,
      o.status === 'ok' ? 'completed' : o.status,
    ]);
    facts.set(owner(s, o.id), list);
  }
  return facts;
}

function theirFacts(events: Event[]) {
  const facts = new Map<string, unknown[]>();
  const started = events.filter((e) => e.kind === 'op_started');
  for (const e of started) {
    const p = e.payload;
    const done =
      events.find(
        (f) => f.kind === 'op_finalized' && f.payload.SessionNativeID === p.SessionNativeID && f.payload.TurnSeq === p.TurnSeq && f.payload.Seq === p.Seq,
      )?.payload ?? {};
    const list = facts.get(String(p.SessionNativeID)) ?? [];
    list.push([p.Kind, p.Name, done.TokensIn, done.TokensOut, done.TokensCacheRead, done.CostUSD, p.ChildSessionNativeID, done.Status]);
    facts.set(String(p.SessionNativeID), list);
  }
  return facts;
}

const CASES: Array<[string, string]> = [
  ['happy_v2_single_turn', '00000000-0000-4000-8000-000000000001'],
  ['happy_v1_legacy', '00000000-0000-4000-8000-000000000002'],
  ['embedded_sub_agent', '00000000-0000-4000-8000-000000000003'],
  ['multi_descendant_same_file', '00000000-0000-4000-8000-000000000004'],
  ['init_turn_zero', '00000000-0000-4000-8000-000000000005'],
  ['system_op_kind', '00000000-0000-4000-8000-000000000006'],
  ['tool_chars_accounting', '00000000-0000-4000-8000-000000000007'],
  ['final_report', '00000000-0000-4000-8000-000000000008'],
  ['tmp_file', '00000000-0000-4000-8000-00000000000a'],
];

describe("ai-viewer's expected event streams", () => {
  it.each(CASES)('%s: same sessions, agents, ops, tokens, costs, child links and end times', async (caseName, uuid) => {
    const events = expected(caseName);
    const s = await read(join(sampleSessions, `${uuid}.json.gz`));
    const sessions = events.filter((e) => e.kind === 'session_started').map((e) => e.payload);
    const root = sessions.find((p) => p.Kind === 'root');
    expect(root?.NativeID).toBe(s.id);
    expect(root?.AgentName).toBe(s.extra.agentId);
    expect(root?.CallPath).toBe(s.extra.callPath ?? '');
    expect(root?.Model).toBe(s.model?.name ?? '');
    // ai-viewer lists embedded sub-agents as sessions of their own; here they are the spawning op's childSession.
    const subs = (s.extra.subAgents ?? []) as Array<{ traceId: string; agentId: string; endedAt: string }>;
    expect(subs.map((a) => [a.traceId, a.agentId])).toEqual(sessions.filter((p) => p.Kind === 'sub_agent').map((p) => [p.NativeID, p.AgentName]));
    const ends = new Map(
      events.filter((e) => e.kind === 'session_finalized').map((e) => [e.payload.NativeID, new Date(Number(e.payload.EndTs) / 1000).toISOString()]),
    );
    expect(ends.get(s.id)).toBe(s.closedAt);
    for (const a of subs) expect(ends.get(a.traceId)).toBe(a.endedAt);
    expect(events.filter((e) => e.kind === 'session_finalized').every((e) => e.payload.Status === 'completed')).toBe(true);
    expect(s.outcome?.status).toBe('success');
    expect(ourFacts(s)).toEqual(theirFacts(events));
    // Turn totals: ai-viewer reports 0 where no op of the turn recorded accounting; we leave those null.
    const turns = events
      .filter((e) => e.kind === 'turn_finalized' && e.payload.SessionNativeID === s.id)
      .map((e) => [e.payload.Seq, e.payload.TokensIn, e.payload.CostUSD]);
    expect(
      s.operations
        .filter((o) => o.type === 'turn' && o.parentId === null)
        .map((o) => [(o.detail as { index: number }).index, o.usage?.input ?? 0, o.cost?.usd ?? 0]),
    ).toEqual(turns);
  });
});
