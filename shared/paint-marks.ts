// The names of the performance marks the renderer sets at the first paint of the list and of the usage dashboard (renderer/paint-marks.ts), which the first-paint bench reads.
export const LIST_PAINTED = 'session-vault:list-painted';
/** The dashboard's totals, its 5-hour block and its first row of charts (tokens and cost per day) drawn. */
export const DASHBOARD_PAINTED = 'session-vault:dashboard-painted';
/** Every chart of the dashboard drawn (the lower ones are drawn after the first paint). */
export const DASHBOARD_CHARTS_DRAWN = 'session-vault:dashboard-charts-drawn';
