// What an export and its review share: sessions loaded in order (one ahead), one scan context per session, and the review scan.
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import type { Session } from '../../shared/session.ts';
import { Redactor } from '../store/redact.ts';
import { planSession, scanner, type PlannedEntry, type SessionPlan } from './bundle-entries.ts';
import type { Finding } from './finding.ts';
import type { ManifestSession, RedactionReport } from './manifest.ts';
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

export function abortError(): Error {
  const err = new Error('The export was cancelled.');
  err.name = 'AbortError';
  return err;
}

export function sessionEntry(plan: SessionPlan): ManifestSession {
  return { folder: plan.folder, format: plan.format, ...plan.manifest };
}

/**
 * Loads sessions in order, one ahead of the consumer, and runs `prepare` on each as soon as it is loaded
 * (building the next session.json while this session's files stream); sub-agents join the queue.
 */
export async function* plans<T>(
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
