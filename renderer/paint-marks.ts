// Sets the performance marks for the first paint of the list and of the usage dashboard: the first-paint bench reads them (performance.getEntriesByName).
export { DASHBOARD_CHARTS_DRAWN, DASHBOARD_PAINTED, LIST_PAINTED } from '../shared/paint-marks.ts';

/** Marks `name` once per page, at the next frame after the render that showed it (React has committed, the browser paints). */
export function markFirstPaint(name: string): void {
  if (typeof performance === 'undefined' || performance.getEntriesByName(name).length) return;
  requestAnimationFrame(() => {
    if (!performance.getEntriesByName(name).length) performance.mark(name);
  });
}
