// Session Vault's Claude Code tokens and costs agree with ccusage's (run offline) on the same files, per session and per day.
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { readClaudeCodeFile } from '../sources/claude-code/claude-code.ts';
import { layoutOf } from '../sources/claude-code/claude-code-subagents.ts';
import { ccTokensOf, claudeSamplesRoot, costsAgree, COPY_ID, ORIGINAL_ID, runCcusage, type CcRow } from '../test-support/ccusage.ts';

interface Figures {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** null when Session Vault left every call unpriced. */
  cost: number | null;
}

const tokensOf = (f: Figures) => [f.input, f.output, f.cacheRead, f.cacheWrite];

/** Sessions whose only model is newer than ccusage 19.0.3's bundled prices (claude-opus-5): compared on tokens only. */
const UNPRICED_BY_CCUSAGE = new Set(['ses_stage0_small']);

let root: string;
let sessions: Session[];
let ccSessions: Map<string, CcRow>;
let ccDays: Map<string, CcRow>;

async function jsonlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The session ccusage files a transcript under: its own id, or its parent's for a file in `<id>/subagents/`. */
function ccSessionOf(s: Session): string {
  const path = s.sourceFiles[0]?.path ?? '';
  const layout = layoutOf(path);
  return layout?.kind === 'subagent' ? layout.parentSessionId : basename(path, '.jsonl');
}

function add(into: Map<string, Figures>, key: string, usage: Session['usage'], cost: number | null): void {
  if (!usage) return;
  const f = into.get(key) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: null };
  f.input += usage.input;
  f.output += usage.output;
  f.cacheRead += usage.cacheRead;
  f.cacheWrite += usage.cacheWrite;
  if (cost !== null) f.cost = (f.cost ?? 0) + cost;
  into.set(key, f);
}

function svBySession(list: Session[]): Map<string, Figures> {
  const out = new Map<string, Figures>();
  for (const s of list) add(out, ccSessionOf(s), s.usage, s.cost?.usd ?? null);
  return out;
}

function svByDay(list: Session[]): Map<string, Figures> {
  const out = new Map<string, Figures>();
  for (const s of list) for (const m of s.messages) if (m.usage && m.timestamp) add(out, m.timestamp.slice(0, 10), m.usage, m.cost?.usd ?? null);
  return out;
}

beforeAll(async () => {
  root = await claudeSamplesRoot('sv-ccusage-');
  sessions = await Promise.all((await jsonlFiles(join(root, 'projects'))).map((f) => readClaudeCodeFile(f)));
  const [bySession, byDay] = await Promise.all([runCcusage(root, 'session'), runCcusage(root, 'daily')]);
  ccSessions = new Map((bySession.sessions as Array<CcRow & { sessionId: string }>).map((r) => [r.sessionId, r]));
  ccDays = new Map((byDay.daily as Array<CcRow & { date: string }>).map((r) => [r.date, r]));
}, 60_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('agreement with ccusage on the Claude Code samples', () => {
  it('has the same tokens and, where both price the model, the same cost for every session', () => {
    // The original and its copy are compared as a pair below (ccusage lists only one of them).
    const ours = svBySession(sessions.filter((s) => ccSessionOf(s) !== COPY_ID && ccSessionOf(s) !== ORIGINAL_ID));
    const compared: string[] = [];
    for (const [id, f] of ours) {
      const theirs = ccSessions.get(id);
      expect(theirs, `ccusage lists session ${id}`).toBeDefined();
      if (!theirs) continue;
      expect(tokensOf(f), `tokens of ${id}`).toEqual(ccTokensOf(theirs));
      expect(f.cost, `Session Vault prices ${id}`).not.toBeNull();
      compared.push(id);
      if (UNPRICED_BY_CCUSAGE.has(id)) continue;
      expect(costsAgree(f.cost ?? NaN, theirs.totalCost), `cost of ${id}: ours ${f.cost}, ccusage ${theirs.totalCost}`).toBe(true);
    }
    // ccusage 19.0.3's bundled prices predate claude-opus-5: it reports $0 for that session, which Session Vault prices.
    const zeroInCcusage = [...ccSessions].filter(([, r]) => r.totalCost === 0 && ccTokensOf(r).some((n) => n > 0)).map(([id]) => id);
    expect(zeroInCcusage).toEqual([...UNPRICED_BY_CCUSAGE]);
    // Every session with tokens but the copied pair is compared; sessions without any usage, ccusage does not list.
    expect(compared.length).toBe(ccSessions.size - 1);
    expect(compared.length).toBeGreaterThanOrEqual(10);
  });

  it('has the same tokens and costs for every day, but for the copied turns', () => {
    const copied = svByDay(sessions.filter((s) => ccSessionOf(s) === COPY_ID));
    const ours = svByDay(sessions);
    const newerModels = svByDay(sessions.filter((s) => UNPRICED_BY_CCUSAGE.has(ccSessionOf(s))));
    expect([...ours.keys()].sort()).toEqual([...ccDays.keys()].sort());
    for (const [day, f] of ours) {
      const theirs = ccDays.get(day);
      if (!theirs) continue;
      const dup = copied.get(day);
      // By design: ccusage counts a message once across files (by message id + request id); Session Vault shows each
      // file as the tool wrote it, so a resumed session's copied turns count in both sessions.
      const expected = dup ? ccTokensOf(theirs).map((n, i) => n + (tokensOf(dup)[i] ?? 0)) : ccTokensOf(theirs);
      expect(tokensOf(f), `tokens on ${day}`).toEqual(expected);
      const newer = newerModels.get(day);
      const expectedCost = theirs.totalCost + (dup?.cost ?? 0) + (newer?.cost ?? 0);
      expect(costsAgree(f.cost ?? NaN, expectedCost), `cost on ${day}: ours ${f.cost}, ccusage ${expectedCost}`).toBe(true);
    }
  });

  it('differs by design on a message copied into a second file: ccusage counts it once, Session Vault in both', () => {
    const ours = svBySession(sessions);
    const copy = ours.get(COPY_ID);
    const original = ours.get(ORIGINAL_ID);
    expect(copy && tokensOf(copy)).toEqual(original && tokensOf(original));
    const ccCopy = ccSessions.get(COPY_ID);
    const ccOriginal = ccSessions.get(ORIGINAL_ID);
    // ccusage gives the copied tokens to one of the two files only; the pair adds up to one copy.
    const ccPair = [ccCopy, ccOriginal].map((r) => (r ? ccTokensOf(r) : [0, 0, 0, 0]));
    expect(ccPair[0]?.map((n, i) => n + (ccPair[1]?.[i] ?? 0))).toEqual(original && tokensOf(original));
  });

  it('differs by design on a pre-2.1 sub-agent file beside its parent: ccusage lists it alone, Session Vault under the parent', () => {
    const legacy = sessions.find((s) => s.key === 'claude-code:2b3c4d5e-6f70-4819-8a2b-3c4d5e6f7081/agent-5e6f7a8b');
    expect(legacy?.parentKey).toBe('claude-code:2b3c4d5e-6f70-4819-8a2b-3c4d5e6f7081');
    expect(ccSessions.get('agent-5e6f7a8b')?.inputTokens).toBe(legacy?.usage?.input);
  });
});
