// The contract for opening one session file directly (dropped on the window, picked with "Open file…", or handed over by the OS): no folder is added.
import { z } from 'zod';

const UploadId = z.string().regex(/^[0-9a-f]{32}$/);

/** A session file opened on its own: listed and shown like any other, its folder not added as a source. */
export const OpenedSessionFile = z.object({
  key: z.string(),
  title: z.string(),
  /** Where the file is (for an uploaded file, the private copy in the data folder). */
  path: z.string(),
});
export type OpenedSessionFile = z.infer<typeof OpenedSessionFile>;

export const openApi = {
  /** Opens a file uploaded with beginUpload/uploadChunk (the browser's "Open file…" or a dropped file) as a session. */
  openUploadedSession: {
    input: z.object({ uploadId: UploadId, fileName: z.string().min(1).max(255) }).strict(),
    output: OpenedSessionFile,
  },
  /** Session files the OS or the File menu opened since the window last asked (each is returned once). */
  takeOpenedSessions: { input: z.object({}).strict(), output: z.array(OpenedSessionFile) },
} as const;

export const openEvents = {
  /** The OS or the File menu opened a session file: the window takes it with takeOpenedSessions and shows it. */
  sessionFileOpened: z.object({}),
} as const;
