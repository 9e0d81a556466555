// A parent session's usage is its total with its sub-agents': in the tokens>/cost> filters, their counts, and the usage reports.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { searchSessions } from './search-service.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';
import { usageFacts } from './usage-facts.ts';
import { usageReport } from './usage-report.ts';

let catalogue: IndexedCatalogue;

function add(session: Session): void {
  const { result, text } = readResult(session);
  catalogue.put(`/roots/${session.id}.json`, 100, 1, result.ok ? { ...result, text, usage: usageFacts(session) } : result);
}

const spent = (input: number, usd: number) => ({ usage: { input, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, cost: { usd, estimated: true } });
const listed = (query: string) =>
  searchSessions(
    catalogue,
    { query, limit: 50, facets: true },
    (s) => s,
    () => null,
  )
    .results.map((r) => r.summary.id)
    .sort();

beforeEach(() => {
  catalogue = new IndexedCatalogue(new SessionIndex(':memory:'));
  // The parent spent 5,000 tokens and $2 itself; its sub-agent 8,000 and $3: 13,000 and $5 in all.
  add(makeSession('parent', { ...spent(5000, 2), childKeys: ['vizier:helper'], messages: [textMessage('user', 'plan the migration')] }));
  add(makeSession('helper', { ...spent(8000, 3), parentKey: 'vizier:parent', messages: [textMessage('user', 'read the schema')] }));
  add(makeSession('alone', { ...spent(9000, 4), messages: [textMessage('user', 'plan the release')] }));
  catalogue.index.flush();
});

describe('sub-agents roll up into their parent', () => {
  it('compares a parent total with tokens> and tokens<, not its own figure', () => {
    expect(listed('tokens>10000')).toEqual(['parent']);
    expect(listed('tokens<10000')).toEqual(['alone']);
    expect(listed('tokens>=13000 tokens<=13000')).toEqual(['parent']);
  });

  it('compares a parent total with cost> and cost<', () => {
    expect(listed('cost>=5')).toEqual(['parent']);
    expect(listed('cost<4.5')).toEqual(['alone']);
    // Words still find the sub-agent by itself, with its own figure.
    expect(listed('schema tokens<9000')).toEqual(['helper']);
  });

  it('counts a parent in the token and cost ranges the filters offer by its total', () => {
    const facets = searchSessions(
      catalogue,
      { query: '', facets: true, limit: 1 },
      (s) => s,
      () => null,
    ).facets;
    expect(facets?.tokens).toEqual([{ value: '10k+', filter: 'tokens>=10k', count: 1 }]);
    expect(facets?.cost).toEqual([{ value: '$1+', filter: 'cost>=1', count: 2 }]);
  });

  it('reports a parent session as its total, with its own usage beside it', () => {
    const rows = usageReport(catalogue, { period: 'session', timezone: 'UTC' }, () => null).rows;
    const parent = rows.find((r) => r.period === 'vizier:parent');
    expect(parent).toMatchObject({ totalTokens: 13000, costUsd: 5, sessions: 2, own: { totalTokens: 5000, costUsd: 2, unpricedCalls: 0 } });
    expect(rows.find((r) => r.period === 'vizier:alone')?.own).toEqual({ totalTokens: 9000, costUsd: 4, unpricedCalls: 0 });
  });

  it('adds up a matched parent with its sub-agents in a filtered report', () => {
    const daily = usageReport(catalogue, { period: 'daily', timezone: 'UTC', query: 'tokens>10000' }, () => null);
    expect(daily.totals).toMatchObject({ totalTokens: 13000, costUsd: 5, sessions: 2 });
    expect(usageReport(catalogue, { period: 'daily', timezone: 'UTC', query: 'migration' }, () => null).totals.totalTokens).toBe(13000);
  });
});
