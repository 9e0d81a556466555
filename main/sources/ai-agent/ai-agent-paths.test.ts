// Tests for which paths the ai-agent reader claims: snapshots and v3 ledgers, never temps, payloads or the billing file.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimsAiAgent } from './ai-agent.ts';
import { claimsLedger, claimsSnapshot, isTempName } from './ai-agent-paths.ts';
import { samplesDir } from '../../test-support/samples.ts';

const UUID = '5d2b7f9e-3c1a-4e6b-8d0f-9a1c3e5b7d24';

describe('claimsSnapshot', () => {
  it.each([
    `/home/u/.ai-agent/sessions/${UUID}.json.gz`,
    `/srv/agents/sessions/${UUID.toUpperCase()}.json.gz`,
    `C:\\Users\\u\\.ai-agent\\sessions\\${UUID}.json.gz`,
    // Inside ~/.ai-agent/sessions any snapshot name is ai-agent's, even one that is not a UUID.
    '/home/u/.ai-agent/sessions/nightly-run.json.gz',
  ])('claims %s', (p) => expect(claimsSnapshot(p)).toBe(true));

  it.each([
    `/home/u/.ai-agent/sessions/${UUID}.json.gz.tmp-702094-1768489231000`,
    `/home/u/.ai-agent/sessions/${UUID}.json.gz.tmp`,
    '/srv/backups/sessions/db-dump.json.gz',
    `/home/u/.ai-agent/sessions/payloads/${UUID}/turn-0001/llm-0001-request.http.gz`,
    `/home/u/.ai-agent/sessions/archive/${UUID}.json.gz`,
    `/home/u/.ai-agent/${UUID}.json.gz`,
    `/home/u/.ai-agent/sessions/${UUID}.json`,
    '/home/u/.ai-agent/sessions/.hidden.json.gz',
  ])('does not claim %s', (p) => expect(claimsSnapshot(p)).toBe(false));
});

describe('claimsLedger', () => {
  it.each([
    `/home/u/.ai-agent/sessions/session/${UUID}.jsonl`,
    `/data/ai-agent-v3/session/${UUID}.jsonl`,
    '/home/u/.ai-agent/sessions/session/root-session.jsonl',
  ])('claims %s', (p) => expect(claimsLedger(p)).toBe(true));

  it.each([
    '/data/elsewhere/session/notes.jsonl',
    `/home/u/.ai-agent/sessions/session/${UUID}.jsonl.tmp-1-2`,
    `/home/u/.ai-agent/sessions/${UUID}.jsonl`,
    '/home/u/.ai-agent/accounting.jsonl',
    `/home/u/.claude/projects/-home-u-src/${UUID}.jsonl`,
    `/home/u/.codex/sessions/2026/01/02/rollout-2026-01-02T10-00-00-${UUID}.jsonl`,
  ])('does not claim %s', (p) => expect(claimsLedger(p)).toBe(false));
});

describe('isTempName', () => {
  it('recognises the writer temp names and nothing else', () => {
    expect(['a.json.gz.tmp-1-2', 'a.json.gz.tmp', 'a.tmp-x'].map(isTempName)).toEqual([true, true, true]);
    expect(['a.json.gz', 'tmp.json.gz', 'a.tmpl.json.gz'].map(isTempName)).toEqual([false, false, false]);
  });
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

describe('claims over the whole sample corpus', () => {
  it('claims exactly the ai-agent snapshots and v3 ledgers, nothing of other tools, no temps, no expectations', () => {
    const claimed = walk(samplesDir)
      .filter(claimsAiAgent)
      .map((p) => relative(samplesDir, p))
      .sort();
    const snapshots = readdirSync(join(samplesDir, 'ai-agent/sessions'))
      .filter((n) => n.endsWith('.json.gz'))
      .map((n) => `ai-agent/sessions/${n}`);
    const ledgers = readdirSync(join(samplesDir, 'ai-agent-v3/session')).map((n) => `ai-agent-v3/session/${n}`);
    expect(claimed).toEqual([...snapshots, ...ledgers].sort());
    expect(claimed).toHaveLength(14 + 7);
    expect(claimed.some((p) => p.includes('.tmp-'))).toBe(false);
  });
});
