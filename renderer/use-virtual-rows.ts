// A virtual list inside the page's own scrolling pane: rows measured as they render, offset by whatever sits above.
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * Rows rendered beyond the visible ones, each way. Large enough that a short session (under ~40
 * messages) is fully in the DOM, which end-to-end tests and the browser's own find rely on.
 */
export const DEFAULT_OVERSCAN = 40;

export function scrollParent(el: HTMLElement | null): HTMLElement | null {
  for (let p = el?.parentElement ?? null; p; p = p.parentElement) {
    const { overflowY } = getComputedStyle(p);
    if (overflowY === 'auto' || overflowY === 'scroll') return p;
  }
  return null;
}

/** Room left between a sticky strip and the row placed under it. */
const COVER_GAP = 6;

export interface VirtualRows {
  listRef: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLElement, Element>;
}

export function useVirtualRows(options: {
  count: number;
  estimateSize: (index: number) => number;
  getItemKey: (index: number) => string | number;
  overscan?: number;
  /**
   * A sticky strip inside the scrolling pane (a selector) that covers its top edge: a row scrolled to "start" lands
   * just below it, placed by the virtualizer itself in one scroll, so no second correction moves the view after it.
   */
  coveredBy?: string;
}): VirtualRows {
  const listRef = useRef<HTMLDivElement | null>(null);
  const [scrollEl, setScrollEl] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  const [covered, setCovered] = useState(0);
  const coveredBy = options.coveredBy;

  useLayoutEffect(() => {
    const list = listRef.current;
    const parent = scrollParent(list);
    if (!list || !parent) return;
    setScrollEl(parent);
    // The header, banners and tabs above the list change height; the list's offset must follow.
    const measure = () => {
      const m = list.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop;
      setMargin((prev) => (Math.abs(prev - m) > 0.5 ? m : prev));
      const strip = coveredBy ? parent.querySelector<HTMLElement>(coveredBy) : null;
      const c = strip ? strip.offsetHeight + COVER_GAP : 0;
      setCovered((prev) => (Math.abs(prev - c) > 0.5 ? c : prev));
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const child of parent.children) observer.observe(child);
    const strip = coveredBy ? parent.querySelector<HTMLElement>(coveredBy) : null;
    if (strip) observer.observe(strip);
    return () => observer.disconnect();
  }, [coveredBy]);

  // No React Compiler here; the virtualizer instance is stable and re-renders this hook itself on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLElement, Element>({
    count: options.count,
    getScrollElement: () => scrollEl,
    estimateSize: options.estimateSize,
    getItemKey: options.getItemKey,
    overscan: options.overscan ?? DEFAULT_OVERSCAN,
    scrollMargin: margin,
    scrollPaddingStart: covered,
    // Until the pane is measured (and when rendering to HTML) assume a typical window, not an empty one.
    initialRect: { width: 1024, height: 900 },
  });
  return { listRef, virtualizer };
}
