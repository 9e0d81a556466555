// A click on the dashboard narrows the search box to what was clicked, and a second click takes it out again.
import { describe, expect, it } from 'vitest';
import { dayFilters, groupFilter, hourFilters, modelFilter, narrowTo } from './usage-filters.ts';

describe('dashboard filters', () => {
  it('names a local day and a local hour as after:/before:', () => {
    expect(dayFilters('2026-02-28')).toEqual(['after:2026-02-28T00:00', 'before:2026-03-01T00:00']);
    expect(hourFilters('2026-02-28', 9)).toEqual(['after:2026-02-28T09:00', 'before:2026-02-28T10:00']);
    expect(hourFilters('2026-12-31', 23)).toEqual(['after:2026-12-31T23:00', 'before:2027-01-01T00:00']);
  });

  it('names a group of the breakdown, quoted where the filter matches a whole name', () => {
    expect(groupFilter('project', 'my app')).toBe('project:"my app"');
    expect(groupFilter('source', 'codex')).toBe('source:codex');
    expect(groupFilter('project', 'other')).toBeNull();
    // A model's whole name: model:opus alone would also pick claude-opus-4-1's sessions.
    expect(groupFilter('model', 'claude-opus-4-7')).toBe('model:"claude-opus-4-7"');
    expect(groupFilter('model', '(none)')).toBeNull();
    expect(modelFilter('other')).toBeNull();
  });

  it('replaces the dates already in the box, keeps the rest, and a second click takes them out', () => {
    const once = narrowTo('refactor after:7d project:app', dayFilters('2026-02-28'));
    expect(once).toBe('refactor project:app after:2026-02-28T00:00 before:2026-03-01T00:00');
    expect(narrowTo(once, dayFilters('2026-02-28'))).toBe('refactor project:app');
  });
});
