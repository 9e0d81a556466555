// A chart left for later is drawn once: when its card nears the viewport or when the page is idle, whichever comes first; never after it is gone.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { IDLE_TIMEOUT_MS, whenNearOrIdle } from './draw-later.ts';

let idle: Array<() => void> = [];
let observers: Array<{ callback: (entries: Array<{ isIntersecting: boolean }>) => void; margin: string | undefined; disconnected: boolean }> = [];
let idleTimeout: number | undefined;

beforeEach(() => {
  idle = [];
  observers = [];
  vi.stubGlobal('requestIdleCallback', (run: () => void, options?: { timeout?: number }) => {
    idleTimeout = options?.timeout;
    return idle.push(run);
  });
  vi.stubGlobal('cancelIdleCallback', (id: number) => {
    idle[id - 1] = () => {};
  });
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      entry;
      constructor(callback: (entries: Array<{ isIntersecting: boolean }>) => void, options?: { rootMargin?: string }) {
        this.entry = { callback, margin: options?.rootMargin, disconnected: false };
        observers.push(this.entry);
      }
      observe() {}
      disconnect() {
        this.entry.disconnected = true;
      }
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

const el = {} as Element;

it('draws when the page is idle, once, and stops watching the viewport', () => {
  const draw = vi.fn();
  whenNearOrIdle(el, draw);
  expect(draw).not.toHaveBeenCalled();
  expect(idleTimeout).toBe(IDLE_TIMEOUT_MS);
  for (const run of idle) run();
  expect(draw).toHaveBeenCalledTimes(1);
  observers[0]?.callback([{ isIntersecting: true }]);
  expect(draw).toHaveBeenCalledTimes(1);
  expect(observers[0]?.disconnected).toBe(true);
});

it('draws as soon as the card nears the viewport, not while it is far below', () => {
  const draw = vi.fn();
  whenNearOrIdle(el, draw);
  expect(observers[0]?.margin).toMatch(/^\d+px$/);
  observers[0]?.callback([{ isIntersecting: false }]);
  expect(draw).not.toHaveBeenCalled();
  observers[0]?.callback([{ isIntersecting: true }]);
  expect(draw).toHaveBeenCalledTimes(1);
  for (const run of idle) run();
  expect(draw).toHaveBeenCalledTimes(1);
});

it('never draws once cancelled (the dashboard went away first)', () => {
  const draw = vi.fn();
  const cancel = whenNearOrIdle(el, draw);
  cancel();
  for (const run of idle) run();
  observers[0]?.callback([{ isIntersecting: true }]);
  expect(draw).not.toHaveBeenCalled();
});

it('without idle callbacks (Safari), draws after a short timer', () => {
  vi.stubGlobal('requestIdleCallback', undefined);
  vi.useFakeTimers();
  try {
    const draw = vi.fn();
    whenNearOrIdle(el, draw);
    expect(draw).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(draw).toHaveBeenCalledTimes(1);
  } finally {
    vi.useRealTimers();
  }
});
