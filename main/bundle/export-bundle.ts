// Writes a bundle: sessions streamed into a zip one file at a time (scanned, redacted), manifest last, temp file then rename.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Writable, type Duplex } from 'node:stream';
import yazl from 'yazl';
import type { Session } from '../../shared/session.ts';
import { fsyncDirectory } from '../fs/atomic-write.ts';
import { appVersion } from '../version.ts';
import { MANIFEST_PATH } from './bundle-paths.ts';
import { Meter, openRaw, regzip, scanner, type PlannedEntry, type SessionPlan } from './bundle-entries.ts';
import type { Finding } from './finding.ts';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, type Manifest, type ManifestFile, type RedactionReport } from './manifest.ts';
import { abortError, contextFactory, plans, REDACTION_RULES, sessionEntry, sink, type BundleOptions, type ExportResult, type LoadSession, type ScanResult } from './scan-bundle.ts';
import type { ScanContext, SecretScanStream } from './secret-scan.ts';

export { scanBundle, type BundleOptions, type BundleProgress, type ExportResult, type LoadSession, type ScanResult } from './scan-bundle.ts';

/** A session with more source bytes than this streams its session.json; a smaller one's is built in memory, ahead. */
const BUFFERED_JSON_SOURCE_BYTES = 64 * 1024 * 1024;

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
 * Each session's session.json is built (and scanned) in memory while the previous session's files stream;
 * the session's source files then stream in, read, scanned, redacted, hashed and deflated chunk by chunk.
 */
export async function exportBundle(keys: string[], load: LoadSession, outPath: string, options: BundleOptions = {}): Promise<ExportResult> {
  const context = contextFactory(options);
  const level = options.compressionLevel ?? 6;
  // A gzip source is already compressed: stored. session.json is derived data: deflated fast (level 1).
  const compression = (entry: PlannedEntry) =>
    entry.gzip || level === 0 ? { compress: false } : { compress: true, compressionLevel: entry.kind === 'session' ? Math.min(level, 1) : level };
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
        if (entry.kind !== 'source' || entry.gzip) return;
        bytesDone += n;
        progress(entry.path);
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
      zip.addReadStreamLazy(entry.path, { mtime, mode: 0o100644, ...compression(entry) }, begin);
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
        // yazl keeps every entry's callback until the zip ends (and addBuffer its compressed bytes): the callback
        // lets go of the buffer as it hands it over, so memory stays flat however many sessions go in.
        let data: Buffer | null = json.data;
        json.data = Buffer.alloc(0);
        zip.addReadStreamLazy(jsonEntry.path, { mtime: new Date(), mode: 0o100644, ...compression(jsonEntry) }, (cb) => {
          const stream = Readable.from([data ?? Buffer.alloc(0)]);
          data = null;
          cb(null, stream);
        });
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
