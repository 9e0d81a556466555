// The usage page's times say their year when it is not this one: a rate limit recorded last December is not last week's.
import { describe, expect, it } from 'vitest';
import { render } from '../../test-render.tsx';
import { BlockCard } from './BlockCard.tsx';
import { clockTime } from './clock-time.ts';

describe('clockTime', () => {
  const now = Date.parse('2026-05-26T12:00:00Z');

  it('writes the year of a time from another year, and leaves it out for this year', () => {
    expect(clockTime('2025-12-18T10:00:00Z', now)).toContain('2025');
    expect(clockTime('2026-05-26T08:00:00Z', now)).not.toContain('2026');
  });

  it('dates a rate limit recorded in an earlier year with that year on the usage page', () => {
    const year = new Date().getFullYear() - 1;
    const limit = { source: 'codex', window: 'primary', windowMinutes: 300, usedPercent: 1, plan: null, limitId: null, sessionKey: null };
    const html = render(<BlockCard block={null} limits={[{ ...limit, at: `${year}-12-18T10:00:00Z`, resetsAt: `${year}-12-18T15:00:00Z` }]} />);
    expect(html).toMatch(new RegExp(`1% used as of Dec 18, ${year}.* · reset since Dec 18, ${year}`));
  });
});
