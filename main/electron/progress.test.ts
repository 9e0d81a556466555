// The taskbar bar follows indexing: a fraction of the bytes while a scan runs, removed when it is idle.
import { describe, expect, it } from 'vitest';
import type { IndexProgress } from '../../shared/search-api.ts';
import { taskbarProgress, taskbarValue } from './progress.ts';

const progress = (p: Partial<IndexProgress>): IndexProgress => ({
  phase: 'scanning',
  filesDone: 0,
  filesTotal: 0,
  bytesDone: 0,
  bytesTotal: 0,
  etaMs: null,
  ...p,
});

describe('taskbar progress', () => {
  it('shows the share of bytes indexed, files when sizes are unknown, and indeterminate while files are being found', () => {
    expect(taskbarValue(progress({ bytesDone: 250, bytesTotal: 1000, filesDone: 9, filesTotal: 10 }))).toBe(0.25);
    expect(taskbarValue(progress({ filesDone: 3, filesTotal: 4 }))).toBe(0.75);
    expect(taskbarValue(progress({}))).toBe(2);
    expect(taskbarValue(progress({ phase: 'idle', filesDone: 4, filesTotal: 4 }))).toBe(-1);
  });

  it('sets every open window once per whole percent and removes the bar at the end', () => {
    const bars: number[][] = [[], []];
    const windows = bars.map((values, i) => ({ isDestroyed: () => i === 1 && values.length >= 1, setProgressBar: (v: number) => void values.push(v) }));
    const onEvent = taskbarProgress(() => windows);
    onEvent({ name: 'sessionsChanged', payload: { changed: ['a'], removed: [] } });
    onEvent({ name: 'indexProgress', payload: progress({ bytesDone: 101, bytesTotal: 1000 }) });
    onEvent({ name: 'indexProgress', payload: progress({ bytesDone: 102, bytesTotal: 1000 }) });
    onEvent({ name: 'indexProgress', payload: progress({ bytesDone: 500, bytesTotal: 1000 }) });
    onEvent({ name: 'indexProgress', payload: progress({ phase: 'idle', bytesDone: 1000, bytesTotal: 1000 }) });
    expect(bars[0]).toEqual([0.1, 0.5, -1]);
    // The second window closed after its first update and is left alone.
    expect(bars[1]).toEqual([0.1]);
  });
});
