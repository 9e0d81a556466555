// Coalesces the keys that scans, watch batches and removed folders touch into one `sessionsChanged` event per tick.
import type { AppEvent } from '../../shared/api.ts';

/** How long keys gather before they go out as one event. */
const FLUSH_AFTER_MS = 50;

export class SessionChanges {
  private readonly emit: (event: AppEvent) => void;
  private readonly changed = new Set<string>();
  private readonly removed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(emit: (event: AppEvent) => void) {
    this.emit = emit;
  }

  /** Sessions read (by key) and gone; the window hears of them in the next event. */
  note = (changed: readonly string[], removed: readonly string[]): void => {
    if (this.closed) return;
    for (const k of changed) this.changed.add(k);
    for (const k of removed) this.removed.add(k);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      const event: AppEvent = { name: 'sessionsChanged', payload: { changed: [...this.changed], removed: [...this.removed] } };
      this.changed.clear();
      this.removed.clear();
      this.emit(event);
    }, FLUSH_AFTER_MS);
  };

  /** Drops what has not gone out yet, and whatever comes after (the services are closing). */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
