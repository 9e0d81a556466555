// Sharing's part of the contract: scan a selection for secrets, export it (unticked findings kept), move bundles in and out, import.
import { z } from 'zod';
import { MAX_UPLOAD, UPLOAD_CHUNK } from './bundle-limits.ts';

export { MAX_UPLOAD, UPLOAD_CHUNK } from './bundle-limits.ts';

const SessionKey = z.string().min(1).max(4096);
const Keys = z.array(SessionKey).min(1).max(10_000);
/** Chosen by the renderer, so it can follow progress events and cancel before the call returns. */
const ExportId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);
const UploadId = z.string().regex(/^[0-9a-f]{32}$/);

export const BundleFinding = z.object({
  /** Stable for the same content: send it back in `keep` to leave this one in place. */
  id: z.string(),
  /** aws, github, private-key, jwt, ENV:<variable>, … */
  rule: z.string(),
  /** The file's path inside the bundle (`sessions/<folder>/source/…`, or session.md / session.html). */
  file: z.string(),
  line: z.number().int().positive(),
  /** The line around it with the secret masked. */
  preview: z.string(),
  redacted: z.boolean(),
});
export type BundleFinding = z.infer<typeof BundleFinding>;

/** A file a session names that the export left out: outside every folder the user added, or outside the session's own folder. */
export const BundleRefusedFile = z.object({
  /** The session that named it. */
  session: z.string(),
  /** The path as the session names it. */
  path: z.string(),
  /** Why it was left out, in plain words. */
  reason: z.string(),
});
export type BundleRefusedFile = z.infer<typeof BundleRefusedFile>;

export const BundleFormat = z.enum(['zip', 'md', 'html']);
export type BundleFormat = z.infer<typeof BundleFormat>;

export const BundleScan = z.object({
  findings: z.array(BundleFinding),
  /** Files the export will leave out, never read (the review shows them); absent or empty when none. */
  refused: z.array(BundleRefusedFile).optional(),
  sessions: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
});
export type BundleScan = z.infer<typeof BundleScan>;

export const BundleExport = z.object({
  exportId: z.string(),
  /** Where the file was written (the app's exports folder) and what to call it when downloaded. */
  path: z.string(),
  fileName: z.string(),
  size: z.number().nonnegative(),
  sessions: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  redacted: z.number().int().nonnegative(),
  kept: z.number().int().nonnegative(),
  /** Files left out of the bundle, never read; absent or empty when none. */
  refused: z.array(BundleRefusedFile).optional(),
});
export type BundleExport = z.infer<typeof BundleExport>;

export const BundleImport = z.object({
  imported: z.array(z.object({ key: z.string(), title: z.string(), copyOf: z.string().nullable() })),
  skipped: z.array(z.object({ key: z.string(), title: z.string(), reason: z.string() })),
  files: z.number().int().nonnegative(),
  /** What the exporter redacted, from the bundle's manifest. */
  redacted: z.number().int().nonnegative(),
  redactionEnabled: z.boolean(),
});
export type BundleImport = z.infer<typeof BundleImport>;

export const BundleProgressEvent = z.object({
  /** The export's id, or the scan's `scanId` while the review scan runs. */
  exportId: z.string(),
  /** scan: the review's dry run over every file (nothing written yet); write: the export itself. */
  phase: z.enum(['scan', 'write']).default('write'),
  sessionsDone: z.number().int().nonnegative(),
  sessionsTotal: z.number().int().nonnegative(),
  bytesDone: z.number().nonnegative(),
  bytesTotal: z.number().nonnegative(),
});
export type BundleProgressEvent = z.infer<typeof BundleProgressEvent>;

/** What importing an uploaded bundle would bring in, worked out with nothing written (shown before the user confirms). */
export const BundlePreview = z.object({
  sessions: z.array(
    z.object({
      key: z.string(),
      title: z.string(),
      format: z.string(),
      files: z.number().int().nonnegative(),
      bytes: z.number().nonnegative(),
      /** The vault (or the list) already has this key: a plain import skips it, "as copies" keeps both. */
      conflict: z.boolean(),
    }),
  ),
  files: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
  /** What the sender's export found and redacted, and the findings they chose to leave in (from the manifest). */
  redactionEnabled: z.boolean(),
  findings: z.number().int().nonnegative(),
  redacted: z.number().int().nonnegative(),
  keptFindings: z.array(z.object({ rule: z.string(), file: z.string(), line: z.number().int().positive() })),
  appVersion: z.string(),
  createdAt: z.string(),
});
export type BundlePreview = z.infer<typeof BundlePreview>;

/** A bundle the operating system asked the app to open (open-with, a double-click, the command line). */
export const OpenedBundle = z.object({ openId: UploadId, fileName: z.string(), size: z.number().int().nonnegative() });
export type OpenedBundle = z.infer<typeof OpenedBundle>;

export const bundleApi = {
  /** Every secret an export of these sessions would redact (the review step); writes nothing. */
  scanBundle: {
    input: z
      .object({
        keys: Keys,
        format: BundleFormat.default('zip'),
        includeChildren: z.boolean().default(true),
        /** Chosen by the renderer to follow the scan's bundleProgress events and to stop it with cancelExport. */
        scanId: ExportId.optional(),
      })
      .strict(),
    output: BundleScan,
  },
  /** Writes the export into the app's exports folder; findings whose ids are in `keep` are left in place. */
  exportBundle: {
    input: z
      .object({
        exportId: ExportId,
        keys: Keys,
        format: BundleFormat.default('zip'),
        keep: z.array(z.string().max(64)).max(100_000).default([]),
        redact: z.boolean().default(true),
        includeChildren: z.boolean().default(true),
      })
      .strict(),
    output: BundleExport,
  },
  /** Stops an export in progress; its temp file is removed and nothing is left behind. */
  cancelExport: { input: z.object({ exportId: ExportId }).strict(), output: z.object({ cancelled: z.boolean() }) },
  /**
   * A piece of a finished export, so the UI can save it over either transport (base64, as JSON carries
   * no bytes; 512 KiB keeps every request and answer far below the HTTP transport's limits).
   */
  readExport: {
    input: z
      .object({ exportId: ExportId, offset: z.number().int().nonnegative(), length: z.number().int().positive().max(UPLOAD_CHUNK).default(UPLOAD_CHUNK) })
      .strict(),
    output: z.object({ data: z.string(), offset: z.number().int().nonnegative(), size: z.number().int().nonnegative(), done: z.boolean() }),
  },
  /** Starts receiving a bundle to import, `size` bytes, sent in order with uploadChunk. */
  beginUpload: {
    input: z.object({ size: z.number().int().positive().max(MAX_UPLOAD) }).strict(),
    output: z.object({ uploadId: UploadId }),
  },
  uploadChunk: {
    input: z.object({ uploadId: UploadId, offset: z.number().int().nonnegative(), data: z.string().max(Math.ceil(UPLOAD_CHUNK / 3) * 4) }).strict(),
    output: z.object({ received: z.number().int().nonnegative() }),
  },
  /** Bundles opened with the app that no window has taken yet; each is handed out once. */
  takeOpenedBundles: { input: z.object({}).strict(), output: z.array(OpenedBundle) },
  /** A piece of an opened bundle (base64), read like a picked file so the usual import flow runs. */
  readOpenedBundle: {
    input: z.object({ openId: UploadId, offset: z.number().int().nonnegative(), length: z.number().int().positive().max(UPLOAD_CHUNK) }).strict(),
    output: z.object({ data: z.string() }),
  },
  /** Checks a completely uploaded bundle whole and says what importing it would bring in; writes nothing, keeps the upload. */
  previewBundle: {
    input: z.object({ uploadId: UploadId }).strict(),
    output: BundlePreview,
  },
  /** Imports a completely uploaded bundle; it is checked whole before anything is written, and removed after. */
  importBundle: {
    input: z.object({ uploadId: UploadId, asCopy: z.boolean().default(false) }).strict(),
    output: BundleImport,
  },
} as const;

export const bundleEvents = {
  /** How far an export has got (sent at most a few times a second). */
  bundleProgress: BundleProgressEvent,
  /** A bundle was opened with the app: the window takes it with takeOpenedBundles and imports it. */
  bundleOpened: z.object({}),
} as const;
