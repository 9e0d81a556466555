// Auto-keep: copies every closed or idle live session into the vault in the background, one sweep at a time, and refreshes copies whose source grew.
import { ACTIVE_WINDOW_MS } from '../../shared/activity.ts';
import type { Catalogue, VaultKind } from '../catalogue/catalogue.ts';
import type { VaultStore } from './vault-store.ts';

export interface AutoKeepDeps {
  catalogue: Catalogue;
  store: VaultStore;
  /** Whether the user turned auto-keep on (the vault's settings). */
  enabled(): boolean;
  /** What the vault holds at a path: its own copies and sessions are never kept again. */
  kindOf(path: string): VaultKind;
  /** Copies one live session into the vault (Vault.keepLive). */
  keepLive(key: string, store: string | null): Promise<void>;
  rescanVault(): Promise<void>;
}

/** Sessions one sweep keeps at most: the rest wait for the next (after the next scan, or the timer). */
const SWEEP_BUDGET = 50;

export class AutoKeep {
  private readonly deps: AutoKeepDeps;
  /** The background sweep running or last run (inBackground). */
  private sweeping: Promise<unknown> = Promise.resolve();
  /** A sweep is queued behind the running one: a request meanwhile is already covered by it. */
  private waiting = false;
  private closing = false;

  constructor(deps: AutoKeepDeps) {
    this.deps = deps;
  }

  /**
   * A sweep in the background (after a scan, on a timer, when auto-keep is turned on): one at a time, at most one
   * more waiting behind it, a failure written to the log, none once closed. Before, a sweep that outlived close()
   * failed on the closed index as an unhandled rejection.
   */
  inBackground(): void {
    if (this.closing || !this.deps.enabled() || this.waiting) return;
    this.waiting = true;
    this.sweeping = this.sweeping
      .then(() => {
        this.waiting = false;
        return this.closing ? 0 : this.sweep();
      })
      .catch((err: unknown) => console.error('Auto-keep failed:', err instanceof Error ? err.message : err));
  }

  /** No sweep starts after this; resolves when the one running is over. */
  async close(): Promise<void> {
    this.closing = true;
    await this.sweeping;
  }

  /** Keeps every session that is closed, or idle for 10 minutes, and refreshes copies whose source grew; returns how many it kept. */
  async sweep(now = Date.now(), budget = SWEEP_BUDGET): Promise<number> {
    if (!this.deps.enabled()) return 0;
    const { catalogue, store } = this.deps;
    let kept = 0;
    for (const { path, key, unreadable, closed, mtimeMs, store: container } of [...catalogue.entries()]) {
      if (kept >= budget || this.closing) break;
      if (unreadable || this.deps.kindOf(path) !== null) continue;
      const idle = closed || now - mtimeMs > ACTIVE_WINDOW_MS;
      if (!idle) continue;
      const copy = catalogue.keptCopy(key);
      const existing = copy ? await store.get(key) : null;
      if (existing && Date.parse(existing.meta.keptAt) >= mtimeMs && copy) continue;
      try {
        await this.deps.keepLive(key, container);
        kept++;
      } catch {
        // A file that vanishes or breaks is kept on a later sweep, or never: nothing else to do here.
      }
    }
    if (kept && !this.closing) await this.deps.rescanVault();
    return kept;
  }
}
