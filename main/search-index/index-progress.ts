// Counts files and bytes found and read while scans run, and reports it a few times a second with an ETA.
import type { IndexProgress } from '../../shared/search-api.ts';
import type { PendingCounts } from './pending-text.ts';

export interface ProgressOptions {
  /** Reports are at least this far apart while scanning (the idle report is never held back). */
  intervalMs?: number;
  now?: () => number;
}

/** The rate is measured over bytes actually read, and only after this long, so the first file does not set a wild ETA. */
const MIN_ELAPSED_FOR_RATE_MS = 200;

export class IndexProgressTracker {
  private readonly emit: (progress: IndexProgress) => void;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private active = 0;
  private filesTotal = 0;
  private filesDone = 0;
  private bytesTotal = 0;
  private bytesDone = 0;
  /** Bytes that were parsed (not skipped as unchanged): what the rate is measured on. */
  private bytesRead = 0;
  private startedAt = 0;
  /** Files listed whose words are not searchable yet, and whose identifiers are not (the writer catching up after a scan). */
  private searchPending = 0;
  private substringPending = 0;
  private lastEmit = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;

  constructor(emit: (progress: IndexProgress) => void, options: ProgressOptions = {}) {
    this.emit = emit;
    this.intervalMs = options.intervalMs ?? 250;
    this.now = options.now ?? (() => performance.now());
  }

  /** A scan starts; scans that overlap share one run of counts, which ends when the last of them does. */
  begin(): void {
    if (this.active++ === 0) {
      this.filesTotal = this.filesDone = this.bytesTotal = this.bytesDone = this.bytesRead = 0;
      this.startedAt = this.now();
      this.lastEmit = Number.NEGATIVE_INFINITY;
      this.changed();
    }
  }

  /** A file was found; `fresh` files are unchanged since they were indexed and count as done at once. */
  found(bytes: number, fresh: boolean): void {
    this.filesTotal++;
    this.bytesTotal += bytes;
    if (fresh) {
      this.filesDone++;
      this.bytesDone += bytes;
    }
    this.changed();
  }

  /** A found file that needed reading has been read and indexed (or listed as unreadable). */
  done(bytes: number): void {
    this.filesDone++;
    this.bytesDone += bytes;
    this.bytesRead += bytes;
    this.changed();
  }

  /**
   * How many listed files' words, then identifiers, the index has still to take (none: search is complete). Reported
   * while scanning and after: the catch-up runs once the scan is over; its last report (none left) is never held back.
   */
  textPending(pending: PendingCounts): void {
    if (pending.words === this.searchPending && pending.idents === this.substringPending) return;
    this.searchPending = pending.words;
    this.substringPending = pending.idents;
    if (this.active > 0) return this.changed();
    if (pending.words + pending.idents === 0) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.lastEmit = this.now();
      this.emit(this.current());
      return;
    }
    this.changed(true);
  }

  end(): void {
    if (this.active === 0) return;
    if (--this.active > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lastEmit = this.now();
    this.emit(this.current());
  }

  current(): IndexProgress {
    const scanning = this.active > 0;
    return {
      phase: scanning ? 'scanning' : 'idle',
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      bytesDone: this.bytesDone,
      bytesTotal: this.bytesTotal,
      etaMs: scanning ? this.eta() : this.filesTotal > 0 ? 0 : null,
      ...(this.searchPending > 0 ? { searchPending: this.searchPending } : {}),
      ...(this.substringPending > 0 ? { substringPending: this.substringPending } : {}),
    };
  }

  private eta(): number | null {
    const elapsed = this.now() - this.startedAt;
    if (this.bytesRead <= 0 || elapsed < MIN_ELAPSED_FOR_RATE_MS) return null;
    const left = Math.max(0, this.bytesTotal - this.bytesDone);
    return Math.round(left / (this.bytesRead / elapsed));
  }

  /** `idle`: a change after the scan (the catch-up), reported as often as during one. */
  private changed(idle = false): void {
    if ((this.active === 0 && !idle) || this.timer) return;
    const wait = this.lastEmit + this.intervalMs - this.now();
    if (wait <= 0) {
      this.lastEmit = this.now();
      this.emit(this.current());
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.active === 0 && this.searchPending + this.substringPending === 0) return;
      this.lastEmit = this.now();
      this.emit(this.current());
    }, wait);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
