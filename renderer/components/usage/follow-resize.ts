// Redraws a chart when its box changes size, and not for the first observation of the size it was drawn at (every ResizeObserver reports once on observe).

/** Calls `resize` whenever `el`'s box differs from the last size seen, starting from its size now. Returns a stop. */
export function followResize(el: HTMLElement, resize: () => void): () => void {
  let width = el.clientWidth;
  let height = el.clientHeight;
  // The sizes ECharts draws at (clientWidth/clientHeight), read after the layout the observer reports.
  const observer = new ResizeObserver(() => {
    const w = el.clientWidth;
    const h = el.clientHeight;
    if (w === width && h === height) return;
    width = w;
    height = h;
    resize();
  });
  observer.observe(el);
  return () => observer.disconnect();
}
