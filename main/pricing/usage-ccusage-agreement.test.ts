// `session-vault usage daily|session --json`, read from the index, agrees with ccusage (run offline) on the same Claude Code files.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRowOut } from '../../shared/usage-api.ts';
import { samplesDir } from '../test-support/samples.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ccusagePackage = JSON.parse(readFileSync(join(repo, 'node_modules/ccusage/package.json'), 'utf8')) as { bin: { ccusage: string } };
const ccusageCli = join(repo, 'node_modules/ccusage', ccusagePackage.bin.ccusage);
const cli = join(repo, 'main/cli/cli.ts');

interface CcRow {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  totalCost: number;
}
const ccTokensOf = (r: CcRow) => [r.inputTokens, r.outputTokens, r.cacheReadTokens, r.cacheCreationTokens];
const tokensOf = (r: UsageRowOut) => [r.input, r.output, r.cacheRead, r.cacheWrite];
const costsAgree = (a: number, b: number) => Math.abs(a - b) <= Math.max(1e-6, 0.001 * Math.max(a, b));
const sum = (a: number[], b: number[]) => a.map((n, i) => n + (b[i] ?? 0));

// The same samples and the same by-design differences as ccusage-agreement.test.ts.
const ORIGINAL_ID = '44444444-4444-4444-8444-444444444444';
const COPIED_FROM = `-home-user-src-demo/${ORIGINAL_ID}.jsonl`;
const COPY_ID = '44444444-4444-4444-8444-4444444400c0';
/** Newer than ccusage 19.0.3's bundled prices (claude-opus-5): ccusage prices it at $0, Session Vault does not. */
const UNPRICED_BY_CCUSAGE = 'ses_stage0_small';
/** A pre-2.1 sub-agent file beside its parent: ccusage lists it alone, Session Vault under its parent. */
const LEGACY_PARENT = '2b3c4d5e-6f70-4819-8a2b-3c4d5e6f7081';
const LEGACY_AGENT = 'agent-5e6f7a8b';

let root: string;
const run = promisify(execFile);

async function ccusage(report: 'session' | 'daily'): Promise<Record<string, unknown>> {
  const env = { PATH: process.env.PATH ?? '', HOME: root, CLAUDE_CONFIG_DIR: root, NO_COLOR: '1' };
  const { stdout } = await run(process.execPath, [ccusageCli, 'claude', report, '--offline', '--json', '--timezone', 'UTC'], { cwd: root, env, maxBuffer: 16 << 20 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

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
  root = await mkdtemp(join(tmpdir(), 'sv-usage-ccusage-'));
  const projects = join(root, 'projects');
  await cp(join(samplesDir, 'claude-code/projects'), projects, { recursive: true });
  await cp(join(repo, 'main/sources/fixtures/claude-code/projects'), projects, { recursive: true });
  const original = await readFile(join(projects, COPIED_FROM), 'utf8');
  await writeFile(join(projects, dirname(COPIED_FROM), `${COPY_ID}.jsonl`), original.replaceAll(ORIGINAL_ID, COPY_ID));
  const [byDay, bySession] = await Promise.all([ccusage('daily'), ccusage('session')]);
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
