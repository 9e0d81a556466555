// Store slice for the folders the app reads: the list of roots, adding and removing one, and opening the demo folder.
import type { Root } from '../../shared/api.ts';
import { describeError, type AppClient } from '../transport/client.ts';

export interface RootsSlice {
  roots: Root[];
  /** False until the folders' list has first arrived (or failed): until then "no folders" is not known to be true. */
  rootsLoaded: boolean;
  rootsError: string | null;
  addRootBusy: boolean;
  addRootError: string | null;
  demoBusy: boolean;
  demoError: string | null;
  refreshRoots(): Promise<void>;
  addRoot(path: string): Promise<boolean>;
  removeRoot(id: string): Promise<void>;
  openDemo(): Promise<boolean>;
}

type Host = RootsSlice & { refresh(): Promise<void> };

export function createRootsSlice(client: AppClient, set: (partial: Partial<RootsSlice>) => void, get: () => Host): RootsSlice {
  /** A change of folders changes the list too. */
  const refreshBoth = () => Promise.all([get().refresh(), get().refreshRoots()]);
  return {
    roots: [],
    rootsLoaded: false,
    rootsError: null,
    addRootBusy: false,
    addRootError: null,
    demoBusy: false,
    demoError: null,

    async refreshRoots() {
      try {
        set({ roots: await client.listRoots(), rootsLoaded: true, rootsError: null });
      } catch (err) {
        set({ rootsLoaded: true, rootsError: describeError(err) });
      }
    },

    async addRoot(path) {
      const trimmed = path.trim();
      if (!trimmed) {
        set({ addRootError: 'Enter the path of a folder.' });
        return false;
      }
      set({ addRootBusy: true, addRootError: null });
      try {
        await client.addRoot({ path: trimmed });
        set({ addRootBusy: false });
        await refreshBoth();
        return true;
      } catch (err) {
        set({ addRootBusy: false, addRootError: describeError(err) });
        return false;
      }
    },

    async removeRoot(id) {
      try {
        await client.removeRoot({ id });
      } catch (err) {
        set({ rootsError: describeError(err) });
        return;
      }
      await refreshBoth();
    },

    async openDemo() {
      set({ demoBusy: true, demoError: null });
      try {
        await client.openDemo();
        set({ demoBusy: false });
        await refreshBoth();
        return true;
      } catch (err) {
        set({ demoBusy: false, demoError: describeError(err) });
        return false;
      }
    },
  };
}
