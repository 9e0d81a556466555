// Mirrors indexing progress on the taskbar / dock icon of every app window (Electron's setProgressBar).
import type { AppEvent } from '../../shared/api.ts';
import type { IndexProgress } from '../../shared/search-api.ts';

export interface ProgressWindow {
  isDestroyed(): boolean;
  setProgressBar(progress: number): void;
}

/** The bar's value: the share of bytes indexed (files when sizes are unknown), or -1 to remove the bar. */
export function taskbarValue(p: IndexProgress): number {
  if (p.phase === 'idle') return -1;
  if (p.bytesTotal > 0) return Math.min(1, p.bytesDone / p.bytesTotal);
  if (p.filesTotal > 0) return Math.min(1, p.filesDone / p.filesTotal);
  // Files are still being found: an indeterminate bar (values above 1 mean that on Windows and Linux).
  return 2;
}

/** An event handler for the services' events: sets each window's bar when the indexing progress moves. */
export function taskbarProgress(windows: () => ProgressWindow[]): (event: AppEvent) => void {
  let last: number | null = null;
  return (event) => {
    if (event.name !== 'indexProgress') return;
    const value = taskbarValue(event.payload);
    // Only whole percent steps reach the OS; repainting the taskbar for every event is wasted work.
    const rounded = value < 0 || value > 1 ? value : Math.floor(value * 100) / 100;
    if (rounded === last) return;
    last = rounded;
    for (const win of windows()) if (!win.isDestroyed()) win.setProgressBar(rounded);
  };
}
