// Which cards and blocks the user opened, kept outside the rows so it survives a row scrolling out of the virtual list.
import { useCallback, useSyncExternalStore } from 'react';

export interface Expansion {
  isOpen(id: string): boolean;
  toggle(id: string): void;
  set(id: string, open: boolean): void;
  subscribe(id: string, listener: () => void): () => void;
}

export function createExpansion(): Expansion {
  const open = new Set<string>();
  const listeners = new Map<string, Set<() => void>>();
  const set = (id: string, value: boolean) => {
    if (open.has(id) === value) return;
    if (value) open.add(id);
    else open.delete(id);
    for (const l of listeners.get(id) ?? []) l();
  };
  return {
    isOpen: (id) => open.has(id),
    toggle: (id) => set(id, !open.has(id)),
    set,
    subscribe(id, listener) {
      const list = listeners.get(id) ?? new Set();
      list.add(listener);
      listeners.set(id, list);
      return () => {
        list.delete(listener);
        if (list.size === 0) listeners.delete(id);
      };
    },
  };
}

/** Re-renders only the component whose id changed. */
export function useExpanded(expansion: Expansion, id: string): [boolean, () => void] {
  const subscribe = useCallback((l: () => void) => expansion.subscribe(id, l), [expansion, id]);
  const open = useSyncExternalStore(
    subscribe,
    () => expansion.isOpen(id),
    () => expansion.isOpen(id),
  );
  const toggle = useCallback(() => expansion.toggle(id), [expansion, id]);
  return [open, toggle];
}

const recent = new Map<string, Expansion>();
const KEEP = 20;

/** One expansion per view of a session, kept for the last few sessions so switching tabs or sessions back keeps what was open. */
export function expansionFor(viewKey: string): Expansion {
  let found = recent.get(viewKey);
  if (found) recent.delete(viewKey);
  else found = createExpansion();
  recent.set(viewKey, found);
  if (recent.size > KEEP) recent.delete(recent.keys().next().value as string);
  return found;
}
