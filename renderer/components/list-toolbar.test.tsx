// The list toolbar's search figures: an exact count as it is, a capped one (a team store's) as at least that many.
import { describe, expect, it } from 'vitest';
import type { SearchView } from '../shown-sessions.ts';
import { render } from '../test-render.tsx';
import { ListToolbar } from './ListToolbar.tsx';

const search = (total: number, totalCapped: boolean): SearchView => ({
  text: 'quokka',
  results: [],
  total,
  totalCapped,
  tookMs: 12,
  problems: [],
  loading: false,
  loadingMore: false,
  error: null,
});

describe('ListToolbar search figures', () => {
  it('says how many results, and "200+" when the store stopped counting', () => {
    expect(render(<ListToolbar />, { filter: 'quokka', search: search(37, false) })).toContain('37 results · 12 ms');
    expect(render(<ListToolbar />, { filter: 'quokka', search: search(200, true) })).toContain('200+ results · 12 ms');
  });
});
