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
    this.timer ??= setTimeout(() => this.flush(), FLUSH_AFTER_MS);
  };

  /**
   * What gathered goes out now (nothing when nothing did): before the index says it is idle, so that a page loaded
   * once the index is idle has missed no change (a reload of a settled vault fetches its list once).
   */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.closed || (!this.changed.size && !this.removed.size)) return;
    const event: AppEvent = { name: 'sessionsChanged', payload: { changed: [...this.changed], removed: [...this.removed] } };
    this.changed.clear();
    this.removed.clear();
    this.emit(event);
  }

  /** Drops what has not gone out yet, and whatever comes after (the services are closing). */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
