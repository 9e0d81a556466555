// `usage blocks`' latest rate limits: the newest state of each window per source, whatever the tool named the window, within the query.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { makeSession } from './test-sessions.ts';
import { usageBlocks } from './usage-block-report.ts';
import { putWithUsage } from './usage-test-catalogue.ts';

let catalogue: IndexedCatalogue;

interface Window {
  name: string;
  usedPercent: number;
  windowMinutes: number;
  resetsAt: string | null;
}

/** A Codex session whose last `token_count` carried these windows at `at`, as the Codex reader keeps them. */
function codex(id: string, at: string, windows: Window[], project = 'api'): Session {
  return makeSession(id, {
    key: `codex:${id}`,
    format: 'codex',
    project: { path: `/home/dev/${project}`, name: project, branch: 'main', headCommit: null },
    extra: { rateLimits: { at, limitId: 'codex', plan: 'pro', windows } },
  });
}

const five = (usedPercent: number, resetsAt: string) => ({ name: 'primary', usedPercent, windowMinutes: 300, resetsAt });
const week = (name: string, usedPercent: number) => ({ name, usedPercent, windowMinutes: 10_080, resetsAt: null });

const limits = (query?: string) =>
  usageBlocks(catalogue, { timezone: 'UTC', ...(query ? { query } : {}) }, () => null, Date.parse('2026-03-02T00:00:00Z')).limits.map((l) => [
    l.windowMinutes,
    l.usedPercent,
    l.at,
    l.sessionKey,
  ]);

beforeEach(() => {
  catalogue = new IndexedCatalogue(new SessionIndex(':memory:'));
  putWithUsage(catalogue, '/roots/old.jsonl', codex('old', '2026-03-01T08:00:00Z', [five(40, '2026-03-01T12:00:00Z'), week('secondary', 7)]));
  // A later session, in a Codex version that calls its weekly window `primary` too.
  putWithUsage(catalogue, '/roots/new.jsonl', codex('new', '2026-03-01T10:00:00Z', [five(55, '2026-03-01T12:00:00Z'), week('primary', 9)], 'web'));
  catalogue.index.flush();
});

describe('the latest rate limits', () => {
  it('keeps the newest state of each window, one per window length, whatever its name', () => {
    expect(limits()).toEqual([
      [300, 55, '2026-03-01T10:00:00.000Z', 'codex:new'],
      [10_080, 9, '2026-03-01T10:00:00.000Z', 'codex:new'],
    ]);
  });

  it('keeps to the sessions a query matches', () => {
    expect(limits('project:api')).toEqual([
      [300, 40, '2026-03-01T08:00:00.000Z', 'codex:old'],
      [10_080, 7, '2026-03-01T08:00:00.000Z', 'codex:old'],
    ]);
    expect(limits('source:claude-code')).toEqual([]);
  });
});
