// The catalogue backed by the persistent index: every put and remove is mirrored, a start restores it all, and summaries live in the index.
import { Catalogue, PATH_SUFFIX, summaryOf, type CatalogueEntry, type VaultKind } from '../catalogue/catalogue.ts';
import { pathHash } from '../catalogue/catalogue-summary.ts';
import type { SessionSummary } from '../../shared/session.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import type { SessionIndex } from './index-store.ts';
import { indexedReadingVersion, READING_VERSION, stampReadingVersion } from './reading-version.ts';
import { keysCheckedByLayout, stampKeysCheckedByLayout } from './key-layout-state.ts';

/** Files restored between two turns of the event loop. */
const RESTORE_PIECE = 8192;

export class IndexedCatalogue extends Catalogue {
  readonly index: SessionIndex;
  readonly kindOf: (path: string) => VaultKind;

  constructor(
    index: SessionIndex,
    vaultKind: (path: string) => VaultKind = () => null,
    annotationText: (key: string) => string = () => '',
    copyKeyOf: (path: string) => string | null = () => null,
    outsideLayout: (path: string, key: string) => boolean = () => false,
  ) {
    super(vaultKind, annotationText, copyKeyOf, outsideLayout);
    this.index = index;
    this.kindOf = vaultKind;
    // A cold scan of 100,000 files would otherwise hold every summary until it ends.
    index.onCommitted = () => this.releaseCommitted();
  }

  /** False until `restore` is over: the list is then read from the index alone (early-listing.ts). */
  restored = false;

  /** The restored files were read by older readers (reading-version.ts): the first scan reads every one again. */
  readAgain = false;

  /** Paths whose entries still hold their summary. */
  private readonly holding = new Set<string>();

  override put(path: string, size: number, mtimeMs: number, result: SummaryResponse): string {
    // The index text goes to the index only; the entry holds its summary until the index has it (see `release`).
    const text = result.ok ? (result.text ?? null) : null;
    const stored: SummaryResponse = result.ok ? { id: 0, ok: true, summary: result.summary, companions: result.companions } : result;
    const key = super.put(path, size, mtimeMs, stored);
    this.index.put(path, size, mtimeMs, key, stored, text, result.ok ? result.usage : undefined, result.ok && result.textLater === true);
    this.holding.add(path);
    return key;
  }

  override remove(path: string): string | null {
    this.index.remove(path);
    this.holding.delete(path);
    return super.remove(path);
  }

  protected override loadSummary(entry: CatalogueEntry): SessionSummary {
    const result = this.index.storedResult(entry.path);
    if (!result) throw new Error(`The index holds no summary for ${entry.path}.`);
    return summaryOf(entry.path, entry.size, entry.mtimeMs, result, entry.key);
  }

  /** Summaries of many entries at once: held ones as they are, the others in one read of the index. */
  summariesOf(entries: readonly CatalogueEntry[]): SessionSummary[] {
    const results = this.index.storedResults(entries.filter((e) => !e.held).map((e) => e.path));
    return entries.map((e) => {
      if (e.held) return e.held;
      const result = results.get(e.path);
      return result ? summaryOf(e.path, e.size, e.mtimeMs, result, e.key) : e.summary;
    });
  }

  /** Entries whose summaries the index has committed let go of them; returns how many did. */
  releaseCommitted(): number {
    if (!this.holding.size) return 0;
    const uncommitted = this.index.uncommittedPaths();
    let dropped = 0;
    for (const path of this.holding) {
      if (uncommitted.has(path)) continue;
      this.holding.delete(path);
      if (this.dropHeld(path)) dropped++;
    }
    return dropped;
  }

  /**
   * Once everything written so far is in the index file, entries let go of their summaries (loaded again from
   * the index when a row is shown): at rest the catalogue holds keys and paths, not 100,000 summaries.
   */
  async release(): Promise<void> {
    await this.index.settled();
    this.releaseCommitted();
  }

  /**
   * Lists every indexed file at once, without reading it or parsing its summary; the scan that follows re-reads
   * only files whose size or mtime changed. Files outside the current folders (a --root of an earlier run) leave the index.
   */
  async restore(isCovered: (path: string) => boolean): Promise<{ restored: number; dropped: number }> {
    // Files read by older readers stay listed as they were and are read again by the scan that follows.
    const older = indexedReadingVersion(this.index) !== READING_VERSION;
    let restored = 0;
    let dropped = 0;
    let sinceYield = 0;
    /** Plain keys a file outside its tool's folders held from an older index and now leaves to the tool's own file. */
    const freed = new Set<string>();
    // Keys given before files outside their tool's folders were keyed by their path are given again (key-layout-state.ts).
    const checkKeys = !keysCheckedByLayout(this.index);
    let rekeyed = 0;
    for (const stored of this.index.storedFacts()) {
      // 100,000 files take about half a second: the event loop answers requests (the list's first page) between pieces.
      if (++sinceYield === RESTORE_PIECE) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (!isCovered(stored.path)) {
        this.index.remove(stored.path);
        dropped++;
        continue;
      }
      const key = this.putStored(stored.path, stored.size, stored.mtimeMs, stored, stored.companions, checkKeys);
      if (key !== stored.key) {
        rekeyed++;
        this.index.setKeyIfChanged(stored, key);
        if (key.startsWith(`${stored.key}~`)) freed.add(stored.key);
      }
      if (older) this.markStale(stored.path);
      restored++;
    }
    if (freed.size) this.giveBackPlainKeys(freed);
    // Stamped by a start that found every key right: one that changed some has them written first, and the next checks again.
    if (checkKeys && rekeyed === 0) stampKeysCheckedByLayout(this.index);
    // An empty index is this version's as it is: what it will hold is read now.
    if (older && restored === 0) stampReadingVersion(this.index);
    this.readAgain = older && restored > 0;
    this.restored = true;
    return { restored, dropped };
  }

  /**
   * An index written before files outside their tool's folders were keyed by their path may hold such a copy under
   * the plain key and the tool's own file under `<key>~<its path hash>`: once the copy is keyed by its path, the
   * tool's own file takes the plain key back (the index row too).
   */
  private giveBackPlainKeys(freed: ReadonlySet<string>): void {
    for (const entry of [...this.entries()]) {
      const plain = entry.key.replace(PATH_SUFFIX, '');
      if (plain === entry.key || !freed.has(plain) || entry.key !== `${plain}~${pathHash(entry.path)}`) continue;
      if (this.kindOf(entry.path) !== null || this.outsideLayout(entry.path, plain)) continue;
      const before = { path: entry.path, key: entry.key };
      if (this.rekey(entry.path, plain)) this.index.setKeyIfChanged(before, plain);
    }
  }
}
