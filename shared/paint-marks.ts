// The names of the performance marks the renderer sets at the first paint of the list and of the usage dashboard (renderer/paint-marks.ts), which the first-paint bench reads.
export const LIST_PAINTED = 'session-vault:list-painted';
export const DASHBOARD_PAINTED = 'session-vault:dashboard-painted';
