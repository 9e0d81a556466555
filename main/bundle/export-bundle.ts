// Writes a bundle: sessions into a zip (yazl) file by file, scanned and redacted on the way, manifest last, temp file then rename.
import { WAITING_BUDGET } from '../env/tuning.ts';
import { WHOLE_MAX } from '../env/tuning.ts';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Session } from '../../shared/session.ts';
import { fsyncDirectory } from '../fs/atomic-write.ts';
import { appVersion } from '../env/app-version.ts';
import { MANIFEST_PATH } from './bundle-paths.ts';
import { BufferPool, readWhole, unmap } from './read-whole.ts';
import { openRaw, recompress, scanner, type PlannedEntry, type SourceEntry } from './bundle-entries.ts';
import type { Finding } from './finding.ts';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, type Manifest, type ManifestFile, type RedactionReport } from './manifest.ts';
import {
  abortError,
  contextFactory,
  jsonScanOf,
  loaderOf,
  plans,
  REDACTION_RULES,
  sessionEntry,
  sink,
  type BundleOptions,
  type ExportResult,
  type ScanResult,
  type SessionSource,
} from './scan-bundle.ts';
import { redactedPieces, type ScanContext, type SecretScanStream } from './secret-scan.ts';
import { scannedManifest } from './scan-manifest.ts';
import { ZipWriter } from './zip-writer.ts';

export {
  scanBundle,
  type BundleOptions,
  type BundleProgress,
  type ExportResult,
  type LoadSession,
  type ScanResult,
  type SessionSource,
} from './scan-bundle.ts';

/** Read buffers kept for the next file once their bytes are deflated: one 16 MB transcript's, not the whole budget's. */
const POOL_KEEP = WAITING_BUDGET / 2;

/** Runs a whole file through the scanner; the same bytes when nothing was redacted, else the redacted copy in a buffer from `pool`. */
async function scanWhole(bytes: Buffer, scan: SecretScanStream, pool: BufferPool, signal: AbortSignal): Promise<Buffer> {
  const pieces = await redactedPieces(bytes, scan, signal);
  if (!pieces) return bytes;
  const copy = pool.take(pieces.reduce((n, piece) => n + piece.length, 0));
  let at = 0;
  for (const piece of pieces) at += piece.copy(copy, at);
  return copy;
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

/** stream/promises' pipeline over a list of stages ending in a consumer; its overloads cannot type a list of any length. */
const pipeAll = pipeline as unknown as (
  streams: ReadonlyArray<Readable | Duplex | ((source: AsyncIterable<Buffer>) => Promise<void>)>,
  options: { signal: AbortSignal },
) => Promise<void>;

/**
 * Exports sessions as a bundle at `outPath`. The zip is written to a hidden temp file beside it and renamed
 * over `outPath` only when whole and synced; a failure or cancel removes the temp file and leaves `outPath` as it was.
 *
 * Memory stays bounded however large the selection. Each session is parsed, serialized to session.json and
 * (when redacting) scanned by the loader, in a worker for the app, while the previous session's sources go
 * out; only its session.json bytes come to this thread. Sources up to WHOLE_MAX are read whole, scanned and
 * handed to yazl, which deflates them on libuv's thread pool beside each other and beside the session.json,
 * with at most WAITING_BUDGET bytes waiting; larger ones stream through the scanner into yazl chunk by chunk.
 */
export async function exportBundle(keys: string[], source: SessionSource, outPath: string, options: BundleOptions = {}): Promise<ExportResult> {
  const context = contextFactory(options);
  const level = options.compressionLevel ?? 6;
  const tmp = join(dirname(outPath), `.${basename(outPath)}.${process.pid}.${randomBytes(4).toString('hex')}.partial`);
  // One signal for everything in flight: the caller's cancel, or the first failure.
  const stop = new AbortController();
  const onAbort = () => stop.abort(abortError());
  if (options.signal?.aborted) throw abortError();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const out = createWriteStream(tmp, { flags: 'wx', highWaterMark: 1024 * 1024 });
  const outError = new Promise<never>((_, reject) => out.once('error', reject));
  outError.catch(() => undefined);
  const zip = new ZipWriter(out, stop.signal, WAITING_BUDGET);
  // Whole sources are read into buffers reused once yazl has deflated them.
  const buffers = new BufferPool(POOL_KEEP);

  const result: ScanResult = { sessions: [], files: 0, bytes: 0, findings: [], refused: [] };
  const files: ManifestFile[] = [];
  // Every secret any session held: the manifest (titles) is scanned for them too.
  const exportSecrets = new Map<string, string>();
  let sessionsTotal = keys.length;
  let bytesTotal = 0;
  let bytesDone = 0;
  const progress = (file: string) => options.onProgress?.({ phase: 'write', sessionsDone: result.sessions.length, sessionsTotal, bytesDone, bytesTotal, file });
  const signalled = [{ signal: stop.signal }] as const;

  /** Streams one entry into the zip: `stages` give its bundle bytes, hashed here; level 0 stores them. Resolves with its size and SHA-256. */
  const writeEntry = async (entry: PlannedEntry, stages: Array<Readable | Duplex>, entryLevel: number) => {
    const mtime = entry.mtimeMs === null ? new Date() : new Date(entry.mtimeMs);
    zip.begin(entry.path, { mtime, mode: 0o100644, level: entryLevel });
    const hash = createHash('sha256');
    let size = 0;
    const counts = entry.kind === 'source' && !entry.compressed;
    await pipeAll(
      [
        ...stages,
        async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) {
            hash.update(chunk);
            size += chunk.length;
            await zip.data(chunk);
            if (counts) {
              bytesDone += chunk.length;
              progress(entry.path);
            }
          }
        },
      ],
      { signal: stop.signal },
    );
    await zip.end();
    if (entry.compressed) bytesDone += entry.size;
    return { size, sha256: hash.digest('hex') };
  };

  /** A source read whole: scanned (and redacted), hashed, then deflated by yazl in the background while the next one is read. */
  const writeWhole = async (entry: SourceEntry, format: Session['format'], ctx: ScanContext | null) => {
    await zip.room(entry.size);
    // Bytes that came with the session (a contained session's rows) are not the pool's: never handed to it.
    const pooled = !entry.bytes;
    const original = entry.bytes ?? (await readWhole(entry.diskPath, buffers, stop.signal));
    const read = original.length;
    const scan = ctx ? scanner(ctx, entry, true) : null;
    const bytes = scan ? await scanWhole(original, scan, buffers, stop.signal) : original;
    if (bytes !== original && pooled) buffers.give(original);
    const mtime = entry.mtimeMs === null ? new Date() : new Date(entry.mtimeMs);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const size = bytes.length;
    // Both the bytes as read and a redacted copy are pool buffers, back in the pool once yazl has deflated them.
    zip.add(entry.path, bytes, { mtime, mode: 0o100644, level }, true, () => {
      if (bytes !== original || pooled) buffers.give(bytes);
    });
    bytesDone += read;
    progress(entry.path);
    const findings = scan?.findings ?? [];
    return { file: manifestFile(entry, format, size, sha256, findings), findings };
  };

  /** A source file; a compressed source is scanned first and stored byte-for-byte when clean, recompressed only when redacted. */
  const writeSource = async (entry: SourceEntry, format: Session['format'], ctx: ScanContext | null) => {
    progress(entry.path);
    if (!entry.compressed && entry.size <= (options.wholeFileMax ?? WHOLE_MAX)) return writeWhole(entry, format, ctx);
    let stages: Array<Readable | Duplex>;
    let scan: SecretScanStream | null = null;
    if (!ctx) stages = [entry.compressed ? openRaw(entry) : entry.open()];
    else if (!entry.compressed) {
      scan = scanner(ctx, entry, true);
      stages = [entry.open(), scan];
    } else {
      const before = new Map(ctx.literals);
      const probe = scanner(ctx, entry, false);
      await pipeline(entry.open(), probe, sink(), ...signalled);
      if (probe.redactedCount === 0) {
        scan = probe;
        stages = [openRaw(entry)];
      } else {
        // The second pass must find exactly what the first did, so it starts from the secrets known before it.
        const found = ctx.literals;
        ctx.literals = before;
        scan = scanner(ctx, entry, true);
        stages = [entry.open(), scan, recompress(entry.compressed)];
        scan.on('end', () => {
          for (const [k, v] of found) ctx.literals.set(k, v);
        });
      }
    }
    const stored = entry.compressed !== null || level === 0;
    const { size, sha256 } = await writeEntry(entry, stages, stored ? 0 : level);
    const findings = scan?.findings ?? [];
    return { file: manifestFile(entry, format, size, sha256, findings), findings };
  };

  const record = (w: { file: ManifestFile; findings: Finding[] }) => {
    files.push(w.file);
    result.findings.push(...w.findings);
    result.files++;
    result.bytes += w.file.size;
  };

  const loader = loaderOf(source);
  const run = async (): Promise<ExportResult> => {
    progress('');
    for await (const { plan, total, release } of plans(keys, loader, jsonScanOf(options, true), options.includeChildren !== false, stop.signal)) {
      sessionsTotal = total;
      bytesTotal += plan.sources.reduce((n, e) => n + e.size, 0);
      const { prepared } = plan;
      const json = prepared.json as Buffer;
      // session.json was scanned where it was prepared; the secrets it held are looked for in the sources.
      const ctx = context?.() ?? null;
      if (ctx) for (const [literal, rule] of prepared.literals) ctx.literals.set(literal, rule);
      const jsonEntry = plan.json;
      progress(jsonEntry.path);
      record({ file: manifestFile(jsonEntry, plan.format, prepared.size, prepared.sha256, prepared.findings), findings: prepared.findings });
      // session.json goes in first: yazl deflates it (level 1, quick) while the first source is read and scanned,
      // and writes it soon. The next session is loaded (parsed in its worker) from now on, while this one's sources
      // go out; not sooner, or a loader that parses on this thread would hold two parsed sessions. Measured, 1 GB
      // CLI export: 65 -> 60 s, for a peak 27 MB higher; releasing after the first source is read: 67 s, -4 MB.
      // Already in memory, session.json takes none of the budget sources wait for.
      // Its memory goes back as soon as it is deflated (stored: written): to the worker that wrote it, for the
      // next session.json, or to the system (see `unmap`), not at the next collection.
      const released = () => (loader.recycle ? loader.recycle(json) : unmap(json));
      zip.add(jsonEntry.path, json, { mtime: new Date(), mode: 0o100644, level: Math.min(level, 1) }, false, released);
      release();
      for (const e of plan.sources) record(await writeSource(e, plan.format, ctx));
      result.refused.push(...plan.refused);
      if (ctx) for (const [literal, rule] of ctx.literals) exportSecrets.set(literal, rule);
      result.sessions.push(sessionEntry(plan));
      progress('');
    }
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
    const manifestEntry: PlannedEntry = {
      path: MANIFEST_PATH,
      kind: 'session',
      role: null,
      originalPath: null,
      mtimeMs: Date.now(),
      size: 0,
      compressed: null,
      clip: 'json',
    };
    const scannedMan = await scannedManifest(manifest, context ? { ...context(), literals: exportSecrets } : null);
    result.findings.push(...scannedMan.findings);
    await writeEntry(manifestEntry, [Readable.from([scannedMan.bytes])], level);
    await zip.finish();
    // A cancel that came while the last entries were deflated still wins: nothing is renamed into place.
    stop.signal.throwIfAborted();
    const handle = await open(tmp, 'r+');
    let size: number;
    try {
      await handle.sync();
      size = (await handle.stat()).size;
    } finally {
      await handle.close();
    }
    stop.signal.throwIfAborted();
    await rename(tmp, outPath);
    await fsyncDirectory(dirname(outPath));
    return { ...result, path: outPath, size, redaction };
  };

  try {
    return await Promise.race([run(), outError]);
  } catch (err) {
    const cancelled = options.signal?.aborted === true;
    stop.abort(cancelled ? abortError() : err);
    out.destroy();
    await new Promise<void>((resolve) => (out.closed ? resolve() : out.once('close', () => resolve())));
    await rm(tmp, { force: true });
    throw cancelled ? abortError() : err;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
