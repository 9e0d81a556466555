// Hands the app store to components: the store is built in main.tsx (or a test) and provided here.
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from './store.ts';

export const StoreContext = createContext<AppStore | null>(null);

export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('StoreContext is missing: wrap the app in <StoreContext.Provider value={store}>.');
  return store;
}

/** Selectors must return stable references (zustand 5 re-renders on every new object). */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}
