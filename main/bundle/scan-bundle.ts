// What an export and its review share: sessions loaded in order (the next one while this one streams), one scan context per session, and the review scan.
import { pipeline } from 'node:stream/promises';
import { Transform, Writable } from 'node:stream';
import type { BundleRefusedFile } from '../../shared/bundle-api.ts';
import type { Session } from '../../shared/session.ts';
import { GAP_RULE_NAMES } from '../recorder/redact.ts';
import { planSession, scanner, type SessionPlan } from './bundle-entries.ts';
import type { Finding } from './finding.ts';
import type { ManifestSession, RedactionReport } from './manifest.ts';
import { inThreadLoader, scanContext, type JsonScan, type SessionLoader } from './prepare-session.ts';
import type { ScanContext } from './secret-scan.ts';

/** A parsed session by key (prepared for the bundle on this thread). */
export type LoadSession = (key: string) => Promise<Session>;
/** Where a bundle's sessions come from: parsed sessions, or a loader that prepares each where it is parsed (a worker). */
export type SessionSource = LoadSession | SessionLoader;

export function loaderOf(source: SessionSource): SessionLoader {
  return typeof source === 'function' ? inThreadLoader(source) : source;
}

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
  /** zlib level for the sources (default 6, as `zip -6`); session.json is deflated at level 1 (0 stores everything). */
  compressionLevel?: number;
  /** Sources up to this many bytes are read whole and deflated beside each other (default 32 MB); larger ones stream. */
  wholeFileMax?: number;
}

export interface BundleProgress {
  /** scan: the review's dry run (nothing written yet); write: the export itself (scanned as it is written). */
  phase: 'scan' | 'write';
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
  /** Files the sessions name that were left out, never read (outside every root, or outside the session's own folder). */
  refused: BundleRefusedFile[];
}

export interface ExportResult extends ScanResult {
  path: string;
  /** Size of the written zip. */
  size: number;
  redaction: RedactionReport;
}

/** What a bundle's manifest says it was scanned with: the preset, every gap rule by name, the exporter's environment values. */
export const REDACTION_RULES = ['secretlint preset-recommend', ...GAP_RULE_NAMES, 'environment values'];

export function abortError(): Error {
  const err = new Error('The export was cancelled.');
  err.name = 'AbortError';
  return err;
}

export function sessionEntry(plan: SessionPlan): ManifestSession {
  return { folder: plan.folder, format: plan.format, ...plan.manifest };
}

export interface LoadedPlan {
  plan: SessionPlan;
  /** Sessions known so far (sub-agents join as their parents are read). */
  total: number;
  /**
   * Starts preparing the next session. Called once this one's session.json is in hand, so the next session
   * parses (in its worker) while this one's sources go out; called by the loop itself if the consumer did not.
   */
  release(): void;
}

/** Prepares sessions in order, the next one as soon as the current one is released; sub-agents join the queue. */
export async function* plans(
  keys: string[],
  loader: SessionLoader,
  scan: JsonScan | null,
  includeChildren: boolean,
  signal?: AbortSignal,
): AsyncGenerator<LoadedPlan> {
  const queue = [...new Set(keys)];
  const seen = new Set(queue);
  const fetch = (key: string) => {
    const p = loader.prepare(key, scan).then(planSession);
    p.catch(() => undefined); // awaited below; a prefetch abandoned by a failure must not go unhandled
    return p;
  };
  let next: Promise<SessionPlan> | null = queue.length ? fetch(queue[0] as string) : null;
  for (let i = 0; next; i++) {
    if (signal?.aborted) throw abortError();
    // A cancel does not wait for a session still being parsed.
    const plan = await (signal ? untilAborted(next, signal) : next);
    next = null;
    if (includeChildren) {
      for (const child of plan.childKeys) {
        if (seen.has(child)) continue;
        seen.add(child);
        queue.push(child);
      }
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      next = i + 1 < queue.length ? fetch(queue[i + 1] as string) : null;
    };
    yield { plan, total: queue.length, release };
    release();
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function sink(): Writable {
  return new Writable({ write: (_chunk, _enc, done) => done() });
}

/**
 * One context per session: a secret found in a session's files is looked for in the rest of that session
 * (its session.json first, then its sources), so findings do not depend on which sessions share the export.
 */
export function contextFactory(options: BundleOptions): (() => ScanContext) | null {
  if (options.redact === false) return null;
  // The rule set and prefilter are built once and shared; the secrets found are each session's own.
  const shared = scanContext(options.env ?? process.env, options.keep ?? []);
  return () => ({ ...shared, literals: new Map() });
}

/** How session.json is scanned where it is prepared: the same rules, environment and kept findings as the sources. */
export function jsonScanOf(options: BundleOptions, emit: boolean): JsonScan | null {
  if (options.redact === false) return null;
  return { env: { ...(options.env ?? process.env) }, keep: [...(options.keep ?? [])], emit };
}

/** Finds every secret the export would redact, writing nothing (the review step); progress says how far the scan is. */
export async function scanBundle(keys: string[], source: SessionSource, options: BundleOptions = {}): Promise<ScanResult> {
  const review = { ...options, redact: true, keep: [] };
  const context = contextFactory(review) as () => ScanContext;
  const result: ScanResult = { sessions: [], files: 0, bytes: 0, findings: [], refused: [] };
  let bytesTotal = 0;
  let bytesDone = 0;
  for await (const { plan, total, release } of plans(keys, loaderOf(source), jsonScanOf(review, false), options.includeChildren !== false, options.signal)) {
    // session.json was scanned where it was prepared; its secrets are looked for in the sources.
    const ctx = context();
    for (const [literal, rule] of plan.prepared.literals) ctx.literals.set(literal, rule);
    release();
    bytesTotal += plan.sources.reduce((n, e) => n + e.size, 0);
    const progress = (file: string) =>
      options.onProgress?.({ phase: 'scan', sessionsDone: result.sessions.length, sessionsTotal: total, bytesDone, bytesTotal, file });
    progress(plan.json.path);
    result.findings.push(...plan.prepared.findings);
    result.refused.push(...plan.refused);
    result.files++;
    result.bytes += plan.json.size;
    for (const entry of plan.sources) {
      progress(entry.path);
      const scan = scanner(ctx, entry, false);
      const counted = new Transform({
        transform: (chunk: Buffer, _enc, done) => {
          bytesDone += chunk.length;
          progress(entry.path);
          done(null, chunk);
        },
      });
      await pipeline(entry.open(), counted, scan, sink(), ...(options.signal ? [{ signal: options.signal }] : []));
      result.findings.push(...scan.findings);
      result.files++;
      result.bytes += entry.size;
    }
    result.sessions.push(sessionEntry(plan));
  }
  options.onProgress?.({ phase: 'scan', sessionsDone: result.sessions.length, sessionsTotal: result.sessions.length, bytesDone, bytesTotal, file: '' });
  return result;
}
