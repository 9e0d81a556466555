// A chart is redrawn when its box changes size, not once more right after its first drawing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followResize } from './follow-resize.ts';

/** A ResizeObserver the test fires by hand, as the browser does after a layout. */
class FakeObserver {
  static live: FakeObserver[] = [];
  observed: Element[] = [];
  private readonly callback: () => void;
  constructor(callback: () => void) {
    this.callback = callback;
    FakeObserver.live.push(this);
  }
  observe(el: Element) {
    this.observed.push(el);
  }
  disconnect() {
    this.observed = [];
  }
  fire() {
    if (this.observed.length) this.callback();
  }
}

function box(width: number, height: number) {
  const el = {
    get clientWidth() {
      return width;
    },
    get clientHeight() {
      return height;
    },
  } as unknown as HTMLElement;
  return { el, set: (w: number, h: number) => ((width = w), (height = h)) };
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeObserver.live = [];
});

describe('followResize', () => {
  it('skips the report of the size the chart was drawn at, and redraws for every new size', () => {
    vi.stubGlobal('ResizeObserver', FakeObserver);
    const { el, set } = box(600, 240);
    const resize = vi.fn();
    const stop = followResize(el, resize);
    const observer = FakeObserver.live[0]!;
    observer.fire();
    expect(resize).not.toHaveBeenCalled();
    set(480, 240);
    observer.fire();
    expect(resize).toHaveBeenCalledTimes(1);
    observer.fire();
    expect(resize).toHaveBeenCalledTimes(1);
    set(480, 300);
    observer.fire();
    expect(resize).toHaveBeenCalledTimes(2);
    stop();
    set(900, 300);
    observer.fire();
    expect(resize).toHaveBeenCalledTimes(2);
  });

  it('redraws when the box had changed between the drawing and the first report', () => {
    vi.stubGlobal('ResizeObserver', FakeObserver);
    const { el, set } = box(0, 240);
    const resize = vi.fn();
    followResize(el, resize);
    set(640, 240);
    FakeObserver.live[0]!.fire();
    expect(resize).toHaveBeenCalledTimes(1);
  });
});
