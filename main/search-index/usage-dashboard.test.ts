// The dashboard's aggregates from the index: days stacked by group, the day x hour heatmap, tops, tools, distributions, cache and the query.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Message, Session } from '../../shared/session.ts';
import { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';
import { usageDashboard } from './usage-dashboard.ts';
import { usageFacts } from './usage-facts.ts';

let catalogue: IndexedCatalogue;

function add(session: Session): void {
  const { result, text } = readResult(session);
  catalogue.put(`/roots/${session.id}.json`, 100, 1, result.ok ? { ...result, text, usage: usageFacts(session) } : result);
}

const call = (timestamp: string, input: number, cacheRead: number, model: string, usd = 0.1): Message => ({
  ...textMessage('assistant', 'ok'),
  timestamp,
  model,
  usage: { input, output: 0, cacheRead, cacheWrite: 0, reasoning: 0 },
  cost: { usd, estimated: true },
});
const tool = (name: string, callId: string): Message => ({ ...textMessage('assistant', ''), parts: [{ type: 'tool_call', callId, name, input: {} }] });
const failed = (callId: string): Message => ({ ...textMessage('user', ''), parts: [{ type: 'tool_result', callId, output: 'boom', isError: true }] });

const dashboard = (query = '', breakdown?: 'model' | 'source' | 'project') =>
  usageDashboard(catalogue, { query, timezone: 'UTC', ...(breakdown ? { breakdown } : {}) }, () => null, Date.parse('2026-03-10T00:00:00Z'));

beforeEach(() => {
  catalogue = new IndexedCatalogue(new SessionIndex(':memory:'));
  const project = (name: string) => ({ path: `/home/dev/${name}`, name, branch: 'main', headCommit: null });
  add(
    makeSession('a', {
      project: project('app'),
      createdAt: '2026-03-01T09:00:00Z',
      updatedAt: '2026-03-01T09:40:00Z',
      messages: [
        textMessage('user', 'fix the parser'),
        call('2026-03-01T09:10:00Z', 1000, 3000, 'claude-opus-4-7'),
        tool('Bash', 't1'),
        failed('t1'),
        textMessage('user', 'again'),
        call('2026-03-01T09:30:00Z', 1000, 0, 'claude-sonnet-4-5'),
      ],
    }),
  );
  add(
    makeSession('b', {
      project: project('site'),
      createdAt: '2026-03-02T14:00:00Z',
      updatedAt: '2026-03-02T16:30:00Z',
      messages: [
        textMessage('user', 'write the release notes'),
        call('2026-03-02T14:05:00Z', 500, 500, 'claude-opus-4-7'),
        tool('Read', 't2'),
        tool('Bash', 't3'),
      ],
    }),
  );
  catalogue.index.flush();
});

describe('usage dashboard', () => {
  it('stacks each day by model, and adds up the totals and the cache share', () => {
    const d = dashboard();
    expect(d.groups).toEqual(['claude-opus-4-7', 'claude-sonnet-4-5']);
    expect(d.days.map((x) => [x.day, x.group, x.totalTokens])).toEqual([
      ['2026-03-01', 'claude-opus-4-7', 4000],
      ['2026-03-01', 'claude-sonnet-4-5', 1000],
      ['2026-03-02', 'claude-opus-4-7', 1000],
    ]);
    expect(d.totals).toMatchObject({ totalTokens: 6000, sessions: 2, cacheHitRate: 3500 / 6000 });
    expect(d.cache.map((c) => [c.day, c.hitRate])).toEqual([
      ['2026-03-01', 0.6],
      ['2026-03-02', 0.5],
    ]);
    expect([d.from, d.to]).toEqual(['2026-03-01', '2026-03-02']);
  });

  it('stacks by project or source when asked', () => {
    expect(dashboard('', 'project').groups).toEqual(['app', 'site']);
    expect(dashboard('', 'source').groups).toEqual(['vizier']);
  });

  it('counts calls per day and hour, and ranks projects and models by tokens', () => {
    const d = dashboard();
    expect(d.heatmapDays).toEqual(['2026-03-01', '2026-03-02']);
    expect(d.heatmap).toEqual([
      { day: '2026-03-01', hour: 9, calls: 2, totalTokens: 5000 },
      { day: '2026-03-02', hour: 14, calls: 1, totalTokens: 1000 },
    ]);
    expect(d.projects.map((p) => [p.name, p.totalTokens, p.sessions])).toEqual([
      ['app', 5000, 1],
      ['site', 1000, 1],
    ]);
    expect(d.models.map((m) => [m.name, m.totalTokens, m.calls])).toEqual([
      ['claude-opus-4-7', 5000, 2],
      ['claude-sonnet-4-5', 1000, 1],
    ]);
  });

  it('counts tool calls and failures, session lengths and turns', () => {
    const d = dashboard();
    expect(d.tools).toEqual([
      { name: 'Bash', calls: 2, failures: 1 },
      { name: 'Read', calls: 1, failures: 0 },
    ]);
    expect(d.lengths.filter((l) => l.sessions)).toEqual([
      { bucket: '30–60 min', sessions: 1 },
      { bucket: '2–4 h', sessions: 1 },
    ]);
    expect(d.turns.filter((t) => t.sessions)).toEqual([
      { bucket: '1', sessions: 1 },
      { bucket: '2–3', sessions: 1 },
    ]);
  });

  it('follows the search query, its dates bounding the hours counted', () => {
    const site = dashboard('project:site');
    expect(site.totals.totalTokens).toBe(1000);
    expect(site.tools.map((t) => t.name)).toEqual(['Bash', 'Read']);
    expect(dashboard('parser').projects.map((p) => p.name)).toEqual(['app']);
    expect(dashboard('after:2026-03-02').days.map((x) => x.day)).toEqual(['2026-03-02']);
    expect(dashboard('after:2026-03-01T09:20Z before:2026-03-01T23:00Z').totals.totalTokens).toBe(1000 + 4000);
  });

  it('shows the latest 5-hour block of the Claude sessions', () => {
    expect(dashboard().block).toBeNull();
    add(
      makeSession('claude', {
        format: 'claude-code',
        messages: [call('2026-03-09T22:10:00Z', 100, 0, 'claude-opus-4-7'), call('2026-03-09T23:10:00Z', 100, 0, 'claude-opus-4-7')],
      }),
    );
    catalogue.index.flush();
    expect(dashboard().block).toMatchObject({ startTime: '2026-03-09T22:00:00.000Z', isActive: true, totalTokens: 200 });
  });
});
