// The Catalogue's record of its kept copies and of the entries naming each parent key, with what the list hides (hidden-paths.ts) worked out again only after a put or remove that can change it.
import { hiddenPaths, type HiddenPaths } from './hidden-paths.ts';

/** What the bookkeeping asks the catalogue it belongs to. */
export interface CatalogueLookups {
  /** The key of the entry at a path the catalogue holds. */
  keyAt(path: string): string;
  /** The path a key is listed as: its live file, else the kept copy standing for it; undefined when no entry holds it. */
  listedPath(key: string): string | undefined;
  /** Whether the catalogue holds a kept copy under a key. */
  hasCopy(key: string): boolean;
}

/** What the bookkeeping reads of an entry. */
interface Placed {
  readonly path: string;
  readonly key: string;
  readonly parentKey: string | null;
}

export class HiddenPathBookkeeping {
  /** Paths of the vault's kept copies, and of the entries naming each parent key: what the list's view reads, not every entry. */
  private readonly copyPaths = new Set<string>();
  private readonly pathsByParent = new Map<string, Set<string>>();
  /** Moves when a put or remove can change what the list hides; `hidden` is kept until it does. */
  private hiddenVersion = 0;
  private hidden: (HiddenPaths & { version: number }) | null = null;
  private readonly lookups: CatalogueLookups;

  constructor(lookups: CatalogueLookups) {
    this.lookups = lookups;
  }

  /** Records an entry put at its path, in place of `previous` (that path's entry until now, if any). */
  put(entry: Placed, previous: Placed | undefined, isCopy: boolean): void {
    if (previous && this.touchesHidden(previous)) this.hiddenVersion++;
    if (previous) this.forgetParent(previous);
    if (entry.parentKey) {
      const paths = this.pathsByParent.get(entry.parentKey) ?? new Set<string>();
      paths.add(entry.path);
      this.pathsByParent.set(entry.parentKey, paths);
    }
    if (isCopy) this.copyPaths.add(entry.path);
    else this.copyPaths.delete(entry.path);
    if (this.touchesHidden(entry)) this.hiddenVersion++;
  }

  /** Forgets a removed entry; called before the catalogue forgets its key (a kept copy's key still counts then). */
  remove(entry: Placed): void {
    if (this.touchesHidden(entry)) this.hiddenVersion++;
    this.forgetParent(entry);
    this.copyPaths.delete(entry.path);
  }

  /**
   * Whether an entry's put or remove can change what the list hides: it is a sub-agent, a kept copy, the parent of one,
   * or a session the vault keeps a copy of. A session on its own (most puts: a live session growing) changes nothing.
   */
  private touchesHidden(entry: Placed): boolean {
    return entry.parentKey !== null || this.copyPaths.has(entry.path) || this.pathsByParent.has(entry.key) || this.lookups.hasCopy(entry.key);
  }

  private forgetParent(entry: Placed): void {
    if (!entry.parentKey) return;
    const paths = this.pathsByParent.get(entry.parentKey);
    paths?.delete(entry.path);
    if (paths && !paths.size) this.pathsByParent.delete(entry.parentKey);
  }

  /** What the list hides: the same object until a put or remove can change it. */
  hiddenPaths(): HiddenPaths {
    if (this.hidden?.version === this.hiddenVersion) return this.hidden;
    const { keyAt, listedPath } = this.lookups;
    this.hidden = { version: this.hiddenVersion, ...hiddenPaths(this.copyPaths, this.pathsByParent, keyAt, listedPath) };
    return this.hidden;
  }

  /** Keys of the sessions that name `parentKey` as their parent, sorted, each once (a kept copy shares its session's key). */
  childKeys(parentKey: string): string[] {
    return [...new Set([...(this.pathsByParent.get(parentKey) ?? [])].map((path) => this.lookups.keyAt(path)))].sort();
  }
}
