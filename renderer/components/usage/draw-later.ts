// When to draw a chart that is not needed for the first paint: as soon as it nears the viewport, or when the page is next idle.

/** How close to the viewport a card is when its chart is drawn (px), so a scroll finds it drawn. */
export const NEAR_VIEWPORT_PX = 300;
/** The longest a chart waits for an idle moment (ms) on a page that is never idle. */
export const IDLE_TIMEOUT_MS = 1500;

/** Calls `draw` once: when `el` comes within NEAR_VIEWPORT_PX of the viewport, or at the next idle moment. Returns a cancel. */
export function whenNearOrIdle(el: Element, draw: () => void): () => void {
  let done = false;
  const cleanups: Array<() => void> = [];
  const cancel = () => {
    done = true;
    for (const c of cleanups) c();
  };
  const fire = () => {
    if (done) return;
    cancel();
    draw();
  };
  if (typeof IntersectionObserver === 'function') {
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && fire(), { rootMargin: `${NEAR_VIEWPORT_PX}px` });
    seen.observe(el);
    cleanups.push(() => seen.disconnect());
  }
  if (typeof requestIdleCallback === 'function') {
    const idle = requestIdleCallback(fire, { timeout: IDLE_TIMEOUT_MS });
    cleanups.push(() => cancelIdleCallback(idle));
  } else {
    // Browsers without idle callbacks (Safari): after the frame the first paint is in.
    const timer = setTimeout(fire, 50);
    cleanups.push(() => clearTimeout(timer));
  }
  return cancel;
}
