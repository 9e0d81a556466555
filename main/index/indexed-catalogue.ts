// The catalogue backed by the persistent index: every put and remove is mirrored, and a start restores it all.
import { Catalogue, type VaultKind } from '../catalogue/catalogue.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import type { SessionIndex } from './index-store.ts';

export class IndexedCatalogue extends Catalogue {
  readonly index: SessionIndex;
  readonly kindOf: (path: string) => VaultKind;
  private restoring = false;

  constructor(
    index: SessionIndex,
    vaultKind: (path: string) => VaultKind = () => null,
    annotationText: (key: string) => string = () => '',
    copyKeyOf: (path: string) => string | null = () => null,
  ) {
    super(vaultKind, annotationText, copyKeyOf);
    this.index = index;
    this.kindOf = vaultKind;
  }

  override put(path: string, size: number, mtimeMs: number, result: SummaryResponse): string {
    // The index text goes to the index only; the in-memory list keeps summaries.
    const text = result.ok ? (result.text ?? null) : null;
    const stored: SummaryResponse = result.ok ? { id: 0, ok: true, summary: result.summary, companions: result.companions } : result;
    const key = super.put(path, size, mtimeMs, stored);
    if (!this.restoring) this.index.put(path, size, mtimeMs, key, stored, text);
    return key;
  }

  override remove(path: string): string | null {
    this.index.remove(path);
    return super.remove(path);
  }

  /**
   * Lists every indexed file at once, without reading it; the scan that follows re-reads only files whose
   * size or mtime changed. Files outside the current folders (a --root of an earlier run) leave the index.
   */
  restore(isCovered: (path: string) => boolean): { restored: number; dropped: number } {
    let restored = 0;
    let dropped = 0;
    this.restoring = true;
    try {
      for (const entry of this.index.entries()) {
        if (!isCovered(entry.path)) {
          this.index.remove(entry.path);
          dropped++;
          continue;
        }
        const key = super.put(entry.path, entry.size, entry.mtimeMs, entry.result);
        this.index.setKeyIfChanged(entry, key);
        restored++;
      }
    } finally {
      this.restoring = false;
    }
    return { restored, dropped };
  }
}
