// The comparison view rendered to HTML: header deltas, word diffs on both sides, folded identical turns, gaps, and the pick bar.
import { describe, expect, it } from 'vitest';
import { compareSessions } from '../../../shared/compare/compare.ts';
import { BASE_TURNS, testSession, type TurnSpec } from '../../../shared/compare/test-sessions.ts';
import { session, summary } from '../../test-fixtures.ts';
import { count, render } from '../../test-render.tsx';
import { Compare } from './Compare.tsx';
import { CompareBar } from './CompareBar.tsx';

const extra: TurnSpec = { prompt: 'Also log every retry at debug level.', steps: ['Logged.'] };
const b: TurnSpec[] = [
  BASE_TURNS[0]!,
  BASE_TURNS[1]!,
  {
    ...BASE_TURNS[2]!,
    prompt: 'Run the tests please.',
    tokens: 6000,
    steps: [{ tool: 'Bash', input: { command: 'npm test' }, output: '1 failed', error: true }, 'One test fails.'],
  },
  extra,
];
const c = compareSessions(testSession('vault:a', BASE_TURNS), testSession('vault:b', b));
const view = { a: 'vault:a', b: 'vault:b', comparison: c, loading: false, error: null };

describe('Compare', () => {
  const html = render(<Compare />, { compare: view });

  it('names both sides and offers swap and close', () => {
    expect(html).toContain('data-testid="compare-view"');
    expect(html).toContain('Session vault:a');
    expect(html).toContain('data-testid="compare-swap"');
  });

  it('shows the header fields that differ with their deltas', () => {
    expect(html).toMatch(/data-label="Total tokens".*?7,500.*?11,000.*?\+3,500 tokens, \+47%/s);
    expect(html).toMatch(/data-label="Duration".*?15 s.*?13 s.*?-2.0 s, 1.2× faster/s);
    expect(html).toMatch(/data-label="Tool errors".*?>0<.*?>1<.*?>\+1</s);
  });

  it('marks the edited prompt word by word on each side', () => {
    expect(html).toContain('<ins class="wd-ins" data-testid="word-ins"> please</ins>');
    expect(count(html, 'data-testid="word-ins"')).toBeGreaterThan(0);
  });

  it('folds the identical opening turns and leaves a gap where a turn exists on one side only', () => {
    expect(html).toContain('2 identical turns');
    expect(html).toMatch(/data-status="deleted"/);
    expect(html).toMatch(/data-status="inserted"/);
    expect(html).toContain('cmp-cell cmp-gap');
  });

  it('flags the tool call whose status changed', () => {
    expect(html).toContain('status differs');
    expect(html).toContain('data-testid="compare-summary"');
    expect(html).toContain('1 changed');
    expect(html).toContain('data-testid="compare-position">– of 3<');
  });

  it('shows a time no date can hold (2^53 ms, from a bundle or a team store) as the text the comparison carries, not a crash', () => {
    const header = c.header.map((row) => (row.unit === 'time' ? { ...row, av: 2 ** 53, a: 'no such time' } : row));
    const odd = render(<Compare />, { compare: { ...view, comparison: { ...c, header } } });
    expect(odd).toContain('no such time');
  });

  it('says so when the comparison failed', () => {
    const failed = render(<Compare />, { compare: { ...view, comparison: null, error: 'No session with key "vault:x" is known.' } });
    expect(failed).toContain('Could not compare these sessions: No session with key &quot;vault:x&quot; is known.');
  });
});

describe('CompareBar', () => {
  it('offers "Compare with…" for the open session', () => {
    const html = render(<CompareBar />, {
      open: { key: 'vault:a', session: session({ key: 'vault:a' }), loading: false, error: null, errorCode: null, unreadable: null, removed: false },
    });
    expect(html).toContain('Compare with…');
  });

  it('asks for the partner while picking, and offers to compare two marked rows', () => {
    const sessions = [summary({ key: 'vault:a', title: 'Fix retries' })];
    expect(render(<CompareBar />, { sessions, comparePick: 'vault:a' })).toMatch(/Pick the session to compare with <strong>Fix retries<\/strong>/);
    expect(render(<CompareBar />, { compareMarks: ['vault:a', 'vault:b'] })).toContain('Compare the 2 marked sessions');
  });
});
