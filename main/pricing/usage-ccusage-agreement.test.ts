// `session-vault usage daily|session --json`, read from the index, agrees with ccusage (run offline) on the same Claude Code files.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRowOut } from '../../shared/usage-api.ts';
import { ccTokensOf, claudeSamplesRoot, costsAgree, COPY_ID, ORIGINAL_ID, repo, runCcusage, type CcRow } from '../test-support/ccusage.ts';

const cli = join(repo, 'main/cli/cli.ts');

const tokensOf = (r: UsageRowOut) => [r.input, r.output, r.cacheRead, r.cacheWrite];
const sum = (a: number[], b: number[]) => a.map((n, i) => n + (b[i] ?? 0));

// The same samples and the same by-design differences as ccusage-agreement.test.ts.
/** Newer than ccusage 19.0.3's bundled prices (claude-opus-5): ccusage prices it at $0, Session Vault does not. */
const UNPRICED_BY_CCUSAGE = 'ses_stage0_small';
/** A pre-2.1 sub-agent file beside its parent: ccusage lists it alone, Session Vault under its parent. */
const LEGACY_PARENT = '2b3c4d5e-6f70-4819-8a2b-3c4d5e6f7081';
const LEGACY_AGENT = 'agent-5e6f7a8b';

let root: string;
const run = promisify(execFile);

async function ours(report: 'session' | 'daily', ...extra: string[]): Promise<UsageRowOut[]> {
  const env = { ...process.env, SESSION_VAULT_HOME: join(root, 'home'), NO_COLOR: '1' };
  const args = [cli, 'usage', report, '--json', '--timezone', 'UTC', '--no-defaults', '--root', join(root, 'projects'), ...extra];
  const { stdout } = await run(process.execPath, args, { env, maxBuffer: 16 << 20 });
  return (JSON.parse(stdout) as { rows: UsageRowOut[] }).rows;
}

let ccDays: Map<string, CcRow>;
let ccSessions: Map<string, CcRow>;
let days: Map<string, UsageRowOut>;
let sessions: Map<string, UsageRowOut>;
let copiedDays: Map<string, UsageRowOut>;
let newerDays: Map<string, UsageRowOut>;

beforeAll(async () => {
  root = await claudeSamplesRoot('sv-usage-ccusage-');
  const [byDay, bySession] = await Promise.all([runCcusage(root, 'daily'), runCcusage(root, 'session')]);
  ccDays = new Map((byDay.daily as Array<CcRow & { date: string }>).map((r) => [r.date, r]));
  ccSessions = new Map((bySession.sessions as Array<CcRow & { sessionId: string }>).map((r) => [r.sessionId, r]));
  // One index, built by the first command; the later ones read it as it is.
  days = new Map((await ours('daily')).map((r) => [r.period, r]));
  sessions = new Map((await ours('session')).map((r) => [r.period.replace(/^claude-code:/, ''), r]));
  copiedDays = new Map((await ours('daily', '--query', `"${COPY_ID}"`)).map((r) => [r.period, r]));
  newerDays = new Map((await ours('daily', '--query', 'model:claude-opus-5')).map((r) => [r.period, r]));
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('usage reports agree with ccusage on the Claude Code samples', () => {
  it('has the same days, tokens and costs, but for the copied turns and the model ccusage cannot price', () => {
    expect([...days.keys()].sort()).toEqual([...ccDays.keys()].sort());
    expect(copiedDays.size).toBeGreaterThan(0);
    expect(newerDays.size).toBeGreaterThan(0);
    for (const [day, row] of days) {
      const theirs = ccDays.get(day);
      if (!theirs) continue;
      const dup = copiedDays.get(day);
      // By design: ccusage counts a message once across files; Session Vault counts each file as the tool wrote it.
      expect(tokensOf(row), `tokens on ${day}`).toEqual(dup ? sum(ccTokensOf(theirs), tokensOf(dup)) : ccTokensOf(theirs));
      const expectedCost = theirs.totalCost + (dup?.costUsd ?? 0) + (newerDays.get(day)?.costUsd ?? 0);
      expect(costsAgree(row.costUsd, expectedCost), `cost on ${day}: ours ${row.costUsd}, ccusage ${expectedCost}`).toBe(true);
      expect(row.unpricedCalls, `unpriced calls on ${day}`).toBe(0);
    }
  });

  it('has the same tokens and costs per session, sub-agents under their parent', () => {
    let compared = 0;
    for (const [id, theirs] of ccSessions) {
      if (id === COPY_ID || id === ORIGINAL_ID || id === LEGACY_AGENT) continue;
      const row = sessions.get(id);
      expect(row, `Session Vault lists session ${id}`).toBeDefined();
      if (!row) continue;
      const legacy = id === LEGACY_PARENT ? ccSessions.get(LEGACY_AGENT) : undefined;
      expect(tokensOf(row), `tokens of ${id}`).toEqual(legacy ? sum(ccTokensOf(theirs), ccTokensOf(legacy)) : ccTokensOf(theirs));
      compared++;
      if (id === UNPRICED_BY_CCUSAGE) continue;
      const expectedCost = theirs.totalCost + (legacy?.totalCost ?? 0);
      expect(costsAgree(row.costUsd, expectedCost), `cost of ${id}: ours ${row.costUsd}, ccusage ${expectedCost}`).toBe(true);
    }
    expect(compared).toBeGreaterThanOrEqual(9);
    // The resumed copy and its original each count in full; ccusage splits the one copy between them.
    const pair = [ccSessions.get(COPY_ID), ccSessions.get(ORIGINAL_ID)].map((r) => (r ? ccTokensOf(r) : [0, 0, 0, 0]));
    const original = sessions.get(ORIGINAL_ID);
    expect(original && tokensOf(original)).toEqual(sum(pair[0] ?? [], pair[1] ?? []));
    expect(sessions.get(COPY_ID) && tokensOf(sessions.get(COPY_ID) as UsageRowOut)).toEqual(original && tokensOf(original));
  });
});
