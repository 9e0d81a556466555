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

export interface VirtualRows {
  listRef: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLElement, Element>;
}

export function useVirtualRows(options: {
  count: number;
  estimateSize: (index: number) => number;
  getItemKey: (index: number) => string | number;
  overscan?: number;
}): VirtualRows {
  const listRef = useRef<HTMLDivElement | null>(null);
  const [scrollEl, setScrollEl] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);

  useLayoutEffect(() => {
    const list = listRef.current;
    const parent = scrollParent(list);
    if (!list || !parent) return;
    setScrollEl(parent);
    // The header, banners and tabs above the list change height; the list's offset must follow.
    const measure = () => {
      const m = list.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop;
      setMargin((prev) => (Math.abs(prev - m) > 0.5 ? m : prev));
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const child of parent.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);

  // No React Compiler here; the virtualizer instance is stable and re-renders this hook itself on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLElement, Element>({
    count: options.count,
    getScrollElement: () => scrollEl,
    estimateSize: options.estimateSize,
    getItemKey: options.getItemKey,
    overscan: options.overscan ?? DEFAULT_OVERSCAN,
    scrollMargin: margin,
    // Until the pane is measured (and when rendering to HTML) assume a typical window, not an empty one.
    initialRect: { width: 1024, height: 900 },
  });
  return { listRef, virtualizer };
}
