// Writes a bundle: sessions streamed into a zip (yazl) one file at a time, scanned and redacted on the way, manifest last, temp file then rename.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Session } from '../../shared/session.ts';
import { fsyncDirectory } from '../fs/atomic-write.ts';
import { appVersion } from '../version.ts';
import { MANIFEST_PATH } from './bundle-paths.ts';
import { openRaw, regzip, scanner, type PlannedEntry } from './bundle-entries.ts';
import type { Finding } from './finding.ts';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, type Manifest, type ManifestFile, type RedactionReport } from './manifest.ts';
import { abortError, contextFactory, plans, REDACTION_RULES, sessionEntry, sink, type BundleOptions, type ExportResult, type LoadSession, type ScanResult } from './scan-bundle.ts';
import type { ScanContext, SecretScanStream } from './secret-scan.ts';
import { ZipWriter } from './zip-writer.ts';

export { scanBundle, type BundleOptions, type BundleProgress, type ExportResult, type LoadSession, type ScanResult } from './scan-bundle.ts';

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
const pipeAll = pipeline as unknown as (streams: ReadonlyArray<Readable | Duplex | ((source: AsyncIterable<Buffer>) => Promise<void>)>, options: { signal: AbortSignal }) => Promise<void>;

/**
 * Exports sessions as a bundle at `outPath`. The zip is written to a hidden temp file beside it and renamed
 * over `outPath` only when whole and synced; a failure or cancel removes the temp file and leaves `outPath` as it was.
 *
 * Memory stays flat however large the selection: one session is parsed at a time (the next one parses in
 * its worker while this one's sources stream), session.json is serialized message by message, every file
 * streams through the scanner chunk by chunk into yazl, which deflates it (on libuv's thread pool) and waits
 * for the file to take each piece.
 */
export async function exportBundle(keys: string[], load: LoadSession, outPath: string, options: BundleOptions = {}): Promise<ExportResult> {
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
  const zip = new ZipWriter(out, stop.signal);

  const result: ScanResult = { sessions: [], files: 0, bytes: 0, findings: [] };
  const files: ManifestFile[] = [];
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
    const counts = entry.kind === 'source' && !entry.gzip;
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
    if (entry.gzip) bytesDone += entry.size;
    return { size, sha256: hash.digest('hex') };
  };

  /** session.json, serialized message by message from the parsed session (scanned, redacted). */
  const writeSessionJson = async (entry: PlannedEntry, format: Session['format'], ctx: ScanContext | null) => {
    progress(entry.path);
    const scan = ctx ? scanner(ctx, entry, true) : null;
    const stages: Array<Readable | Duplex> = [entry.open(), ...(scan ? [scan] : [])];
    const { size, sha256 } = await writeEntry(entry, stages, Math.min(level, 1));
    const findings = scan?.findings ?? [];
    return { file: manifestFile(entry, format, size, sha256, findings), findings };
  };

  /** A source file; a gzip source is scanned first and stored byte-for-byte when clean, recompressed only when redacted. */
  const writeSource = async (entry: PlannedEntry, format: Session['format'], ctx: ScanContext | null) => {
    progress(entry.path);
    let stages: Array<Readable | Duplex>;
    let scan: SecretScanStream | null = null;
    if (!ctx) stages = [entry.gzip ? openRaw(entry) : entry.open()];
    else if (!entry.gzip) {
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
        stages = [entry.open(), scan, regzip()];
        scan.on('end', () => {
          for (const [k, v] of found) ctx.literals.set(k, v);
        });
      }
    }
    const stored = entry.gzip || level === 0;
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

  const run = async (): Promise<ExportResult> => {
    progress('');
    for await (const { plan, total, release } of plans(keys, load, options.includeChildren !== false, stop.signal)) {
      sessionsTotal = total;
      bytesTotal += plan.entries.reduce((n, e) => n + e.size, 0);
      const ctx = context?.() ?? null;
      const jsonEntry = plan.entries.find((e) => e.kind === 'session') as PlannedEntry;
      record(await writeSessionJson(jsonEntry, plan.format, ctx));
      release();
      for (const e of plan.entries) if (e.kind === 'source') record(await writeSource(e, plan.format, ctx));
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
      gzip: false,
      clip: 'json',
      open: () => Readable.from([Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)]),
    };
    await writeEntry(manifestEntry, [manifestEntry.open()], level);
    await zip.finish();
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
