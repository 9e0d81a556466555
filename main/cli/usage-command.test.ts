// `session-vault usage`: the table a user reads (partial costs as lower bounds) and the mistakes it refuses.
import { describe, expect, it } from 'vitest';
import type { UsageFigures } from '../../shared/usage-api.ts';
import { costText, formatUsage, runUsage } from './usage-command.ts';

const figures = (over: Partial<UsageFigures>): UsageFigures => ({
  input: 1200,
  output: 30,
  cacheRead: 5000,
  cacheWrite: 0,
  reasoning: 0,
  totalTokens: 6230,
  costUsd: 0.0018,
  unpricedCalls: 0,
  sessions: 1,
  ...over,
});

describe('usage command', () => {
  it('says a cost that leaves calls out is a lower bound', () => {
    expect(costText({ costUsd: 12.5, unpricedCalls: 0 })).toBe('$12.50');
    expect(costText({ costUsd: 0.0018, unpricedCalls: 3 })).toBe('≥ $0.0018, 3 unpriced');
  });

  it('prints a row per period, a total, and the time zone the days are in', () => {
    const rows = [
      { period: '2026-03-01', models: ['claude-sonnet-4-5'], ...figures({}) },
      { period: '2026-03-02', models: ['claude-sonnet-4-5', 'mystery-1'], ...figures({ costUsd: 2, unpricedCalls: 1 }) },
    ];
    const table = formatUsage(
      { period: 'daily', timezone: 'Europe/Paris', rows, totals: figures({ costUsd: 2.0018, unpricedCalls: 1, sessions: 2 }), problems: [], tookMs: 1 },
      false,
    );
    const lines = table.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Day +Models +Input +Output +Cache read +Cache write +Reasoning +Total +Cost$/);
    expect(lines[2]).toMatch(/^2026-03-01 +claude-sonnet-4-5 +1,200 +30 +5,000 +0 +0 +6,230 +\$0\.0018$/);
    expect(lines[3]).toContain('claude-sonnet-4-5, mystery-1');
    expect(lines[3]).toMatch(/≥ \$2\.00, 1 unpriced$/);
    expect(lines[5]).toMatch(/^Total .*≥ \$2\.00, 1 unpriced$/);
    expect(lines[6]).toBe('2 sessions (days in Europe/Paris)');
  });

  it('says so when nothing was used', () => {
    expect(formatUsage({ period: 'monthly', timezone: 'UTC', rows: [], totals: figures({ sessions: 0 }), problems: [], tookMs: 0 }, true)).toBe(
      'No usage in these sessions and days.\n',
    );
  });

  it('refuses an unknown report, breakdown, day or time zone before reading anything', async () => {
    await expect(runUsage(['yearly'])).rejects.toThrow('give one report: daily, weekly, monthly, session, blocks');
    await expect(runUsage(['daily', '--breakdown', 'colour'])).rejects.toThrow('--breakdown must be one of model, project, source, branch');
    await expect(runUsage(['daily', '--since', '2026-02-30'])).rejects.toThrow('--since must be a day such as 2026-01-31');
    await expect(runUsage(['daily', '--timezone', 'Mars/Olympus'])).rejects.toThrow('is not a time zone');
  });
});
