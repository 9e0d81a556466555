// Tests for ai-agent's billing file: per-run and per-transaction totals that agree with the snapshots' own totals.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountingLedgerPath, readAccountingLedger, summarizeAccounting } from './ai-agent-accounting.ts';
import { aiAgentReader } from './ai-agent.ts';
import { UnreadableError } from '../types.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';

const ROOT = '7a1e2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const CHILD = 'b2c3d4e5-f607-4182-9a3b-4c5d6e7f8091';

describe('the sample billing file', () => {
  it('adds up each run; the web-research run matches the totals its snapshot records', async () => {
    const ledger = await readAccountingLedger(join(samplesDir, 'ai-agent/accounting.jsonl'));
    expect(ledger.warnings).toEqual([]);
    expect([ledger.overall.entries, ledger.overall.llm.calls, ledger.overall.tool.calls, ledger.overall.failed]).toEqual([11, 7, 4, 3]);
    expect(Object.keys(ledger.byOrigin).sort()).toEqual([
      '0c4e8a2f-1d3b-4c5e-a7f9-6b8d0e2a4c61',
      '5d2b7f9e-3c1a-4e6b-8d0f-9a1c3e5b7d24',
      '6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47',
      '9e7c5a3b-1f2d-4b6e-8a0c-3d5f7b9e1a28',
    ]);
    const web = ledger.byOrigin['6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47'];
    expect(web?.llm.usage).toEqual({ input: 5670, output: 796, cacheRead: 8100, cacheWrite: 3890, reasoning: 0 });
    expect(web?.llm.costUsd).toBeCloseTo(0.038, 10);
    expect(web?.tool).toEqual({ calls: 3, charactersIn: 167, charactersOut: 18756 });
    expect([web?.firstAt, web?.lastAt]).toEqual(['2026-01-13T15:00:05.481Z', '2026-01-13T15:00:14.000Z']);
    expect(web?.llm.models).toEqual(['claude-sonnet-4-5', 'gpt-4o-mini']);
    // The sub-agent is its own transaction, linked to the run that spawned it.
    expect(ledger.byTxn['a3c9e1f5-7b2d-4e8a-b6f0-4d1c8e2a9b35']).toMatchObject({
      agentId: 'web-fetch',
      parentTxnId: '6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47',
      originTxnId: '6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47',
      entries: 3,
      failed: 1,
    });
    const sql = ledger.byOrigin['0c4e8a2f-1d3b-4c5e-a7f9-6b8d0e2a4c61'];
    expect([sql?.llm.calls, sql?.llm.callsWithoutCost, sql?.llm.costUsd, sql?.failed]).toEqual([2, 1, 0.0153, 2]);
    // OpenAI's cachedTokens is the cache-read count.
    expect(ledger.byOrigin['9e7c5a3b-1f2d-4b6e-8a0c-3d5f7b9e1a28']?.llm.usage.cacheRead).toBe(1024);
  });

  it('is not a session file', () => {
    expect(aiAgentReader.claims(join(samplesDir, 'ai-agent/accounting.jsonl'))).toBe(false);
  });
});

const txn = (id: string, parent?: string) => ({ txnId: id, originTxnId: ROOT, ...(parent ? { parentTxnId: parent } : {}) });
/** A billing file of one run with a sub-agent, plus the oddities real files collect. */
const BILLING = [
  {
    type: 'llm',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    costUsd: 0.021,
    tokens: { inputTokens: 2000, outputTokens: 150, cacheReadInputTokens: 500, cacheWriteInputTokens: 100 },
    timestamp: 1760000004100,
    status: 'ok',
    agentId: 'release-checker',
    ...txn(ROOT),
  },
  {
    type: 'tool',
    mcpServer: 'ci',
    command: 'status',
    charactersIn: 30,
    charactersOut: 19,
    timestamp: 1760000005100,
    status: 'ok',
    agentId: 'release-checker',
    ...txn(ROOT),
  },
  {
    type: 'llm',
    provider: 'openai',
    model: 'gpt-4.1',
    tokens: { inputTokens: 800, outputTokens: 60, cachedTokens: 200 },
    timestamp: 1760000008500,
    status: 'ok',
    agentId: 'changelog',
    ...txn(CHILD, ROOT),
  },
  {
    type: 'tool',
    mcpServer: 'http',
    command: 'head',
    charactersIn: 40,
    charactersOut: 0,
    timestamp: 1760000012000,
    status: 'failed',
    error: 'HTTP 404',
    agentId: 'changelog',
    ...txn(CHILD, ROOT),
  },
  { type: 'refund', amountUsd: 0.01, txnId: ROOT },
  {
    type: 'llm',
    provider: 'openai',
    model: 'gpt-4.1-mini',
    costUsd: 0.0001,
    tokens: { inputTokens: 100, outputTokens: 10 },
    timestamp: 1760000018700,
    status: 'ok',
  },
  {
    type: 'llm',
    provider: 'ollama',
    model: 'qwen3:8b',
    costUsd: 0,
    tokens: { inputTokens: 10, outputTokens: 5 },
    timestamp: 1760000060000,
    status: 'ok',
    txnId: '__proto__',
    originTxnId: '__proto__',
  },
];

describe('a billing file written here', () => {
  it('estimates unpriced calls, keeps entries without a txnId in the overall total, and skips unknown entry types', async () => {
    const home = join(testTempDir('ai-agent-acct-'), '.ai-agent');
    mkdirSync(join(home, 'sessions'), { recursive: true });
    const path = accountingLedgerPath(join(home, 'sessions'));
    expect(path).toBe(join(home, 'accounting.jsonl'));
    writeFileSync(path, `${BILLING.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const ledger = await readAccountingLedger(path);
    expect(Object.keys(ledger.byTxn)).toEqual([ROOT, CHILD, '__proto__']);
    expect(Object.getPrototypeOf(ledger.byTxn)).toBe(Object.prototype);
    expect(ledger.byTxn.__proto__?.llm.models).toEqual(['qwen3:8b']);
    const child = ledger.byTxn[CHILD];
    expect([child?.llm.callsWithoutCost, child?.llm.costUsd, child?.tool.charactersIn, child?.failed, child?.parentTxnId]).toEqual([1, 0, 40, 1, ROOT]);
    expect(child?.llm.estimatedUsd).toBeCloseTo(0.00218, 10);
    expect(ledger.byOrigin[ROOT]?.entries).toBe(4);
    expect([ledger.overall.entries, ledger.overall.llm.calls]).toEqual([6, 4]);
    expect(ledger.warnings).toEqual([
      { code: 'missing_field', message: 'Some accounting entries have no txnId; they count only towards the overall totals.', count: 1 },
      { code: 'unknown_record_type', message: 'Accounting entry type "refund" is not known to this app (1 entry); skipped.', count: 1 },
    ]);
    expect(aiAgentReader.claims(path)).toBe(false);
  });
});

describe('hostile billing data', () => {
  it('warns about lines that are not entries and fields of the wrong type', () => {
    const ledger = summarizeAccounting(
      [
        { value: [1], line: 1 },
        { value: { type: 'llm', txnId: 't', tokens: { inputTokens: 'lots', outputTokens: -3 }, costUsd: 'cheap', timestamp: 1e20 }, line: 2 },
      ],
      '/x/accounting.jsonl',
    );
    expect(ledger.byTxn.t?.llm).toMatchObject({ calls: 1, callsWithoutCost: 1, usage: { input: 0, output: 0 } });
    expect(ledger.byTxn.t?.firstAt).toBeNull();
    expect(ledger.warnings.map((w) => w.code)).toEqual(['wrong_type', 'wrong_type', 'wrong_type', 'wrong_type']);
  });

  it('an empty billing file is unreadable', async () => {
    const dir = testTempDir('ai-agent-acct-');
    writeFileSync(join(dir, 'accounting.jsonl'), '');
    await expect(readAccountingLedger(join(dir, 'accounting.jsonl'))).rejects.toBeInstanceOf(UnreadableError);
  });
});
