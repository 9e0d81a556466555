// Indexing progress as the bar says it.
import { describe, expect, it } from 'vitest';
import { progressFraction, progressText } from './index-progress.ts';

const MB = 1024 * 1024;

describe('index progress', () => {
  it('says files, megabytes and the time left', () => {
    const p = { phase: 'scanning' as const, filesDone: 1234, filesTotal: 10_000, bytesDone: 120 * MB, bytesTotal: 712 * MB, etaMs: 39_200 };
    expect(progressText(p)).toBe('Indexing 1,234 of 10,000 files · 120 MB of 712 MB · about 40 s left');
    expect(progressText({ ...p, etaMs: 5 * 60_000 })).toContain('about 5 min left');
    expect(progressFraction(p)).toBeCloseTo(120 / 712);
  });

  it('leaves out what is not known yet', () => {
    const p = { phase: 'scanning' as const, filesDone: 0, filesTotal: 1, bytesDone: 0, bytesTotal: 0, etaMs: null };
    expect(progressText(p)).toBe('Indexing 0 of 1 file');
    expect(progressFraction(p)).toBe(0);
  });
});
