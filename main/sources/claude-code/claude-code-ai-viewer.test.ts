// The Claude Code reader against netdata/ai-viewer's expected events for the Claude Code cases of the sample corpus.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { isPrompt } from './claude-code-facts.ts';
import { readSample as read } from './claude-code-sample-read.ts';

/** One normalized event of netdata/ai-viewer's expected.jsonl. */
interface ExpectedEvent {
  kind: string;
  payload: Record<string, unknown>;
}

function loadExpected(caseName: string): ExpectedEvent[] {
  const text = readFileSync(join(samplesDir, 'claude-code/_expected', caseName, 'expected.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ExpectedEvent);
}

/** ai-viewer names a sub-agent "<parent>:agent:<id>"; our key is "claude-code:<parent>/agent-<id>". */
const keyOf = (nativeId: string) => `claude-code:${nativeId.replace(':agent:', '/agent-')}`;

interface ExpectedSession {
  parent: string | null;
  cwd: string;
  extras: Record<string, unknown>;
  models: Set<string>;
  llmOps: number;
  toolOps: number;
  turns: number;
  tokens: [number, number, number, number];
  children: string[];
  compactions: Array<{ trigger: unknown; preTokens: unknown }>;
  updates: Record<string, unknown>;
  agentName: string;
}

function expectedSessions(events: ExpectedEvent[]): Map<string, ExpectedSession> {
  const sessions = new Map<string, ExpectedSession>();
  const llm = new Set<string>();
  for (const { kind, payload: p } of events) {
    const id = String(p.NativeID ?? p.SessionNativeID ?? '');
    if (kind === 'session_started') {
      sessions.set(id, {
        parent: p.ParentNativeID ? String(p.ParentNativeID) : null,
        cwd: String(p.Cwd),
        extras: (p.Extras ?? {}) as Record<string, unknown>,
        models: new Set(),
        llmOps: 0,
        toolOps: 0,
        turns: 0,
        tokens: [0, 0, 0, 0],
        children: [],
        compactions: [],
        updates: {},
        agentName: '',
      });
      continue;
    }
    const s = sessions.get(id);
    if (!s) continue;
    if (kind === 'turn_started') s.turns++;
    if (kind === 'session_updated') {
      Object.assign(s.updates, p.Extras ?? {});
      if (p.AgentName) s.agentName = String(p.AgentName);
    }
    if (kind === 'op_started' && p.Kind === 'llm') {
      s.llmOps++;
      s.models.add(String(p.Model));
      llm.add(`${id}:${p.TurnSeq}:${p.Seq}`);
    }
    if (kind === 'op_started' && (p.Kind === 'tool' || p.Kind === 'session')) s.toolOps++;
    if (kind === 'op_started' && p.ChildSessionNativeID) s.children.push(String(p.ChildSessionNativeID));
    if (kind === 'op_started' && p.Kind === 'compaction') {
      const extras = p.Extras as Record<string, unknown>;
      s.compactions.push({ trigger: extras.trigger, preTokens: extras.preTokens });
    }
    if (kind === 'op_finalized' && llm.has(`${id}:${p.TurnSeq}:${p.Seq}`)) {
      const t = s.tokens;
      s.tokens = [t[0] + Number(p.TokensIn), t[1] + Number(p.TokensOut), t[2] + Number(p.TokensCacheRead), t[3] + Number(p.TokensCacheWrite)];
    }
  }
  return sessions;
}

const CASES: Array<[string, string[]]> = [
  ['a_happy_single', ['-home-user-src-demo/11111111-1111-4111-8111-111111111111.jsonl']],
  [
    'b_subagent_sidechain',
    [
      '-home-user-src-demo/22222222-2222-4222-8222-222222222222.jsonl',
      '-home-user-src-demo/22222222-2222-4222-8222-222222222222/subagents/agent-a1b2c3d4e5f6071.jsonl',
    ],
  ],
  ['c_compaction', ['-home-user-src-demo/33333333-3333-4333-8333-333333333333.jsonl']],
  ['d_cwd_change', ['-home-user-src-demo/44444444-4444-4444-8444-444444444444.jsonl']],
  ['e_snapshots_lastwins', ['-home-user-src-demo/55555555-5555-4555-8555-555555555555.jsonl']],
  ['f_orphan_root', ['-home-user-src-old/66666666-6666-4666-8666-666666666666/subagents/agent-fedcba9876543210.jsonl']],
  ['g_resumed', ['-home-user-src-demo/77777777-7777-4777-8777-777777777777.jsonl']],
];

describe("ai-viewer's expected events for the Claude Code cases", () => {
  it.each(CASES)('%s', async (caseName, files) => {
    const ours = new Map<string, Session>();
    for (const rel of files) {
      const s = await read(rel);
      ours.set(s.key, s);
    }
    for (const [nativeId, want] of expectedSessions(loadExpected(caseName))) {
      const s = ours.get(keyOf(nativeId));
      if (want.extras.orphanRoot === true) {
        // ai-viewer invents a root for a sub-agent folder without its parent file; we list only the child,
        // whose parentKey still names that root so the catalogue can group it.
        expect(s).toBeUndefined();
        expect([...ours.values()].map((o) => o.parentKey)).toContain(keyOf(nativeId));
        continue;
      }
      expect(s, `session ${nativeId}`).toBeDefined();
      if (!s) continue;
      expect(s.parentKey).toBe(want.parent ? keyOf(want.parent) : null);
      if (want.cwd) expect(s.project.path).toBe(want.cwd);
      if (want.extras.gitBranch) expect(s.project.branch).toBe(want.extras.gitBranch);
      expect(s.extra.version).toBe(want.extras.version);
      const assistants = s.messages.filter((m) => m.role === 'assistant' && m.usage);
      expect(new Set(assistants.map((m) => m.model))).toEqual(want.models);
      expect(assistants).toHaveLength(want.llmOps);
      expect(s.usage ? [s.usage.input, s.usage.output, s.usage.cacheRead, s.usage.cacheWrite] : [0, 0, 0, 0]).toEqual(want.tokens);
      expect(countToolCalls(s)).toBe(want.toolOps);
      expect(s.messages.filter(isPrompt)).toHaveLength(want.turns);
      expect(s.operations.map((o) => o.childSessionKey)).toEqual(want.children.map(keyOf));
      const compactions = s.messages.flatMap((m) =>
        m.parts.flatMap((p) => (p.type === 'compaction' ? [{ trigger: p.trigger, preTokens: p.tokensBefore }] : [])),
      );
      expect(compactions).toEqual(want.compactions);
      if (want.updates.permissionMode !== undefined) expect(s.extra.permissionMode).toBe(want.updates.permissionMode);
      if (want.updates.customTitle !== undefined || want.updates.aiTitle !== undefined) expect(s.title).toBe(want.agentName);
      // ai-viewer names a sub-agent by its agentType; we title it by the meta's description (more specific)
      // and keep the type in extra.agentType.
      if (want.parent) expect(s.extra.agentType).toBe(want.agentName);
    }
  });
});
