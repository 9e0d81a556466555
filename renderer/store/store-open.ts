// Store slice for opening one session file on its own: a dropped or picked file is uploaded and shown; files the OS or the File menu opened are shown as they arrive.
import type { AppClient } from '../transport/client.ts';
import { describeError } from '../transport/client.ts';
import { uploadFile, type PickedFile } from '../components/bundle/upload-file.ts';

export interface OpeningFile {
  name: string;
  size: number;
  sent: number;
  /** Why the file could not be opened (not a session file any reader knows, unreadable, empty…). */
  error: string | null;
}

export interface OpenFileSlice {
  openingFile: OpeningFile | null;
  /** Uploads a session file the user dropped or picked and opens it; its folder is not added as a source. */
  openFile(file: PickedFile): Promise<void>;
  /** Shows the session files the OS or the File menu opened since the last call. */
  takeOpenedSessions(): Promise<void>;
  dismissOpeningFile(): void;
}

type Host = OpenFileSlice & { refresh(): Promise<void>; openSession(key: string): Promise<void> };

export function createOpenFileSlice(client: AppClient, set: (partial: Partial<OpenFileSlice>) => void, get: () => Host): OpenFileSlice {
  const patch = (change: Partial<OpeningFile>) => {
    const now = get().openingFile;
    if (now) set({ openingFile: { ...now, ...change } });
  };
  return {
    openingFile: null,

    async openFile(file) {
      set({ openingFile: { name: file.name, size: file.size, sent: 0, error: null } });
      try {
        const uploadId = await uploadFile(client, file, (sent) => patch({ sent }));
        const opened = await client.openUploadedSession({ uploadId, fileName: file.name });
        set({ openingFile: null });
        await get().refresh();
        await get().openSession(opened.key);
      } catch (err) {
        patch({ error: describeError(err) });
      }
    },

    async takeOpenedSessions() {
      try {
        const opened = await client.takeOpenedSessions({});
        if (opened.length === 0) return;
        await get().refresh();
        await get().openSession(opened.at(-1)!.key);
      } catch {
        // Nothing waiting, or the services are restarting: the next event asks again.
      }
    },

    dismissOpeningFile() {
      set({ openingFile: null });
    },
  };
}
