// Usage reports from the index: calls on their own day, periods, breakdowns, query filters and honest partial costs.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Message, Session } from '../../shared/session.ts';
import type { UsageBreakdown, UsagePeriod } from '../../shared/usage-api.ts';
import { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';
import { usageReport } from './usage-report.ts';
import { usageFacts } from './usage-facts.ts';
import { hourCut } from './usage-rows.ts';

let catalogue: IndexedCatalogue;

function call(timestamp: string, input: number, usd: number | null, model = 'claude-sonnet-4-5'): Message {
  return {
    ...textMessage('assistant', 'done'),
    timestamp,
    model,
    usage: { input, output: 10, cacheRead: 100, cacheWrite: 1, reasoning: 0 },
    cost: usd === null ? null : { usd, estimated: true },
  };
}

function add(session: Session): void {
  const { result, text } = readResult(session);
  catalogue.put(`/roots/${session.id}.json`, 100, 1, result.ok ? { ...result, text, usage: usageFacts(session) } : result);
}

const report = (period: UsagePeriod, more: { breakdown?: UsageBreakdown; query?: string; since?: string; until?: string; timezone?: string } = {}) =>
  usageReport(catalogue, { period, timezone: 'UTC', ...more }, () => null);

beforeEach(() => {
  catalogue = new IndexedCatalogue(new SessionIndex(':memory:'));
  const app = (branch: string) => ({ path: '/home/dev/app', name: 'app', branch, headCommit: null });
  // Runs past midnight UTC: each call counts on its own day.
  add(makeSession('late', { project: app('main'), messages: [call('2026-03-01T23:30:00Z', 1000, 0.5), call('2026-03-02T00:20:00Z', 2000, 1)] }));
  // One call has a model without a known price.
  add(makeSession('mixed', { project: app('fix'), messages: [call('2026-03-02T10:00:00Z', 300, 0.25), call('2026-03-02T11:00:00Z', 400, null, 'mystery-1')] }));
  add(
    makeSession('words', {
      project: { ...app('main'), name: 'site', path: '/home/dev/site' },
      messages: [textMessage('user', 'refactor the quokka parser'), call('2026-03-09T08:00:00Z', 50, 0.01)],
    }),
  );
  catalogue.index.flush();
});

describe('usage reports', () => {
  it('counts each call on the day it was made, and the session once in the totals', () => {
    const r = report('daily');
    expect(r.rows.map((row) => [row.period, row.input, row.costUsd, row.sessions])).toEqual([
      ['2026-03-01', 1000, 0.5, 1],
      ['2026-03-02', 2700, 1.25, 2],
      ['2026-03-09', 50, 0.01, 1],
    ]);
    expect(r.totals).toMatchObject({ input: 3750, output: 50, cacheRead: 500, cacheWrite: 5, totalTokens: 4305, sessions: 3, unpricedCalls: 1 });
  });

  it('counts days in the time zone asked for', () => {
    // In Tokyo (UTC+9) the call made at 23:30 UTC on March 1 was made on March 2.
    expect(report('daily', { timezone: 'Asia/Tokyo' }).rows.map((r) => [r.period, r.input])).toEqual([
      ['2026-03-02', 3700],
      ['2026-03-09', 50],
    ]);
  });

  it('counts a call in the half hour after midnight in India on its own day, the index written there', () => {
    catalogue = new IndexedCatalogue(new SessionIndex(':memory:'));
    // 18:30 UTC is midnight in India (+5:30): the first call was made at 23:45 on March 1, the second at 00:15 on March 2.
    const session = makeSession('india', { messages: [call('2026-03-01T18:15:00Z', 100, 0.1), call('2026-03-01T18:45:00Z', 200, 0.2)] });
    const { result, text } = readResult(session);
    catalogue.put('/roots/india.json', 100, 1, result.ok ? { ...result, text, usage: usageFacts(session, () => hourCut(330)) } : result);
    catalogue.index.flush();
    expect(report('daily', { timezone: 'Asia/Kolkata' }).rows.map((r) => [r.period, r.input])).toEqual([
      ['2026-03-01', 100],
      ['2026-03-02', 200],
    ]);
    expect(report('daily', { timezone: 'Asia/Kolkata', since: '2026-03-02' }).rows.map((r) => [r.period, r.input])).toEqual([['2026-03-02', 200]]);
  });

  it('adds up weeks from their Monday and months, and keeps to --since and --until', () => {
    expect(report('weekly').rows.map((r) => [r.period, r.input])).toEqual([
      ['2026-02-23', 1000],
      ['2026-03-02', 2700],
      ['2026-03-09', 50],
    ]);
    expect(report('monthly').rows.map((r) => [r.period, r.input])).toEqual([['2026-03', 3750]]);
    expect(report('daily', { since: '2026-03-02', until: '2026-03-08' }).rows.map((r) => [r.period, r.input])).toEqual([['2026-03-02', 2700]]);
  });

  it('breaks a period down by model, project or branch', () => {
    expect(report('monthly', { breakdown: 'model' }).rows.map((r) => [r.group, r.input, r.unpricedCalls])).toEqual([
      ['claude-sonnet-4-5', 3350, 0],
      ['mystery-1', 400, 1],
    ]);
    expect(report('monthly', { breakdown: 'project' }).rows.map((r) => [r.group, r.input])).toEqual([
      ['app', 3700],
      ['site', 50],
    ]);
    expect(report('monthly', { breakdown: 'branch' }).rows.map((r) => [r.group, r.sessions])).toEqual([
      ['fix', 1],
      ['main', 2],
    ]);
  });

  it('counts only the sessions a search query matches', () => {
    expect(report('session', { query: 'quokka' }).rows.map((r) => [r.period, r.input])).toEqual([['vizier:words', 50]]);
    expect(report('daily', { query: 'branch:fix' }).totals).toMatchObject({ input: 700, sessions: 1 });
    expect(report('daily', { query: 'nothing-has-this-word' }).rows).toEqual([]);
  });

  it('lists sessions by their last day of use, a partial cost with its unpriced calls', () => {
    const r = report('session');
    expect(r.rows.map((row) => [row.period, row.lastDay])).toEqual([
      ['vizier:late', '2026-03-02'],
      ['vizier:mixed', '2026-03-02'],
      ['vizier:words', '2026-03-09'],
    ]);
    expect(r.rows[1]).toMatchObject({ costUsd: 0.25, unpricedCalls: 1, models: ['claude-sonnet-4-5', 'mystery-1'] });
  });

  it('leaves usage with no known time out of the days (as the dashboard does), says so, and lists its session without a day', () => {
    const undated = { ...call('2026-03-02T10:00:00Z', 700, 0.07), timestamp: null };
    add(makeSession('undated', { createdAt: null, updatedAt: null, messages: [undated] }));
    catalogue.index.flush();
    for (const period of ['daily', 'weekly', 'monthly'] as const) {
      const r = report(period);
      expect(r.rows.map((row) => row.period).filter((p) => p.startsWith('1970'))).toEqual([]);
      expect(r.totals).toMatchObject({ input: 3750, sessions: 3 });
      expect(r.problems).toContain('1 session has usage with no known time (811 tokens, $0.0700): left out of the days.');
    }
    const bySession = report('session');
    expect(bySession.rows.find((row) => row.period === 'vizier:undated')).toMatchObject({ input: 700, costUsd: 0.07 });
    expect(bySession.rows.find((row) => row.period === 'vizier:undated')?.lastDay).toBeUndefined();
    expect(bySession.problems).toEqual([]);
    // --since or --until leaves it out without a word: it is on no day, so on none of theirs.
    expect(report('daily', { since: '2026-03-02' }).problems).toEqual([]);
  });
});
