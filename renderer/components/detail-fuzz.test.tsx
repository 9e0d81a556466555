// Anything the contract allows, however odd (empty, huge, broken timestamps, deep tool inputs), renders without throwing: every tab of a session, the list's rows, a comparison.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OpenedSession } from '../../shared/api.ts';
import { Comparison } from '../../shared/compare/comparison.ts';
import { SessionSummary } from '../../shared/session.ts';
import { SearchResult } from '../../shared/search-api.ts';
import { arbitraryFor } from '../../shared/test-support/schema-arbitrary.ts';
import type { OpenSession } from '../store/store.ts';
import { render } from '../test-render.tsx';
import { Detail } from './Detail.tsx';
import { SessionList } from './SessionList.tsx';
import { Compare } from './compare/Compare.tsx';

const TABS = ['conversation', 'operations', 'usage', 'images', 'info', 'todos', 'config', 'warnings'];

/** Strings a reader may hand on: prose and markdown, code, timestamps good and bad, paths, images, ids. */
const STRINGS = [
  'Fix the **flaky** test in `src/retry.ts`\n\n```ts\nconst x = 1;\n```\n| a | b |\n|---|---|\n| 1 | 2 |',
  '2026-01-31T12:00:00.000Z',
  '2026-13-45T99:99:99Z',
  'not a time',
  '/home/dev/project/src/index.ts',
  'claude-code:parent-session',
  'toolu_01',
  'image/png',
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'https://example.com/a.png',
  'javascript:alert(1)',
  '<script>alert(1)</script>',
  'x'.repeat(30_000),
  '\u202Eevil\u202C',
];

/** SV_RENDER_RUNS=1000 explores further, from a new seed each time (the renderer's tsconfig has no Node types: read it by hand). */
const explore = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.SV_RENDER_RUNS;
const RUNS = { numRuns: Number(explore ?? 60), ...(explore ? {} : { seed: 2026 }) };

const POOLS = { strings: STRINGS, numbers: [0, 1, 3, 1e6] };

const opened = (session: OpenedSession): OpenSession => ({
  key: session.key,
  session,
  loading: false,
  error: null,
  errorCode: null,
  unreadable: null,
  removed: false,
});

describe('the detail view under odd sessions', () => {
  it('renders every tab of any session the contract allows', () => {
    let valid = 0;
    fc.assert(
      fc.property(arbitraryFor(OpenedSession, POOLS), (raw) => {
        const parsed = OpenedSession.safeParse(raw);
        if (!parsed.success) return;
        valid++;
        for (const detailTab of TABS) {
          expect(() => render(<Detail />, { open: opened(parsed.data), sessions: [], detailTab }), detailTab).not.toThrow();
        }
      }),
      RUNS,
    );
    expect(valid).toBeGreaterThan(0);
  }, 300_000);

  it("renders the list's rows of any summaries the contract allows", () => {
    fc.assert(
      fc.property(fc.array(arbitraryFor(SessionSummary, POOLS), { minLength: 1, maxLength: 5 }), (raw) => {
        const sessions = raw.flatMap((r) => {
          const parsed = SessionSummary.safeParse(r);
          return parsed.success ? [parsed.data] : [];
        });
        expect(() => render(<SessionList />, { loaded: true, sessions })).not.toThrow();
      }),
      RUNS,
    );
  }, 300_000);

  it('renders any search results the contract allows, snippets and all', () => {
    fc.assert(
      fc.property(fc.array(arbitraryFor(SearchResult, POOLS), { minLength: 1, maxLength: 5 }), (raw) => {
        const results = raw.flatMap((r) => {
          const parsed = SearchResult.safeParse(r);
          return parsed.success ? [parsed.data] : [];
        });
        const search = { text: 'retry', results, total: results.length, tookMs: 1, problems: [], loading: false, loadingMore: false, error: null };
        expect(() => render(<SessionList />, { loaded: true, sessions: results.map((r) => r.summary), filter: 'retry', search })).not.toThrow();
      }),
      RUNS,
    );
  }, 300_000);

  it('renders any comparison the contract allows', () => {
    fc.assert(
      fc.property(arbitraryFor(Comparison, POOLS), (raw) => {
        const parsed = Comparison.safeParse(raw);
        if (!parsed.success) return;
        const compare = { a: 'codex:a', b: 'claude-code:b', comparison: parsed.data, loading: false, error: null };
        expect(() => render(<Compare />, { compare })).not.toThrow();
      }),
      RUNS,
    );
  }, 300_000);
});
