// Renders a component to static HTML inside a store holding the given state (tests only; no DOM needed).
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createAppStore, type AppState } from './store/store.ts';
import { StoreContext } from './store/store-context.ts';
import { fakeClient } from './test-fixtures.ts';

export function render(node: ReactNode, state: Partial<AppState> = {}): string {
  const store = createAppStore(fakeClient({}).client);
  store.setState(state);
  // Server rendering reads the store's initial-state snapshot, so present the prepared state as that.
  const prepared = { ...store, getInitialState: store.getState };
  return renderToStaticMarkup(<StoreContext.Provider value={prepared}>{node}</StoreContext.Provider>);
}

/** How many times a substring occurs in rendered HTML. */
export function count(html: string, needle: string): number {
  return html.split(needle).length - 1;
}
