// Search as the list and transcript show it: snippets with marks (as text), counts and problems, facets, progress, the opened match.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { emptyFacets, type SearchResult } from '../../../shared/search-api.ts';
import type { SearchView } from '../../shown-sessions.ts';
import { summary } from '../../test-fixtures.ts';
import { count, render } from '../../test-render.tsx';
import { msg, text } from '../../test-sessions.ts';
import { Conversation } from '../transcript/Conversation.tsx';
import { loadMarkdown } from '../transcript/MarkdownText.tsx';
import { FacetPanel } from './FacetPanel.tsx';
import { StatusLine } from '../StatusLine.tsx';
import { ListToolbar } from '../ListToolbar.tsx';
import { SessionList } from '../SessionList.tsx';

const found = summary({ key: 'codex:1', format: 'codex', title: 'Fix the importer' });
const other = summary({ key: 'vizier:2', title: 'Unrelated work' });
const results: SearchResult[] = [
  {
    summary: found,
    snippet: [
      { text: '… call <b>', hit: false },
      { text: 'parseConfig', hit: true },
      { text: '</b> again', hit: false },
    ],
    messageIndex: 3,
    score: -2,
  },
];
const view = (over: Partial<SearchView> = {}): SearchView => ({
  text: 'parseConfig',
  results,
  total: 1,
  tookMs: 4.2,
  problems: [],
  loading: false,
  loadingMore: false,
  error: null,
  ...over,
});

describe('search in the list', () => {
  it('shows the results with their snippet, the hit in <mark> and markup kept as text', () => {
    const html = render(<SessionList />, { loaded: true, sessions: [found, other], filter: 'parseConfig', search: view() });
    expect(count(html, 'data-testid="session-row"')).toBe(1);
    expect(html).toContain('<mark>parseConfig</mark>');
    expect(html).toContain('&lt;b&gt;');
    expect(html).not.toContain('<b>');
  });

  it('is busy from the keystroke until the index answers that very text, so a click does not land on a moving row', () => {
    const busy = (state: Parameters<typeof render>[1]) => /data-testid="session-list" aria-busy="(\w+)"/.exec(render(<SessionList />, state))?.[1];
    expect(busy({ loaded: true, sessions: [found], filter: '', search: null })).toBe('false');
    expect(busy({ loaded: true, sessions: [found], filter: 'parse', search: null })).toBe('true');
    expect(busy({ loaded: true, sessions: [found], filter: 'parseConfig x', search: view() })).toBe('true');
    expect(busy({ loaded: true, sessions: [found], filter: 'parseConfig', search: view({ loading: true }) })).toBe('true');
    expect(busy({ loaded: true, sessions: [found], filter: 'parseConfig', search: view() })).toBe('false');
  });

  it('says how many matched and how fast, and any filter it could not use', () => {
    const html = render(<ListToolbar />, {
      filter: 'parseConfig source:nope',
      search: view({ total: 1234, problems: ['Unknown source "nope" (one of claude-code, codex).'] }),
    });
    expect(html).toContain('1,234 results · 4.2 ms');
    expect(html).toContain('Unknown source &quot;nope&quot;');
    expect(html).toContain('<option value="relevance" selected="">Relevance</option>');
  });

  it('offers no relevance order for the plain list, and says so when search fails', () => {
    expect(render(<ListToolbar />, { filter: '' })).not.toContain('relevance');
    const failed = render(<ListToolbar />, { filter: 'x', search: view({ error: 'The index is being rebuilt.' }) });
    expect(failed).toContain('Search did not answer: The index is being rebuilt.');
  });

  it('shows facet counts when opened, with the filters already in the box pressed', () => {
    const html = renderOpenPanel({
      filter: 'quokka source:codex',
      facets: {
        ...emptyFacets(),
        source: [
          { value: 'codex', count: 12, filter: 'source:codex' },
          { value: 'vizier', count: 3, filter: 'source:vizier' },
        ],
        branch: [{ value: 'main', count: 1500, filter: 'branch:main' }],
      },
    });
    expect(html).toMatch(/data-filter="source:codex" aria-pressed="true"[^>]*>Codex <span class="facet-count">12</);
    expect(html).toMatch(/data-filter="source:vizier" aria-pressed="false"/);
    expect(html).toContain('1,500');
    expect(html).not.toContain('data-facet="model"');
  });

  it("offers date, token, cost and summary ranges as chips, and date fields showing the query's own range", () => {
    const html = renderOpenPanel({
      filter: 'quokka after:2026-01-31 tokens>=100k',
      facets: {
        ...emptyFacets(),
        date: [{ value: 'Past 30 days', count: 4, filter: 'after:30d' }],
        tokens: [
          { value: '10k+', count: 9, filter: 'tokens>=10k' },
          { value: '100k+', count: 2, filter: 'tokens>=100k' },
        ],
        summary: [{ value: 'Has a summary', count: 1, filter: 'has:summary' }],
      },
    });
    expect(html).toMatch(/data-facet="date".*When.*data-filter="after:30d" aria-pressed="false"[^>]*>Past 30 days <span class="facet-count">4</s);
    expect(html).toMatch(/data-testid="date-after"[^>]*value="2026-01-31"/);
    expect(html).toMatch(/data-testid="date-before"[^>]*value=""/);
    expect(html).toMatch(/data-filter="tokens&gt;=100k" aria-pressed="true"/);
    expect(html).toContain('Has a summary');
    expect(html).not.toContain('data-facet="cost"');
    // With no preset range holding a match, the date fields are still there.
    const none = render(<FacetPanel />, { filter: 'quokka', facets: emptyFacets() });
    expect(none).toContain('data-testid="date-after"');
  });

  it('starts closed, one "Refine" line, so counts arriving later never move the list', () => {
    vi.stubGlobal('localStorage', memoryStorage({}));
    const html = render(<FacetPanel />, { facets: { ...emptyFacets(), source: [{ value: 'codex', count: 12, filter: 'source:codex' }] } });
    expect(html).toMatch(/aria-expanded="false"[^>]*>▸ Refine/);
    expect(html).not.toContain('data-testid="facet"');
    // The same line stands before any counts exist.
    expect(render(<FacetPanel />, { facets: null })).toMatch(/aria-expanded="false"[^>]*>▸ Refine/);
  });
});

/** The browser's localStorage, as far as the panel uses it, for the Node test run (which has none). */
function memoryStorage(values: Record<string, string>): Pick<Storage, 'getItem' | 'setItem'> {
  return { getItem: (k) => values[k] ?? null, setItem: (k, v) => void (values[k] = v) };
}

/** The panel as a user who opened it before sees it (the open state is remembered in localStorage). */
function renderOpenPanel(state: Parameters<typeof render>[1]): string {
  vi.stubGlobal('localStorage', memoryStorage({ 'session-vault.facets-open': '1' }));
  return render(<FacetPanel />, state);
}

afterEach(() => vi.unstubAllGlobals());

describe('indexing progress', () => {
  it('shows a bar with files, sizes and time left while scanning, and that the index is up to date when idle', () => {
    const scanning = { phase: 'scanning' as const, filesDone: 5, filesTotal: 20, bytesDone: 1024 * 1024, bytesTotal: 4 * 1024 * 1024, etaMs: 3000 };
    const html = render(<StatusLine />, { indexProgress: scanning });
    expect(html).toContain('Indexing 5 of 20 files · 1.0 MB of 4.0 MB · about 3 s left');
    expect(html).toContain('aria-valuenow="25"');
    const idle = render(<StatusLine />, { indexProgress: { ...scanning, phase: 'idle' } });
    expect(idle).toContain('data-testid="status-bar"');
    expect(idle).not.toContain('progressbar');
    expect(idle).toContain('Index up to date · 20 files checked');
  });

  it('says search is still catching up while listed sessions are not searchable yet, during the scan and after it', () => {
    const idle = { phase: 'idle' as const, filesDone: 20, filesTotal: 20, bytesDone: 4096, bytesTotal: 4096, etaMs: 0 };
    const after = render(<StatusLine />, { indexProgress: { ...idle, searchPending: 1200 } });
    expect(after).toContain('Search catching up · 1,200 sessions not searchable yet');
    expect(after).not.toContain('Index up to date');
    const during = render(<StatusLine />, { indexProgress: { ...idle, phase: 'scanning', filesDone: 5, searchPending: 1 } });
    expect(during).toContain('progressbar');
    expect(during).toContain('Search catching up · 1 session not searchable yet');
    const substrings = render(<StatusLine />, { indexProgress: { ...idle, substringPending: 40 } });
    expect(substrings).toContain('Identifier search catching up · 40 sessions left');
    expect(render(<StatusLine />, { indexProgress: idle })).toContain('Index up to date · 20 files checked');
  });
});

describe('opening a search result', () => {
  // The transcript renders markdown once its chunk has loaded (plain text before).
  beforeAll(() => loadMarkdown());

  it('marks the matching message and highlights the words in it only', () => {
    const messages = [
      msg('user', [text('Where is quokka configured?')]),
      msg('assistant', [text('Looking.')]),
      msg('assistant', [text('The quokka importer reads **dates** now.')]),
    ];
    const html = render(
      <Conversation
        sessionKey="codex:1"
        messages={messages}
        messagesTotal={3}
        operations={[]}
        find={{ open: false, focusSignal: 0, onClose: () => {} }}
        focus={{ messageIndex: 2, terms: ['quokka', 'dates'] }}
      />,
    );
    expect(count(html, 'data-search-target="true"')).toBe(1);
    const target = html.slice(html.indexOf('data-search-target'));
    expect(target).toContain('<mark class="find-hit">quokka</mark>');
    expect(target).toContain('<strong><mark class="find-hit">dates</mark></strong>');
    expect(count(html, '<mark')).toBe(2);
  });
});
