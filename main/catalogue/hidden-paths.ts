// Which listed paths the list hides (kept copies shadowed by their live file, sub-agents under their listed parent) and each parent key's child count: the one rule the Catalogue and the CLI's read-only catalogue share.

/** Paths the list does not show at top level, and how many sessions name each parent key (Catalogue.hiddenPaths). */
export interface HiddenPaths {
  /** Kept copies whose session is listed as another file (its live file, or a later copy). */
  readonly shadowed: readonly string[];
  /** Sub-agents whose parent is here: the list shows them under it. */
  readonly children: readonly string[];
  readonly childCounts: ReadonlyMap<string, number>;
}

/**
 * What the list hides, from the paths of the kept copies, the paths of the entries naming each parent key (both in
 * the order the answer lists them), each entry's key (`keyOf`), and the path a key is listed as (`holderOf`: its live
 * file, else the kept copy standing for it; undefined when no entry holds it). A kept copy is hidden when its key is
 * listed as another path. A sub-agent is hidden when its parent's key is listed and its own key is listed as it. Every
 * session naming a parent key counts once towards it (its file and a kept copy of it are one session), whether or
 * not the parent is here.
 */
export function hiddenPaths(
  copyPaths: Iterable<string>,
  pathsByParent: Iterable<readonly [parentKey: string, paths: ReadonlySet<string> | readonly string[]]>,
  keyOf: (path: string) => string,
  holderOf: (key: string) => string | undefined,
): HiddenPaths {
  const shadowed: string[] = [];
  for (const path of copyPaths) if (holderOf(keyOf(path)) !== path) shadowed.push(path);
  const children: string[] = [];
  const childCounts = new Map<string, number>();
  for (const [parentKey, paths] of pathsByParent) {
    // Sessions, not files: a sub-agent and the vault's kept copy of it are one.
    const keys = new Set<string>();
    for (const path of paths) keys.add(keyOf(path));
    childCounts.set(parentKey, keys.size);
    if (holderOf(parentKey) === undefined) continue;
    for (const path of paths) if (holderOf(keyOf(path)) === path) children.push(path);
  }
  return { shadowed, children, childCounts };
}
