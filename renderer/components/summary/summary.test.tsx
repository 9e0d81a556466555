// The Summary card as the user sees it (a vault summary, a session's own, none), its form's parsing, and the store slice behind it.
import { describe, expect, it } from 'vitest';
import type { MethodInput } from '../../../shared/api.ts';
import type { SummaryRecord } from '../../../shared/summary-api.ts';
import { createAppStore } from '../../store/store.ts';
import type { SummaryView } from '../../store/store-summary.ts';
import { fakeClient } from '../../test-fixtures.ts';
import { count, render } from '../../test-render.tsx';
import { SummaryCard } from './SummaryCard.tsx';
import { draftOf, formOf } from './summary-draft.ts';

const KEY = 'codex:s1';
const record = (over: Partial<SummaryRecord> = {}): SummaryRecord => ({
  overview: 'Moved the index to SQLite.',
  decisions: ['Use FTS5'],
  outcomes: ['Search under 50 ms'],
  openItems: ['Vacuum nightly'],
  tags: ['search', 'sqlite'],
  source: 'vault',
  author: 'mcp: Claude Code',
  updatedAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  ...over,
});
const view = (summary: SummaryRecord | null, over: Partial<SummaryView> = {}): SummaryView => ({
  key: KEY,
  summary,
  loading: false,
  saving: false,
  error: null,
  ...over,
});

describe('SummaryCard', () => {
  it('shows the overview, the lists and the tags, with who wrote it and when', () => {
    const html = render(<SummaryCard sessionKey={KEY} />, { summaryView: view(record()) });
    expect(html).toContain('<h2 id="summary-heading">Summary</h2>');
    expect(html).toMatch(/data-testid="summary-byline">by <span data-testid="summary-author">mcp: Claude Code<\/span>, <time[^>]*>2 hours ago<\/time>/);
    expect(html).toContain('data-testid="summary-overview">Moved the index to SQLite.</p>');
    expect(html).toContain('<h3>Key decisions</h3><ul><li>Use FTS5</li></ul>');
    expect(html).toContain('<h3>Open items</h3><ul><li><span aria-hidden="true">☐ </span>Vacuum nightly</li></ul>');
    expect(count(html, 'class="tag-chip summary-tag"')).toBe(2);
    expect(html).toContain('aria-label="Edit the summary"');
    expect(html).toContain('data-testid="summary-remove"');
  });

  it("marks a session's own summary as coming from its file, with nothing to remove", () => {
    const html = render(<SummaryCard sessionKey={KEY} />, {
      summaryView: view(record({ source: 'session', author: 'ProjectHub', decisions: [], outcomes: [] })),
    });
    expect(html).toContain('ProjectHub');
    expect(html).toContain(' · from the session file');
    expect(html).not.toContain('Key decisions');
    expect(html).not.toContain('data-testid="summary-remove"');
  });

  it("offers to write one when there is none, and never shows another session's", () => {
    const none = render(<SummaryCard sessionKey={KEY} />, { summaryView: view(null) });
    expect(none).toContain('No summary yet.');
    expect(none).toMatch(/<button[^>]*data-testid="summary-edit"[^>]*>Write a summary<\/button>/);
    const other = render(<SummaryCard sessionKey={KEY} />, { summaryView: { ...view(record()), key: 'codex:other' } });
    expect(other).not.toContain('Moved the index');
    expect(other).toContain('Summary…');
  });
});

describe('the summary form', () => {
  it('reads one item a line (bullets dropped) and tags by commas, without repeats', () => {
    const form = { overview: '  Done. ', decisions: '- Use FTS5\n\n* Keep WAL', outcomes: '', openItems: '[ ] Vacuum', tags: 'search, sqlite,search' };
    expect(draftOf(form)).toEqual({
      draft: { overview: 'Done.', decisions: ['Use FTS5', 'Keep WAL'], outcomes: [], openItems: ['Vacuum'], tags: ['search', 'sqlite'] },
    });
    expect(draftOf(formOf(record()))).toEqual({
      draft: {
        overview: 'Moved the index to SQLite.',
        decisions: ['Use FTS5'],
        outcomes: ['Search under 50 ms'],
        openItems: ['Vacuum nightly'],
        tags: ['search', 'sqlite'],
      },
    });
  });

  it('asks for an overview before saving', () => {
    expect(draftOf({ ...formOf(null), decisions: 'x' })).toEqual({ problem: 'Write an overview: two or three sentences on what the session did.' });
  });
});

describe('the summary store slice', () => {
  it('loads a summary, saves one written by hand as "you", and keeps it when a save is refused', async () => {
    let stored: SummaryRecord | null = null;
    const fake = fakeClient({
      getSummary: async () => ({ summary: stored }),
      setSummary: async (input: MethodInput<'setSummary'>) => {
        if (input.summary?.overview === 'bad') throw new Error('Invalid input for setSummary: summary.tags.0: too long');
        stored = input.summary ? { ...record(), ...input.summary, author: input.author } : null;
        return { summary: stored };
      },
    });
    const store = createAppStore(fake.client);
    await store.getState().loadSummary(KEY);
    expect(store.getState().summaryView).toEqual(view(null));
    expect(await store.getState().saveSummary(KEY, { overview: 'By hand.', decisions: [], outcomes: [], openItems: [], tags: [] })).toBe(true);
    expect(fake.calls.at(-1)).toEqual({
      method: 'setSummary',
      input: { key: KEY, summary: { overview: 'By hand.', decisions: [], outcomes: [], openItems: [], tags: [] }, author: 'you' },
    });
    expect(store.getState().summaryView?.summary).toMatchObject({ overview: 'By hand.', author: 'you' });
    expect(await store.getState().saveSummary(KEY, { overview: 'bad', decisions: [], outcomes: [], openItems: [], tags: [] })).toBe(false);
    expect(store.getState().summaryView).toMatchObject({
      summary: { overview: 'By hand.' },
      saving: false,
      error: 'Invalid input for setSummary: summary.tags.0: too long',
    });
    store.getState().dispose();
  });
});
