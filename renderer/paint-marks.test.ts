// A first-paint mark is set once per page, at the frame after the render that showed it, however often that render repeats.
import { afterEach, expect, it, vi } from 'vitest';
import { LIST_PAINTED, markFirstPaint } from './paint-marks.ts';

afterEach(() => {
  performance.clearMarks(LIST_PAINTED);
  vi.unstubAllGlobals();
});

it('marks the first paint once, at the next frame', () => {
  const frames: Array<() => void> = [];
  vi.stubGlobal('requestAnimationFrame', (run: () => void) => frames.push(run));
  markFirstPaint(LIST_PAINTED);
  markFirstPaint(LIST_PAINTED);
  expect(performance.getEntriesByName(LIST_PAINTED)).toHaveLength(0);
  for (const run of frames.splice(0)) run();
  markFirstPaint(LIST_PAINTED);
  for (const run of frames.splice(0)) run();
  expect(performance.getEntriesByName(LIST_PAINTED)).toHaveLength(1);
});
