// Tests for when a session counts as running: a fresh file AND fresh record times.
import { describe, expect, it } from 'vitest';
import { recentlyActive } from './activity.ts';

const now = Date.parse('2026-11-27T12:00:00Z');
const minutesAgo = (m: number) => now - m * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('recentlyActive', () => {
  it('counts a file written in the last ten minutes, with records as recent, as active', () => {
    expect(recentlyActive(now, minutesAgo(9), iso(minutesAgo(9)))).toBe(true);
    expect(recentlyActive(now, minutesAgo(11), iso(minutesAgo(1)))).toBe(false);
  });

  it('does not count a session copied today whose own records are old', () => {
    expect(recentlyActive(now, minutesAgo(1), '2025-03-01T10:00:00Z')).toBe(false);
  });

  it('decides by the file alone when the session records no time (or an unreadable one)', () => {
    expect(recentlyActive(now, minutesAgo(1), null)).toBe(true);
    expect(recentlyActive(now, minutesAgo(1), 'not a time')).toBe(true);
  });
});
