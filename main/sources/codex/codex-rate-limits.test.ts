// Codex's rate_limits in each shape it has written, read into the latest state a session keeps.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readCodexFile } from './codex.ts';
import { readRateLimits } from './codex-rate-limits.ts';
import { samplesDir } from '../../test-support/samples.ts';

describe('Codex rate limits', () => {
  it('reads the nested shape, reset times given as epoch seconds or as seconds from the report', () => {
    expect(
      readRateLimits(
        {
          primary: { used_percent: 4, window_minutes: 300, resets_at: 1_780_000_000 },
          secondary: { used_percent: 9, window_minutes: 10080, resets_in_seconds: 60 },
          plan_type: 'plus',
        },
        '2026-03-01T10:00:00.000Z',
      ),
    ).toEqual({
      at: '2026-03-01T10:00:00.000Z',
      limitId: null,
      plan: 'plus',
      windows: [
        { name: 'primary', usedPercent: 4, windowMinutes: 300, resetsAt: new Date(1_780_000_000_000).toISOString() },
        { name: 'secondary', usedPercent: 9, windowMinutes: 10080, resetsAt: '2026-03-01T10:01:00.000Z' },
      ],
    });
  });

  it('reads the older flat shape, and nothing from the all-zero placeholder', () => {
    expect(
      readRateLimits({ primary_used_percent: 50, primary_window_minutes: 300, secondary_used_percent: 0, secondary_window_minutes: 0 }, null)?.windows,
    ).toEqual([{ name: 'primary', usedPercent: 50, windowMinutes: 300, resetsAt: null }]);
    expect(readRateLimits({ primary: { used_percent: 0, window_minutes: 0, resets_in_seconds: 0 }, secondary: null }, null)).toBeNull();
    expect(readRateLimits('full', null)).toBeNull();
  });

  it('leaves out a reset time no date can hold, and keeps the rest of the window', () => {
    const windows = readRateLimits(
      {
        primary: { used_percent: 4, window_minutes: 300, resets_at: 9_007_199_254_740_992 },
        secondary: { used_percent: 9, window_minutes: 60, resets_in_seconds: 1e300 },
      },
      '2026-03-01T10:00:00.000Z',
    )?.windows;
    expect(windows).toEqual([
      { name: 'primary', usedPercent: 4, windowMinutes: 300, resetsAt: null },
      { name: 'secondary', usedPercent: 9, windowMinutes: 60, resetsAt: null },
    ]);
  });

  it('keeps the last state a rollout recorded in the session', async () => {
    const session = await readCodexFile(join(samplesDir, 'codex/sessions/2026/08/03/rollout-2026-08-03T10-48-56-019fc8be-3658-7ca3-9e29-000000000000.jsonl'));
    expect(session.extra.rateLimits).toMatchObject({ limitId: 'codex', plan: 'pro', windows: [{ name: 'primary', usedPercent: 1, windowMinutes: 10080 }] });
  });
});
