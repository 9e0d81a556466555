// Sharing's contract methods: scan for review, export into the app's exports folder (progress, cancel), bundles in and out in pieces, import.
import { randomBytes } from 'node:crypto';
import { SessionSummaryText } from '../../shared/session.ts';
import { appendFile, mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AppEvent } from '../../shared/api.ts';
import type { BundleExport } from '../../shared/bundle-api.ts';
import { AppError } from '../../shared/result.ts';
import type { Session } from '../../shared/session.ts';
import type { ServiceMethods } from '../../shared/api.ts';
import { BundleError } from './bundle-error.ts';
// The export, import and preview modules (yazl, yauzl, the redaction rules) are loaded by the methods that use them: a
// command that only lists or searches never loads them.
import type { BundleProgress } from './export-bundle.ts';
import { markdownFileName } from './markdown-export.ts';
import { workerLoader, type ClosableLoader, type LocateSession } from './worker-loader.ts';
import { gatedLoader } from './session-gate.ts';
import type { SessionFileCheck } from '../roots/session-files.ts';
import { VaultStore } from '../vault/vault-store.ts';

export interface BundleDeps {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** The whole session behind a key, every message (a read that does not evict what the user has open). */
  load(key: string): Promise<Session>;
  /**
   * Where a session's file is and which children the catalogue knows of it: bundles parse in a worker of
   * their own that also writes and scans session.json, so this thread never holds a parsed session.
   */
  locate: LocateSession;
  /** The user's price list, for that worker. */
  pricingFile?: string;
  /** Whether a key is already listed (a live session), so an import skips it. */
  known(key: string): boolean;
  /** The roots check every file a bundle takes must pass; the files that fail it are named in the review, never read. */
  files: SessionFileCheck;
  rescanVault(): Promise<void>;
  /** Keeps the summary an imported session.json carries (the vault's summaries; absent in tests that do not need it). */
  adoptSummary?(key: string, summary: SessionSummaryText & { overview: string }): Promise<void>;
  emit(event: AppEvent): void;
}

export type BundleMethodNames =
  'scanBundle' | 'exportBundle' | 'cancelExport' | 'readExport' | 'beginUpload' | 'uploadChunk' | 'previewBundle' | 'importBundle';

/** Exports and uploads older than this are swept when the next one starts. */
const KEEP_FILES_MS = 24 * 60 * 60 * 1000;

async function sweep(dir: string, now = Date.now()): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > KEEP_FILES_MS) await rm(path, { recursive: true, force: true });
  }
}

export class BundleService {
  readonly exportsDir: string;
  readonly uploadsDir: string;
  private readonly deps: BundleDeps;
  private readonly running = new Map<string, AbortController>();
  private readonly finished = new Map<string, { path: string; fileName: string }>();
  private readonly uploads = new Map<string, { size: number; received: number }>();

  constructor(deps: BundleDeps) {
    this.deps = deps;
    this.exportsDir = join(deps.dataDir, 'exports');
    this.uploadsDir = join(deps.dataDir, 'uploads');
  }

  /** The whole session behind a key, as Markdown and HTML exports read it (its paths as on disk; `vaultRoot` maps them for sharing). */
  readonly load = (key: string): Promise<Session> => this.deps.load(key);

  /** The vault's folder, below the data folder: nothing shared names it (a kept copy's files go by their original paths). */
  get vaultRoot(): string {
    return new VaultStore(this.deps.dataDir).root;
  }

  /**
   * What a bundle export or scan reads sessions through; close it when done (it ends the export's worker).
   * Every session's files pass the roots check on the way: a file outside every root is refused, never read.
   */
  openLoader(): ClosableLoader {
    return gatedLoader(workerLoader(this.deps.locate, this.deps.pricingFile), this.deps.files, this.vaultRoot);
  }

  /** The file of a finished upload; a missing or half-sent one is refused. */
  private async completeUpload(uploadId: string): Promise<string> {
    const path = join(this.uploadsDir, `${uploadId}.zip`);
    const upload = this.uploads.get(uploadId);
    if (!upload || !(await stat(path).catch(() => null))) throw new AppError('NOT_FOUND', 'No uploaded bundle with this id; upload it again.', 'uploadId');
    if (upload.received !== upload.size)
      throw new AppError('INVALID_INPUT', `The upload is incomplete: ${upload.received} of ${upload.size} bytes.`, 'uploadId');
    return path;
  }

  private async adoptSummary(key: string, dir: string): Promise<void> {
    if (!this.deps.adoptSummary) return;
    try {
      const session = JSON.parse(await readFile(join(dir, 'session.json'), 'utf8')) as { summary?: unknown };
      const summary = SessionSummaryText.safeParse(session.summary);
      if (summary.success && summary.data.overview) await this.deps.adoptSummary(key, { ...summary.data, overview: summary.data.overview });
    } catch {
      // No readable session.json: the session comes in without a summary, as before.
    }
  }

  /** Hands a finished upload's file to another service (a session file opened from the browser); the upload is then over. */
  async takeUpload(uploadId: string): Promise<string> {
    const path = await this.completeUpload(uploadId);
    this.uploads.delete(uploadId);
    return path;
  }

  private async readExport(exportId: string, offset: number, length: number) {
    const file = this.finished.get(exportId);
    if (!file) throw new AppError('NOT_FOUND', `No finished export "${exportId}"; export again.`, 'exportId');
    const handle = await open(file.path, 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT')
        throw new AppError('NOT_FOUND', `The export "${exportId}" is no longer on disk (exports are kept a day); export again.`, 'exportId');
      throw err;
    });
    try {
      const { size } = await handle.stat();
      if (offset > size) throw new AppError('INVALID_INPUT', `Offset ${offset} is past the end of the export (${size} bytes).`, 'offset');
      const buffer = Buffer.alloc(Math.min(length, size - offset));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      return { data: buffer.subarray(0, bytesRead).toString('base64'), offset, size, done: offset + bytesRead >= size };
    } finally {
      await handle.close();
    }
  }

  private async beginUpload(size: number) {
    await mkdir(this.uploadsDir, { recursive: true });
    await sweep(this.uploadsDir);
    const uploadId = randomBytes(16).toString('hex');
    await writeFile(join(this.uploadsDir, `${uploadId}.zip`), '', { flag: 'wx' });
    this.uploads.set(uploadId, { size, received: 0 });
    return { uploadId };
  }

  /** Pieces arrive in order; a gap, an overlap or more bytes than announced is refused. */
  private async uploadChunk(uploadId: string, offset: number, data: string) {
    const upload = this.uploads.get(uploadId);
    if (!upload) throw new AppError('NOT_FOUND', 'No upload with this id; start it again.', 'uploadId');
    if (offset !== upload.received) throw new AppError('INVALID_INPUT', `Expected the piece at offset ${upload.received}, got ${offset}.`, 'offset');
    const bytes = Buffer.from(data, 'base64');
    if (upload.received + bytes.length > upload.size)
      throw new AppError('INVALID_INPUT', `The upload is larger than the ${upload.size} bytes announced.`, 'data');
    await appendFile(join(this.uploadsDir, `${uploadId}.zip`), bytes);
    upload.received += bytes.length;
    return { received: upload.received };
  }

  /** bundleProgress events for one export or scan, at most five a second. */
  /**
   * bundleProgress events for one run, at most one per 200 ms; the latest state is never dropped (a throttled
   * update goes out when its 200 ms are up), and `end()` stops a late one from following the final event.
   */
  private progressEvents(id: string): { update: (p: BundleProgress) => void; end: () => void } {
    let last = 0;
    let latest: BundleProgress | null = null;
    let timer: NodeJS.Timeout | null = null;
    const send = () => {
      timer = null;
      if (!latest) return;
      const p = latest;
      latest = null;
      last = Date.now();
      this.deps.emit({
        name: 'bundleProgress',
        payload: {
          exportId: id,
          phase: p.phase,
          sessionsDone: p.sessionsDone,
          sessionsTotal: p.sessionsTotal,
          bytesDone: p.bytesDone,
          bytesTotal: p.bytesTotal,
        },
      });
    };
    return {
      update: (p) => {
        latest = p;
        const wait = last + 200 - Date.now();
        if (wait <= 0) send();
        else timer ??= setTimeout(send, wait);
      },
      end: () => {
        if (timer) clearTimeout(timer);
        timer = null;
        latest = null;
      },
    };
  }

  /** The review scan; with a `scanId` it reports progress under that id and cancelExport stops it. */
  private async runScan(keys: string[], includeChildren: boolean, scanId: string | undefined) {
    if (scanId && (this.running.has(scanId) || this.finished.has(scanId)))
      throw new AppError('INVALID_INPUT', `Scan id "${scanId}" is already used.`, 'scanId');
    const controller = new AbortController();
    if (scanId) this.running.set(scanId, controller);
    const loader = this.openLoader();
    const events = scanId ? this.progressEvents(scanId) : null;
    try {
      const { scanBundle } = await import('./export-bundle.ts');
      const scan = await scanBundle(keys, loader, {
        env: this.deps.env,
        includeChildren,
        signal: controller.signal,
        ...(events ? { onProgress: events.update } : {}),
      });
      return { findings: scan.findings, refused: scan.refused, sessions: scan.sessions.length, files: scan.files, bytes: scan.bytes };
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw new AppError('CANCELLED', 'The scan was cancelled.');
      throw err;
    } finally {
      events?.end();
      await loader.close();
      if (scanId) this.running.delete(scanId);
    }
  }

  private async runExport(input: Parameters<ServiceMethods['exportBundle']>[0]): Promise<BundleExport> {
    const { exportId, keys, format, keep, redact, includeChildren } = input;
    if (this.running.has(exportId) || this.finished.has(exportId)) throw new AppError('INVALID_INPUT', `Export id "${exportId}" is already used.`, 'exportId');
    const controller = new AbortController();
    this.running.set(exportId, controller);
    const dir = join(this.exportsDir, exportId);
    try {
      await sweep(this.exportsDir);
      await mkdir(dir, { recursive: true });
      const load = this.deps.load;
      const options = { redact, keep, env: this.deps.env, includeChildren, signal: controller.signal, vault: this.vaultRoot };
      if (format !== 'zip') {
        if (keys.length !== 1) throw new AppError('INVALID_INPUT', `A ${format} export holds one session; ${keys.length} were chosen.`, 'keys');
        const session = await load(keys[0] as string);
        const fileName = format === 'md' ? markdownFileName(session) : `${basename(markdownFileName(session), '.md')}.html`;
        const path = join(dir, fileName);
        const { exportDocument } = await import('./export-document.ts');
        const result = await exportDocument(session, format, path, options);
        this.finished.set(exportId, { path, fileName });
        const redacted = result.findings.filter((f) => f.redacted).length;
        return {
          exportId,
          path,
          fileName,
          size: (await stat(path)).size,
          sessions: 1,
          files: 1,
          redacted,
          kept: result.findings.length - redacted,
          refused: [],
        };
      }
      const fileName = `session-vault-${new Date().toISOString().slice(0, 10)}-${
        keys.length === 1
          ? basename(keys[0] as string)
              .replace(/[^A-Za-z0-9._-]+/g, '_')
              .slice(0, 60)
          : `${keys.length}-sessions`
      }.zip`;
      const path = join(dir, fileName);
      const { exportBundle } = await import('./export-bundle.ts');
      const loader = this.openLoader();
      const events = this.progressEvents(exportId);
      const result = await exportBundle(keys, loader, path, { ...options, onProgress: events.update }).finally(() => {
        events.end();
        return loader.close();
      });
      this.finished.set(exportId, { path, fileName });
      const done = {
        exportId,
        phase: 'write' as const,
        sessionsDone: result.sessions.length,
        sessionsTotal: result.sessions.length,
        bytesDone: result.bytes,
        bytesTotal: result.bytes,
      };
      this.deps.emit({ name: 'bundleProgress', payload: done });
      return {
        exportId,
        path,
        fileName,
        size: result.size,
        sessions: result.sessions.length,
        files: result.files,
        redacted: result.redaction.redacted,
        kept: result.redaction.kept.length,
        refused: result.refused,
      };
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      if ((err as Error).name === 'AbortError') throw new AppError('CANCELLED', 'The export was cancelled; nothing was written.');
      throw err;
    } finally {
      this.running.delete(exportId);
    }
  }

  methods(): Pick<ServiceMethods, BundleMethodNames> {
    return {
      scanBundle: async ({ keys, format, includeChildren, scanId }) => {
        if (format === 'zip') return this.runScan(keys, includeChildren, scanId);
        if (keys.length !== 1) throw new AppError('INVALID_INPUT', `A ${format} export holds one session; ${keys.length} were chosen.`, 'keys');
        const { renderDocument } = await import('./export-document.ts');
        const { text, findings } = await renderDocument(await this.deps.load(keys[0] as string), format, { env: this.deps.env, vault: this.vaultRoot });
        return { findings, refused: [], sessions: 1, files: 1, bytes: Buffer.byteLength(text) };
      },
      exportBundle: async (input) => this.runExport(input),
      cancelExport: async ({ exportId }) => {
        const controller = this.running.get(exportId);
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
      readExport: async ({ exportId, offset, length }) => this.readExport(exportId, offset, length),
      beginUpload: async ({ size }) => this.beginUpload(size),
      uploadChunk: async ({ uploadId, offset, data }) => this.uploadChunk(uploadId, offset, data),
      previewBundle: async ({ uploadId }) => {
        const path = await this.completeUpload(uploadId);
        try {
          const { previewBundle } = await import('./preview-bundle.ts');
          return await previewBundle(path, { dataDir: this.deps.dataDir, known: (key) => this.deps.known(key) });
        } catch (err) {
          if (err instanceof BundleError) throw new AppError('INVALID_INPUT', err.message, 'uploadId');
          throw err;
        }
      },
      importBundle: async ({ uploadId, asCopy }) => {
        const path = await this.completeUpload(uploadId);
        this.uploads.delete(uploadId);
        try {
          const { importBundle } = await import('./import-bundle.ts');
          const report = await importBundle(path, { dataDir: this.deps.dataDir, asCopy, known: (key) => this.deps.known(key) });
          if (report.imported.length) await this.deps.rescanVault();
          // A summary the sender's vault kept travels in session.json: this vault keeps it too (the sources do not
          // hold it), once the rescan has listed the session.
          for (const s of report.imported) await this.adoptSummary(s.key, s.dir);
          return {
            imported: report.imported.map(({ key, title, copyOf }) => ({ key, title, copyOf })),
            skipped: report.skipped,
            files: report.files,
            redacted: report.redaction.redacted,
            redactionEnabled: report.redaction.enabled,
          };
        } catch (err) {
          // The message names the entry and the rule; the field says which input was at fault.
          if (err instanceof BundleError) throw new AppError('INVALID_INPUT', err.message, 'uploadId');
          throw err;
        } finally {
          await rm(path, { force: true });
        }
      },
    };
  }
}
