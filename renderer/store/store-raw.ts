// The raw-source slice of the store: the open session's file, read in windows with "load more".
import { describeError, type AppClient } from '../transport/client.ts';

export interface RawView {
  key: string;
  fileIndex: number;
  path: string | null;
  size: number;
  text: string;
  nextOffset: number;
  truncated: boolean;
  loading: boolean;
  error: string | null;
}

export interface RawSlice {
  raw: RawView | null;
  loadRaw(fileIndex?: number): Promise<void>;
  loadMoreRaw(): Promise<void>;
}

type Host = RawSlice & { open: { key: string } | null };

export function createRawSlice(client: AppClient, set: (partial: Pick<RawSlice, 'raw'>) => void, get: () => Host, chunkBytes: number): RawSlice {
  // A response is kept only if the view it was started from is still the current one.
  const fetchInto = async (view: RawView, offset: number, append: boolean): Promise<void> => {
    set({ raw: view });
    try {
      const chunk = await client.getRawSource({ key: view.key, fileIndex: view.fileIndex, offset, length: chunkBytes });
      if (get().raw !== view) return;
      set({
        raw: {
          ...view,
          path: chunk.path,
          size: chunk.size,
          text: append ? view.text + chunk.text : chunk.text,
          // The server ends each window on a whole UTF-8 character and says where the next one starts.
          nextOffset: chunk.nextOffset,
          truncated: chunk.truncated,
          loading: false,
          error: null,
        },
      });
    } catch (err) {
      if (get().raw !== view) return;
      set({ raw: { ...view, loading: false, error: describeError(err) } });
    }
  };

  return {
    raw: null,

    async loadRaw(fileIndex = 0) {
      const key = get().open?.key;
      if (!key) return;
      const view: RawView = {
        key,
        fileIndex,
        path: null,
        size: 0,
        text: '',
        nextOffset: 0,
        truncated: false,
        loading: true,
        error: null,
      };
      await fetchInto(view, 0, false);
    },

    async loadMoreRaw() {
      const raw = get().raw;
      if (!raw || raw.loading || !raw.truncated) return;
      await fetchInto({ ...raw, loading: true, error: null }, raw.nextOffset, true);
    },
  };
}
