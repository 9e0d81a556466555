// What an export and its review share: sessions loaded in order (the next one while this one streams), one scan context per session, and the review scan.
import { pipeline } from 'node:stream/promises';
import { Transform, Writable } from 'node:stream';
import type { Session } from '../../shared/session.ts';
import { Redactor } from '../store/redact.ts';
import { planSession, scanner, type PlannedEntry, type SessionPlan } from './bundle-entries.ts';
import type { Finding } from './finding.ts';
import type { ManifestSession, RedactionReport } from './manifest.ts';
import { prefilterFor } from './secret-prefilter.ts';
import type { ScanContext } from './secret-scan.ts';

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
  /** zlib level for the sources (default 6, as `zip -6`); session.json is deflated at level 1 (0 stores everything). */
  compressionLevel?: number;
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
}

export interface ExportResult extends ScanResult {
  path: string;
  /** Size of the written zip. */
  size: number;
  redaction: RedactionReport;
}

export const REDACTION_RULES = ['secretlint preset-recommend', 'private-key', 'jwt', 'environment values'];

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
   * Drops this session's parsed copy and starts loading the next one. Called once session.json is out, so
   * the next session parses (in its worker) while this one's sources stream, and at most one parsed session
   * is held here at a time; called by the loop itself if the consumer did not.
   */
  release(): void;
}

/** Loads sessions in order, the next one as soon as the current one's parsed copy is released; sub-agents join the queue. */
export async function* plans(keys: string[], load: LoadSession, includeChildren: boolean, signal?: AbortSignal): AsyncGenerator<LoadedPlan> {
  const queue = [...new Set(keys)];
  const seen = new Set(queue);
  const fetch = (key: string) => {
    const p = load(key).then(planSession);
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
      plan.session = null;
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
  const redactor = new Redactor(['secrets', 'env'], options.env ?? process.env);
  const prefilter = prefilterFor(options.env ?? process.env);
  const keep = new Set(options.keep ?? []);
  return () => ({ redactor, literals: new Map(), keep, prefilter });
}

/** session.json first, then the sources: the order findings are made in, in a review and in the export alike. */
function scanOrder(plan: SessionPlan): PlannedEntry[] {
  return [...plan.entries.filter((e) => e.kind === 'session'), ...plan.entries.filter((e) => e.kind === 'source')];
}

/** Finds every secret the export would redact, writing nothing (the review step); progress says how far the scan is. */
export async function scanBundle(keys: string[], load: LoadSession, options: BundleOptions = {}): Promise<ScanResult> {
  const context = contextFactory({ ...options, redact: true, keep: [] }) as () => ScanContext;
  const result: ScanResult = { sessions: [], files: 0, bytes: 0, findings: [] };
  let bytesTotal = 0;
  let bytesDone = 0;
  for await (const { plan, total, release } of plans(keys, load, options.includeChildren !== false, options.signal)) {
    const ctx = context();
    bytesTotal += plan.entries.reduce((n, e) => n + e.size, 0);
    const progress = (file: string) => options.onProgress?.({ phase: 'scan', sessionsDone: result.sessions.length, sessionsTotal: total, bytesDone, bytesTotal, file });
    for (const entry of scanOrder(plan)) {
      progress(entry.path);
      const scan = scanner(ctx, entry, false);
      const counted = new Transform({
        transform: (chunk: Buffer, _enc, done) => {
          if (entry.kind === 'source') bytesDone += chunk.length;
          progress(entry.path);
          done(null, chunk);
        },
      });
      await pipeline(entry.open(), counted, scan, sink(), ...(options.signal ? [{ signal: options.signal }] : []));
      if (entry.kind === 'session') release();
      result.findings.push(...scan.findings);
      result.files++;
      result.bytes += entry.size;
    }
    result.sessions.push(sessionEntry(plan));
  }
  options.onProgress?.({ phase: 'scan', sessionsDone: result.sessions.length, sessionsTotal: result.sessions.length, bytesDone, bytesTotal, file: '' });
  return result;
}
