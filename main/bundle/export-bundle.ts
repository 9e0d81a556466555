// Writes a bundle: sessions streamed into a zip one file at a time (scanned, redacted), manifest last, temp file then rename.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Writable, type Duplex, type Readable } from 'node:stream';
import yazl from 'yazl';
import type { Session } from '../../shared/session.ts';
import { fsyncDirectory } from '../fs/atomic-write.ts';
import { Redactor } from '../store/redact.ts';
import { appVersion } from '../version.ts';
import { MANIFEST_PATH } from './bundle-paths.ts';
import { Meter, openRaw, planSession, regzip, scanner, type PlannedEntry, type SessionPlan } from './bundle-entries.ts';
import type { Finding } from './finding.ts';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, type Manifest, type ManifestFile, type ManifestSession, type RedactionReport } from './manifest.ts';
import type { ScanContext, SecretScanStream } from './secret-scan.ts';

export type LoadSession = (key: string) => Promise<Session>;

export interface BundleOptions {
  /** Scan and redact (default true); false copies every source byte-for-byte, secrets included. */
  redact?: boolean;
  /** Ids of findings to leave in place (the review's false positives). */
  keep?: Iterable<string>;
  /** Whose environment values count as secrets (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Also take each session's sub-agent sessions (default true), so they come back under their parent. */
  includeChildren?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: BundleProgress) => void;
  /** zlib level for the entries (default 6, as `zip -6`). */
  compressionLevel?: number;
}

export interface BundleProgress {
  sessionsDone: number;
  /** Grows as sub-agent sessions are found. */
  sessionsTotal: number;
  /** Source bytes read so far, of the sessions planned so far. */
  bytesDone: number;
  bytesTotal: number;
  file: string;
}

export interface ScanResult {
  sessions: ManifestSession[];
  files: number;
  bytes: number;
  findings: Finding[];
}

export interface ExportResult extends ScanResult {
  path: string;
  /** Size of the written zip. */
  size: number;
  redaction: RedactionReport;
}

export const REDACTION_RULES = ['secretlint preset-recommend', 'private-key', 'jwt', 'environment values'];

/** A session with more source bytes than this streams its session.json; a smaller one's is built in memory, ahead. */
const BUFFERED_JSON_SOURCE_BYTES = 64 * 1024 * 1024;

function abortError(): Error {
  const err = new Error('The export was cancelled.');
  err.name = 'AbortError';
  return err;
}

function sessionEntry(plan: SessionPlan): ManifestSession {
  return { folder: plan.folder, format: plan.format, ...plan.manifest };
}

/**
 * Loads sessions in order, one ahead of the consumer, and runs `prepare` on each as soon as it is loaded
 * (building the next session.json while this session's files stream); sub-agents join the queue.
 */
async function* plans<T>(
  keys: string[],
  load: LoadSession,
  includeChildren: boolean,
  prepare: (plan: SessionPlan) => Promise<T>,
  signal?: AbortSignal,
): AsyncGenerator<{ plan: SessionPlan; prepared: T; total: number }> {
  const queue = [...new Set(keys)];
  const seen = new Set(queue);
  const fetch = (key: string) => {
    const p = load(key)
      .then(planSession)
      .then(async (plan) => ({ plan, prepared: await prepare(plan) }));
    p.catch(() => undefined); // awaited below; a prefetch abandoned by a failure must not go unhandled
    return p;
  };
  let next = queue.length ? fetch(queue[0] as string) : null;
  for (let i = 0; next; i++) {
    if (signal?.aborted) throw abortError();
    const { plan, prepared } = await next;
    if (includeChildren) {
      for (const child of plan.childKeys) {
        if (seen.has(child)) continue;
        seen.add(child);
        queue.push(child);
      }
    }
    next = i + 1 < queue.length ? fetch(queue[i + 1] as string) : null;
    yield { plan, prepared, total: queue.length };
  }
}

function sink(): Writable {
  return new Writable({ write: (_chunk, _enc, done) => done() });
}

/**
 * One context per session: a secret found in a session's files is looked for in the rest of that session
 * (its session.json first, then its sources), so findings do not depend on which sessions share the export.
 */
function contextFactory(options: BundleOptions): (() => ScanContext) | null {
  if (options.redact === false) return null;
  const redactor = new Redactor(['secrets', 'env'], options.env ?? process.env);
  const keep = new Set(options.keep ?? []);
  return () => ({ redactor, literals: new Map(), keep });
}

/** session.json first, then the sources: the order findings are made in, in a review and in the export alike. */
function scanOrder(plan: SessionPlan): PlannedEntry[] {
  return [...plan.entries.filter((e) => e.kind === 'session'), ...plan.entries.filter((e) => e.kind === 'source')];
}

/** Finds every secret the export would redact, writing nothing (the review step). */
export async function scanBundle(keys: string[], load: LoadSession, options: BundleOptions = {}): Promise<ScanResult> {
  const context = contextFactory({ ...options, redact: true, keep: [] }) as () => ScanContext;
  const result: ScanResult = { sessions: [], files: 0, bytes: 0, findings: [] };
  for await (const { plan } of plans(keys, load, options.includeChildren !== false, async () => null, options.signal)) {
    const ctx = context();
    for (const entry of scanOrder(plan)) {
      const scan = scanner(ctx, entry, false);
      await pipeline(entry.open(), scan, sink(), ...(options.signal ? [{ signal: options.signal }] : []));
      result.findings.push(...scan.findings);
      result.files++;
      result.bytes += entry.size;
    }
    plan.session = null;
    result.sessions.push(sessionEntry(plan));
  }
  return result;
}

interface Written {
  file: ManifestFile;
  findings: Finding[];
}

function manifestFile(entry: PlannedEntry, format: Session['format'], size: number, sha256: string, findings: Finding[]): ManifestFile {
  const applied = findings.filter((f) => f.redacted);
  return {
    path: entry.path,
    size,
    sha256,
    session: entry.path.split('/')[1] ?? '',
    kind: entry.kind,
    role: entry.role,
    originalPath: entry.originalPath,
    mtimeMs: entry.mtimeMs,
    sourceFormat: format,
    redacted: applied.length > 0,
    redactions: applied.map((f) => ({ id: f.id, rule: f.rule, line: f.line })),
  };
}

/**
 * Exports sessions as a bundle at `outPath`. The zip is written to a hidden temp file beside it and renamed
 * over `outPath` only when whole and synced; a failure or cancel removes the temp file and leaves `outPath` as it was.
 *
 * Each session's session.json is built (and scanned) while the previous session's files stream, then added
 * as a buffer, which yazl deflates on zlib's thread pool at once; the session's source files then stream in,
 * read, scanned, redacted, hashed and deflated chunk by chunk.
 */
export async function exportBundle(keys: string[], load: LoadSession, outPath: string, options: BundleOptions = {}): Promise<ExportResult> {
  const context = contextFactory(options);
  const level = options.compressionLevel ?? 6;
  const compression = (stored: boolean) => (stored || level === 0 ? { compress: false } : { compress: true, compressionLevel: level });
  const tmp = join(dirname(outPath), `.${basename(outPath)}.${process.pid}.${randomBytes(4).toString('hex')}.partial`);
  const zip = new yazl.ZipFile();
  const out = createWriteStream(tmp, { flags: 'wx' });
  const live = new Set<Readable | Duplex | Writable>();
  let failure: Error | null = null;
  let rejectRun: (err: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => (rejectRun = reject));
  failed.catch(() => undefined);
  const fail = (err: Error) => {
    if (failure) return;
    failure = err;
    for (const s of live) s.destroy();
    zip.outputStream.unpipe(out);
    out.destroy();
    rejectRun(err);
  };
  const onAbort = () => fail(abortError());
  options.signal?.addEventListener('abort', onAbort, { once: true });
  zip.on('error', (err: Error) => fail(err));
  const written = pipeline(zip.outputStream, out);
  written.catch((err: Error) => fail(err));
  const guard = <T>(p: Promise<T>): Promise<T> => Promise.race([p, failed]);

  const result: ScanResult = { sessions: [], files: 0, bytes: 0, findings: [] };
  const files: ManifestFile[] = [];
  let sessionsTotal = keys.length;
  let bytesTotal = 0;
  let bytesDone = 0;
  const progress = (file: string) => options.onProgress?.({ sessionsDone: result.sessions.length, sessionsTotal, bytesDone, bytesTotal, file });
  const record = (w: Written) => {
    files.push(w.file);
    result.findings.push(...w.findings);
    result.files++;
    result.bytes += w.file.size;
  };

  /** The streams that give an entry's bundle bytes; a gzip source is scanned first and kept byte-for-byte when clean. */
  const stagesFor = async (entry: PlannedEntry, ctx: ScanContext | null): Promise<{ stages: Array<Readable | Duplex>; scan: SecretScanStream | null }> => {
    if (!ctx) return { stages: [entry.gzip ? openRaw(entry) : entry.open()], scan: null };
    if (!entry.gzip) {
      const scan = scanner(ctx, entry, true);
      return { stages: [entry.open(), scan], scan };
    }
    const before = new Map(ctx.literals);
    const probe = scanner(ctx, entry, false);
    await pipeline(entry.open(), probe, sink(), ...(options.signal ? [{ signal: options.signal }] : []));
    if (probe.redactedCount === 0) return { stages: [openRaw(entry)], scan: probe };
    // The second pass must find exactly what the first did, so it starts from the secrets known before it.
    const found = ctx.literals;
    ctx.literals = before;
    const scan = scanner(ctx, entry, true);
    scan.on('end', () => {
      for (const [k, v] of found) ctx.literals.set(k, v);
    });
    return { stages: [entry.open(), scan, regzip()], scan };
  };

  /** Queues one streamed entry; yazl asks for its stream when the previous entry is done. Resolves when yazl has read it all. */
  const addStreamed = (entry: PlannedEntry, format: Session['format'], ctx: ScanContext | null): Promise<Written> =>
    new Promise<Written>((resolve, reject) => {
      const stop = (err: Error) => {
        reject(err);
        fail(err);
      };
      const meter = new Meter(createHash('sha256'), (n) => {
        if (entry.kind === 'source' && !entry.gzip) bytesDone += n;
      });
      const begin = (cb: (err: unknown, stream: NodeJS.ReadableStream) => void) => {
        progress(entry.path);
        stagesFor(entry, ctx).then(({ stages, scan }) => {
          const chain = [...stages, meter];
          if (failure) {
            for (const s of chain) s.destroy();
            return;
          }
          for (const s of chain) live.add(s);
          meter.on('end', () => {
            for (const s of chain) live.delete(s);
            if (entry.gzip) bytesDone += entry.size;
            const findings = scan?.findings ?? [];
            resolve({ findings, file: manifestFile(entry, format, meter.size, meter.digest(), findings) });
          });
          pipeline(chain).catch(stop);
          cb(null, meter);
        }, stop);
      };
      const mtime = entry.mtimeMs === null ? new Date() : new Date(entry.mtimeMs);
      // A gzip source is already compressed: stored, not deflated again.
      zip.addReadStreamLazy(entry.path, { mtime, mode: 0o100644, ...compression(entry.gzip) }, begin);
    });

  /** Builds session.json (scanned, redacted) in memory; the caller adds it where it can compress alongside other work. */
  const buildJson = async (entry: PlannedEntry, format: Session['format'], ctx: ScanContext | null): Promise<{ data: Buffer; written: Written }> => {
    const chunks: Buffer[] = [];
    const scan = ctx ? scanner(ctx, entry, true) : null;
    const collect = new Writable({ write: (chunk: Buffer, _enc, done) => (chunks.push(chunk), done()) });
    await guard(pipeline([entry.open(), ...(scan ? [scan] : []), collect]));
    const data = Buffer.concat(chunks);
    const findings = scan?.findings ?? [];
    return { data, written: { findings, file: manifestFile(entry, format, data.length, createHash('sha256').update(data).digest('hex'), findings) } };
  };

  /**
   * Runs as soon as a session is loaded, while the previous session's files still stream: its scan context,
   * and its session.json built and scanned in memory (unless the session is too large to buffer).
   */
  const prepare = async (plan: SessionPlan) => {
    const ctx = context?.() ?? null;
    const jsonEntry = plan.entries.find((e) => e.kind === 'session') as PlannedEntry;
    const sourceBytes = plan.entries.reduce((n, e) => n + e.size, 0);
    if (sourceBytes > BUFFERED_JSON_SOURCE_BYTES) return { ctx, jsonEntry, json: null };
    const json = await buildJson(jsonEntry, plan.format, ctx);
    plan.session = null;
    return { ctx, jsonEntry, json };
  };

  const run = async (): Promise<ExportResult> => {
    for await (const { plan, prepared, total } of plans(keys, load, options.includeChildren !== false, prepare, options.signal)) {
      if (failure) throw failure;
      sessionsTotal = total;
      bytesTotal += plan.entries.reduce((n, e) => n + e.size, 0);
      const { ctx, jsonEntry, json } = prepared;
      const pending: Array<Promise<Written>> = [];
      if (json) {
        // Derived data: deflated fast (level 1) on zlib's pool while the sources stream.
        zip.addBuffer(json.data, jsonEntry.path, { mtime: new Date(), mode: 0o100644, ...(level === 0 ? { compress: false } : { compress: true, compressionLevel: 1 }) });
        record(json.written);
      } else {
        pending.push(addStreamed(jsonEntry, plan.format, ctx));
      }
      for (const e of plan.entries) if (e.kind === 'source') pending.push(addStreamed(e, plan.format, ctx));
      for (const p of pending) p.catch(() => undefined); // awaited together below
      for (const w of await guard(Promise.all(pending))) record(w);
      plan.session = null;
      result.sessions.push(sessionEntry(plan));
      progress('');
    }
    if (failure) throw failure;
    const redaction: RedactionReport = {
      enabled: context !== null,
      rules: context ? REDACTION_RULES : [],
      findings: result.findings.length,
      redacted: result.findings.filter((f) => f.redacted).length,
      kept: result.findings.filter((f) => !f.redacted).map((f) => ({ id: f.id, rule: f.rule, file: f.file, line: f.line })),
    };
    const manifest: Manifest = {
      format: BUNDLE_FORMAT,
      formatVersion: BUNDLE_FORMAT_VERSION,
      appVersion,
      createdAt: new Date().toISOString(),
      sessions: result.sessions,
      files,
      redaction,
    };
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_PATH, { mtime: new Date(), mode: 0o100644 });
    zip.end();
    await guard(written);
    if (failure) throw failure;
    const handle = await open(tmp, 'r+');
    let size: number;
    try {
      await handle.sync();
      size = (await handle.stat()).size;
    } finally {
      await handle.close();
    }
    await rename(tmp, outPath);
    await fsyncDirectory(dirname(outPath));
    return { ...result, path: outPath, size, redaction };
  };

  try {
    return await run();
  } catch (err) {
    fail(err as Error);
    await written.catch(() => undefined);
    await rm(tmp, { force: true });
    throw failure ?? err;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
