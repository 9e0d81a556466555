// Store slice for sharing: scan a selection, review findings (untick false positives), export and save, import a dropped bundle.
import type {
  BundleExport,
  BundleFinding,
  BundleFormat,
  BundleProgressEvent,
  BundleRefusedFile,
  BundleImport,
  BundlePreview,
  OpenedBundle,
} from '../../shared/bundle-api.ts';
import { uploadFile, type PickedFile } from '../components/bundle/upload-file.ts';
import { UPLOAD_CHUNK } from '../../shared/bundle-limits.ts';
import { describeError, type AppClient } from '../transport/client.ts';

export interface ShareState {
  keys: string[];
  format: BundleFormat;
  /** scanning → review → exporting → saving → done; error from any of them. */
  phase: 'scanning' | 'review' | 'exporting' | 'saving' | 'done' | 'error';
  redact: boolean;
  findings: BundleFinding[];
  /** Files the review found the sessions name outside every folder added: left out of the export, never read. */
  refused?: BundleRefusedFile[];
  /** Ids of findings the user unticked: false positives, exported as they are. */
  kept: string[];
  /**
   * Bytes done of those known so far, and for a scan or an export the sessions done of all: an export's byte total
   * grows as each session is planned, so over several sessions the sessions are the measure of how far it is.
   */
  progress: { done: number; total: number; sessionsDone?: number; sessionsTotal?: number } | null;
  result: BundleExport | null;
  error: string | null;
  exportId: string | null;
}

export interface ImportState {
  fileName: string;
  /** preview: checked, nothing written, waiting for the user to confirm (bundles opened with the app). */
  phase: 'uploading' | 'checking' | 'preview' | 'done' | 'error';
  sent: number;
  size: number;
  asCopy: boolean;
  report: BundleImport | null;
  /** What the bundle would bring in, shown before anything is imported. */
  preview: BundlePreview | null;
  /** The upload the preview was made from, imported by confirmImport. */
  uploadId: string | null;
  error: string | null;
}

export type { PickedFile } from '../components/bundle/upload-file.ts';

/** Hands finished bytes to the user (a download in the browser and in Electron alike). */
export type SaveFile = (parts: Uint8Array[], fileName: string) => void;

export interface BundleSlice {
  share: ShareState | null;
  importing: ImportState | null;
  /** Opens the share dialog for these sessions and scans them for secrets. */
  openShare(keys: string[], format?: BundleFormat): Promise<void>;
  setShareFormat(format: BundleFormat): Promise<void>;
  setRedact(on: boolean): void;
  /** Ticked findings are redacted; an unticked one is kept as a false positive. */
  toggleFinding(id: string): void;
  startExport(): Promise<void>;
  /** Stops a running export (nothing is left behind) or closes the dialog. */
  cancelShare(): Promise<void>;
  saveAgain(): Promise<void>;
  importFile(file: PickedFile, asCopy?: boolean): Promise<void>;
  /** Imports the last file again, the sessions the vault already had under new keys. */
  importAsCopies(): Promise<void>;
  /** Closes the dialog; a previewed bundle is then not imported, and the next opened one is previewed. */
  closeImport(): void;
  /** Imports the previewed bundle, the sessions the vault already has skipped or (asCopy) under new keys. */
  confirmImport(asCopy?: boolean): Promise<void>;
  /**
   * The bundles the OS asked the app to open (open-with, double-click), one after another: each is uploaded and
   * checked, and its preview waits for the user's confirmation; nothing is imported without it.
   */
  importOpened(): Promise<void>;
}

type Host = BundleSlice & { refresh(): Promise<void> };

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** A download through a temporary link to an object URL: the same in a browser tab and in Electron. */
export const saveWithDownload: SaveFile = (parts, fileName) => {
  const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: fileName.endsWith('.zip') ? 'application/zip' : 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

/** A scan's or an export's progress event as the dialog shows it. */
const progressOf = (p: BundleProgressEvent): NonNullable<ShareState['progress']> => ({
  done: p.bytesDone,
  total: p.bytesTotal,
  sessionsDone: p.sessionsDone,
  sessionsTotal: p.sessionsTotal,
});

function newExportId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `ui-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function createBundleSlice(
  client: AppClient,
  set: (partial: Partial<BundleSlice>) => void,
  get: () => Host,
  save: SaveFile = saveWithDownload,
): BundleSlice {
  let scanSeq = 0;
  let lastFile: PickedFile | null = null;
  /** Opened bundles waiting for the one being previewed to be confirmed or dismissed. */
  const openedQueue: PickedFile[] = [];
  const patchShare = (change: Partial<ShareState>) => {
    const share = get().share;
    if (share) set({ share: { ...share, ...change } });
  };
  const patchImport = (change: Partial<ImportState>) => {
    const importing = get().importing;
    if (importing) set({ importing: { ...importing, ...change } });
  };

  const scan = async () => {
    const share = get().share;
    if (!share) return;
    const seq = ++scanSeq;
    if (!share.redact) return patchShare({ phase: 'review', findings: [], kept: [], error: null });
    const scanId = newExportId();
    patchShare({ phase: 'scanning', findings: [], refused: [], kept: [], error: null, exportId: scanId, progress: null });
    // A large selection takes a while to scan: follow its progress, and let Cancel stop it.
    const off = client.subscribe((event) => {
      if (event.name === 'bundleProgress' && event.payload.exportId === scanId && seq === scanSeq) {
        patchShare({ progress: progressOf(event.payload) });
      }
    });
    try {
      const result = await client.scanBundle({ keys: share.keys, format: share.format, scanId });
      if (seq === scanSeq) patchShare({ phase: 'review', findings: result.findings, refused: result.refused ?? [], exportId: null, progress: null });
    } catch (err) {
      if (seq === scanSeq) patchShare({ phase: 'error', error: describeError(err) });
    } finally {
      off();
    }
  };

  /** Fetches the finished export in pieces and saves it. */
  const fetchAndSave = async (result: BundleExport) => {
    patchShare({ phase: 'saving', progress: { done: 0, total: result.size } });
    const parts: Uint8Array[] = [];
    let offset = 0;
    for (let done = result.size === 0; !done;) {
      const piece = await client.readExport({ exportId: result.exportId, offset, length: UPLOAD_CHUNK });
      const bytes = fromBase64(piece.data);
      parts.push(bytes);
      offset += bytes.length;
      done = piece.done || bytes.length === 0;
      patchShare({ progress: { done: offset, total: result.size } });
    }
    save(parts, result.fileName);
  };

  /** Sends a file in pieces; returns its upload id once every byte is there. */
  const upload = (file: PickedFile): Promise<string> => uploadFile(client, file, (sent) => patchImport({ sent }));

  const runImport = async (uploadId: string, asCopy: boolean) => {
    patchImport({ phase: 'checking' });
    const report = await client.importBundle({ uploadId, asCopy });
    patchImport({ phase: 'done', report, uploadId: null });
    await get().refresh();
  };

  /** Uploads and checks a bundle, then shows what it would bring in and waits for confirmImport. */
  const previewFile = async (file: PickedFile) => {
    lastFile = file;
    set({
      importing: { fileName: file.name, phase: 'uploading', sent: 0, size: file.size, asCopy: false, report: null, preview: null, uploadId: null, error: null },
    });
    try {
      const uploadId = await upload(file);
      patchImport({ phase: 'checking' });
      const preview = await client.previewBundle({ uploadId });
      patchImport({ phase: 'preview', preview, uploadId });
    } catch (err) {
      patchImport({ phase: 'error', error: describeError(err) });
    }
  };

  return {
    share: null,
    importing: null,

    async openShare(keys, format = 'zip') {
      set({
        share: {
          keys,
          format: keys.length > 1 ? 'zip' : format,
          phase: 'scanning',
          redact: true,
          findings: [],
          kept: [],
          progress: null,
          result: null,
          error: null,
          exportId: null,
        },
      });
      await scan();
    },

    async setShareFormat(format) {
      const share = get().share;
      if (!share || share.phase === 'exporting' || (format !== 'zip' && share.keys.length > 1)) return;
      patchShare({ format });
      await scan();
    },

    setRedact(on) {
      const share = get().share;
      if (!share || share.phase === 'exporting') return;
      patchShare({ redact: on });
      void scan();
    },

    toggleFinding(id) {
      const share = get().share;
      if (!share) return;
      patchShare({ kept: share.kept.includes(id) ? share.kept.filter((k) => k !== id) : [...share.kept, id] });
    },

    async startExport() {
      const share = get().share;
      if (!share || share.phase !== 'review') return;
      const exportId = newExportId();
      patchShare({ phase: 'exporting', exportId, progress: null, error: null });
      const off = client.subscribe((event) => {
        if (event.name === 'bundleProgress' && event.payload.exportId === exportId) {
          patchShare({ progress: progressOf(event.payload) });
        }
      });
      try {
        const result = await client.exportBundle({ exportId, keys: share.keys, format: share.format, keep: share.kept, redact: share.redact });
        patchShare({ result });
        await fetchAndSave(result);
        patchShare({ phase: 'done' });
      } catch (err) {
        if (get().share?.exportId === exportId) patchShare({ phase: 'error', error: describeError(err) });
      } finally {
        off();
      }
    },

    async cancelShare() {
      const share = get().share;
      if ((share?.phase === 'exporting' || share?.phase === 'scanning') && share.exportId) {
        scanSeq++;
        set({ share: null });
        await client.cancelExport({ exportId: share.exportId }).catch(() => undefined);
        return;
      }
      scanSeq++;
      set({ share: null });
    },

    async saveAgain() {
      const result = get().share?.result;
      if (!result) return;
      try {
        await fetchAndSave(result);
        patchShare({ phase: 'done' });
      } catch (err) {
        patchShare({ phase: 'error', error: describeError(err) });
      }
    },

    async importFile(file, asCopy = false) {
      lastFile = file;
      set({
        importing: { fileName: file.name, phase: 'uploading', sent: 0, size: file.size, asCopy, report: null, preview: null, uploadId: null, error: null },
      });
      try {
        const uploadId = await upload(file);
        await runImport(uploadId, asCopy);
      } catch (err) {
        patchImport({ phase: 'error', error: describeError(err) });
      }
    },

    async confirmImport(asCopy = false) {
      const importing = get().importing;
      if (importing?.phase !== 'preview' || !importing.uploadId) return;
      patchImport({ asCopy });
      try {
        await runImport(importing.uploadId, asCopy);
      } catch (err) {
        patchImport({ phase: 'error', error: describeError(err) });
      }
    },

    async importAsCopies() {
      if (lastFile) await get().importFile(lastFile, true);
    },

    closeImport() {
      lastFile = null;
      set({ importing: null });
      const next = openedQueue.shift();
      if (next) void previewFile(next);
    },

    async importOpened() {
      let opened: OpenedBundle[];
      try {
        opened = await client.takeOpenedBundles();
      } catch {
        return; // nothing can have been opened through a transport that cannot even say so
      }
      for (const { openId, fileName, size } of opened) {
        const file: PickedFile = {
          name: fileName,
          size,
          slice: (start, end) => ({
            arrayBuffer: async () => {
              const piece = fromBase64((await client.readOpenedBundle({ openId, offset: start, length: end - start })).data);
              return piece.buffer.slice(piece.byteOffset, piece.byteOffset + piece.byteLength) as ArrayBuffer;
            },
          }),
        };
        openedQueue.push(file);
      }
      if (!get().importing) {
        const next = openedQueue.shift();
        if (next) await previewFile(next);
      }
    },
  };
}
