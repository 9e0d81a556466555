// List order and filter as the user sees them.
import { describe, expect, it } from 'vitest';
import { filterSessions, sortNewestFirst, visibleSessions } from './session-filter.ts';
import { summary } from '../../test-fixtures.ts';

const a = summary({ key: 'vizier:1', title: 'Fix login', branch: 'feat/auth', updatedAt: '2025-01-02T00:00:00Z' });
const b = summary({ key: 'jido-code:2', format: 'jido-code', title: 'Refactor', projectName: 'billing', updatedAt: '2025-01-03T00:00:00Z' });
const c = summary({ key: 'codex:3', format: 'codex', title: 'Unreadable', updatedAt: null, mtimeMs: Date.parse('2025-01-01T00:00:00Z') });

describe('session list order and filter', () => {
  it('orders newest first, using the file time when updatedAt is unknown', () => {
    expect(sortNewestFirst([a, c, b]).map((s) => s.key)).toEqual(['jido-code:2', 'vizier:1', 'codex:3']);
  });

  it('matches every word case-insensitively against title, project, branch, id and format label', () => {
    expect(filterSessions([a, b, c], 'LOGIN').map((s) => s.key)).toEqual(['vizier:1']);
    expect(filterSessions([a, b, c], 'auth fix').map((s) => s.key)).toEqual(['vizier:1']);
    expect(filterSessions([a, b, c], 'billing').map((s) => s.key)).toEqual(['jido-code:2']);
    expect(filterSessions([a, b, c], 'JidoCode').map((s) => s.key)).toEqual(['jido-code:2']);
    expect(filterSessions([a, b, c], '3').map((s) => s.key)).toEqual(['codex:3']);
    expect(filterSessions([a, b, c], 'nothing-like-this')).toEqual([]);
  });

  it('returns the same array for the same inputs so selectors stay stable', () => {
    const list = [a, b, c];
    expect(visibleSessions(list, 'fix')).toBe(visibleSessions(list, 'fix'));
    expect(visibleSessions(list, 'fix')).not.toBe(visibleSessions(list, 'refactor'));
  });
});
