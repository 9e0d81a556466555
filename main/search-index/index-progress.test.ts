// The indexing progress tracker: counts, ETA from the read rate, a few reports a second, idle at the end.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IndexProgress } from '../../shared/search-api.ts';
import { IndexProgressTracker } from './index-progress.ts';

let clock = 0;
let reports: IndexProgress[] = [];
let tracker: IndexProgressTracker;

beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
  reports = [];
  tracker = new IndexProgressTracker((p) => reports.push(p), { intervalMs: 250, now: () => clock });
});

afterEach(() => {
  tracker.close();
  vi.useRealTimers();
});

const advance = (ms: number) => {
  clock += ms;
  vi.advanceTimersByTime(ms);
};

describe('IndexProgressTracker', () => {
  it('estimates the time left from the rate files are read at', () => {
    tracker.begin();
    tracker.found(1000, false);
    tracker.found(3000, false);
    advance(1000);
    tracker.done(1000);
    // 1000 bytes in 1 s, 3000 left: 3 s.
    expect(tracker.current()).toEqual({ phase: 'scanning', filesDone: 1, filesTotal: 2, bytesDone: 1000, bytesTotal: 4000, etaMs: 3000 });
  });

  it('has no ETA before anything was read, and unchanged files do not count towards the rate', () => {
    tracker.begin();
    tracker.found(5000, true);
    tracker.found(1000, false);
    advance(1000);
    expect(tracker.current().etaMs).toBeNull();
    expect(tracker.current()).toMatchObject({ filesDone: 1, filesTotal: 2, bytesDone: 5000 });
  });

  it('reports at most once per interval however many files finish, with the latest counts', () => {
    tracker.begin();
    for (let i = 0; i < 100; i++) tracker.found(10, false);
    for (let i = 0; i < 50; i++) {
      advance(10);
      tracker.done(10);
    }
    // 500 ms of work: the report at begin, and one per 250 ms after it.
    expect(reports.length).toBeLessThanOrEqual(3);
    advance(250);
    expect(reports.at(-1)).toMatchObject({ phase: 'scanning', filesDone: 50, filesTotal: 100 });
  });

  it('ends with one idle report when the last of overlapping scans ends, and starts afresh on the next scan', () => {
    tracker.begin();
    tracker.begin();
    tracker.found(10, false);
    tracker.found(20, false);
    tracker.done(10);
    tracker.done(20);
    tracker.end();
    expect(reports.at(-1)?.phase).toBe('scanning');
    tracker.end();
    expect(reports.at(-1)).toEqual({ phase: 'idle', filesDone: 2, filesTotal: 2, bytesDone: 30, bytesTotal: 30, etaMs: 0 });
    const count = reports.length;
    advance(1000);
    expect(reports.length).toBe(count);
    tracker.begin();
    expect(tracker.current()).toMatchObject({ phase: 'scanning', filesDone: 0, filesTotal: 0 });
  });
});
