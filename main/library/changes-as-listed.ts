// What the library reports as changed and removed, as the list stands once the report is made: a key another file still holds is changed, not gone.
import type { LibrarySyncOptions } from './library-sync-options.ts';

/**
 * What a scan, a watch batch or a store's listing reports, as the list now stands: a key whose file went while another
 * file still holds it (the live file once its kept copy went to the trash, the kept copy once the live file was deleted)
 * changed; it is not gone.
 */
export function changesAsListed({
  catalogue,
  onChange,
}: {
  catalogue: { byKey(key: string): unknown };
  onChange: LibrarySyncOptions['onChange'];
}): LibrarySyncOptions['onChange'] {
  return (changed, removed) => {
    const held = removed.filter((key) => catalogue.byKey(key) !== undefined);
    if (!held.length) return onChange(changed, removed);
    onChange(
      [...new Set([...changed, ...held])],
      removed.filter((key) => !held.includes(key)),
    );
  };
}
