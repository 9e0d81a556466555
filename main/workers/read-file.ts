// Reads one session file with the reader that claims it, turning every failure into an Unreadable reason.
import { OPENED_MAX_SOURCE_BYTES } from '../env/tuning.ts';
import { stat } from 'node:fs/promises';
import type { Session } from '../../shared/session.ts';
import { toSummary } from '../../shared/summarize.ts';
import { prepareSession, scanContext, type ShareSpec } from '../bundle/prepare-session.ts';
import { StoreShelf } from '../bundle/session-json.ts';
import { compareInWorker } from '../compare/compare-in-worker.ts';
import { extractPackedIndexText } from '../search-index/index-text.ts';
import { usageFacts } from '../search-index/usage-facts.ts';
import { resolveReader } from '../sources/recognize.ts';
import { findReader } from '../sources/registry.ts';
import { UnreadableError } from '../sources/types.ts';
import { holdStoresOpen } from '../sources/sqlite-file.ts';
import { containedRef } from '../catalogue/contained-sessions.ts';
import { isRowsDocumentPath } from '../catalogue/rows-document.ts';
import { containedRowsDocument, listContained, readContained, readRowsDocument, storeFingerprint } from './contained-read.ts';
import { preparedContained } from './contained-bundle.ts';
import { preparePushHere } from '../team/push-worker.ts';
import { summarizeContained } from './contained-summaries.ts';
import { pageTableWork, windowFromTable } from '../library/paged-sessions.ts';
import { parseBytes } from '../sources/compressed.ts';
import type { ReadFailure, ReadRequest, ReadResponse } from './read-protocol.ts';

/**
 * A scan reads a store's sessions one after another: the worker keeps each store's read-only connection open
 * between them, closed once idle for a second. 1,000 OpenCode sessions read in a row: 1.0 s -> 0.3 s.
 */
holdStoresOpen(1000);

/** Sessions opened recently in this worker, so scrolling further into one never parses it again. */
const opened = new Map<string, Session>();
const OPENED_MAX = 3;

/** What a parsed session's files come to (a compressed rollout: what it decompresses to, about). */
function sourceBytes(session: Session): number {
  return session.sourceFiles.reduce((n, f) => n + parseBytes(f.path, f.size), 0);
}

/** A parsed session is current while every file it was built from (transcripts, indexes too) is unchanged. */
async function stillCurrent(session: Session): Promise<boolean> {
  const checks = await Promise.all(
    session.sourceFiles.map(async (f) => {
      try {
        const s = await stat(f.path);
        return s.size === f.size && s.mtimeMs === f.mtimeMs;
      } catch {
        return false;
      }
    }),
  );
  return checks.every(Boolean);
}

/** A failure as a listed reason: an UnreadableError's own, or a reader bug's text (it must not take the app down). */
function failure(id: number, format: ReadFailure['format'], err: unknown): ReadFailure {
  if (err instanceof UnreadableError) return { id, ok: false, format, unreadable: err.toShape() };
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { id, ok: false, format, unreadable: { code: 'wrong_shape', message: `Could not parse: ${message}` } };
}

async function parse(id: number, path: string): Promise<Session | ReadFailure> {
  // A session inside a store (`<store>#<id>`), or a kept copy's rows document of one (contained-read.ts).
  const contained = path.includes('#') ? containedRef(path) : null;
  if (contained) return readContained(path).catch((err: unknown) => failure(id, contained.reader.format, err));
  if (isRowsDocumentPath(path)) return readRowsDocument(path).catch((err: unknown) => failure(id, 'vault', err));
  const reader = await resolveReader(path);
  if (!reader) {
    return { id, ok: false, format: null, unreadable: { code: 'wrong_shape', message: 'No reader recognises this file.' } };
  }
  try {
    return await reader.read(path);
  } catch (err) {
    return failure(id, reader.format, err);
  }
}

/** What each cached session's files looked like when it was parsed, for those `stillCurrent` cannot judge by them (a store's WAL). */
const fingerprints = new Map<string, string>();

async function openCached(id: number, path: string): Promise<Session | ReadFailure> {
  const hit = opened.get(path);
  opened.delete(path);
  // A store's writes land in its WAL first: a contained session is current while the store and its WAL are unchanged.
  const fingerprint = path.includes('#') && containedRef(path) ? await storeFingerprint(path) : null;
  if (hit && (fingerprint === null ? await stillCurrent(hit) : fingerprints.get(path) === fingerprint)) {
    opened.set(path, hit); // most recently used last
    return hit;
  }
  const result = await parse(id, path);
  if ('key' in result) {
    opened.set(path, result);
    if (fingerprint !== null) fingerprints.set(path, fingerprint);
    let bytes = [...opened.values()].reduce((n, s) => n + sourceBytes(s), 0);
    while (opened.size > 1 && (opened.size > OPENED_MAX || bytes > OPENED_MAX_SOURCE_BYTES)) {
      const oldest = opened.keys().next().value as string;
      bytes -= sourceBytes(opened.get(oldest) as Session);
      opened.delete(oldest);
      fingerprints.delete(oldest);
    }
  }
  return result;
}

/**
 * session.json stores this worker wrote and the main thread moved back once written: the next bundle session
 * is written into one. One is enough (sessions go one at a time). 1 GB CLI export, 2 cores: 52.9 -> 47.3 s
 * (mean of 3 runs each; 10 s less CPU), peak RSS 322-327 -> 350-362 MB.
 */
const shelf = new StoreShelf();

export function recycleStore(store: ArrayBuffer): void {
  shelf.give(store);
}

/** Work to do once the current answer has been posted (a big session's page table). */
let deferred: (() => Promise<void>) | null = null;
/** That work, one piece after another. */
let background: Promise<void> = Promise.resolve();

/**
 * Starts the work the last request left for after its answer, behind any still running; resolves when it is done.
 * It reads a page at a time, so requests that come meanwhile are answered between pages; a failure leaves the
 * session without a table.
 */
export function runDeferredWork(): Promise<void> {
  const work = deferred;
  deferred = null;
  if (work) background = background.then(work).catch(() => undefined);
  return background;
}

export async function readSessionFile(request: ReadRequest): Promise<ReadResponse> {
  const { id, path } = request;
  if (request.mode === 'compare') return compareInWorker(request, openCached);
  // A scan's batch of a store's sessions: one task, one read of the store, one message back (container-sync.ts).
  if (request.mode === 'summaries') return summarizeContained(request, failure);
  if (request.mode === 'list') {
    try {
      return { id, ok: true, ...(await listContained(path)) };
    } catch (err) {
      return failure(id, findReader(path)?.format ?? null, err);
    }
  }
  if (request.mode === 'rows') {
    try {
      return { id, ok: true, ...(await containedRowsDocument(path)) };
    } catch (err) {
      return failure(id, containedRef(path)?.reader.format ?? null, err);
    }
  }
  if (request.mode === 'window') {
    const { paging } = request;
    // A big session not parsed here yet is read through its page table (written after an earlier full read).
    if (paging && !opened.has(path)) {
      const paged = await windowFromTable(paging, path, request.offset, request.limit).catch(() => null);
      if (paged) return { id, ok: true, ...paged };
    }
    const result = await openCached(id, path);
    if (!('key' in result)) return result;
    if (paging) deferred = pageTableWork(paging, path, result);
    const messages = result.messages.slice(request.offset, request.offset + request.limit);
    return { id, ok: true, session: { ...result, messages }, messagesTotal: result.messages.length };
  }
  if (request.mode === 'bundle' || request.mode === 'push') {
    const parsed = await parse(id, path);
    if (!('key' in parsed)) return parsed;
    // The same session the main thread's full read gives once the catalogue's key and children are applied.
    const session = {
      ...parsed,
      key: request.key,
      childKeys: [...new Set([...parsed.childKeys, ...request.childKeys])],
      // A summary someone wrote in the vault goes with the session (the importing vault shows it).
      summary: request.summary ?? parsed.summary,
    };
    if (request.mode === 'push') {
      // A team push's session (team/push-worker.ts): prepared as below, then made ready to send here.
      const { scan } = request;
      const prepare = (share: ShareSpec | undefined) => {
        const ctx = scanContext(scan.env, scan.keep);
        const contained = path.includes('#') && containedRef(path);
        return contained ? preparedContained(session, path, ctx, true, shelf, share) : prepareSession(session, ctx, true, shelf, share);
      };
      const letGo = (json: Buffer) => shelf.give(json.buffer as ArrayBuffer);
      return { id, ok: true, ready: await preparePushHere(request.key, prepare, scan, request.spec, request.gate, letGo) };
    }
    const { scan } = request;
    const ctx = scan ? scanContext(scan.env, scan.keep) : null;
    // A session inside a store goes with its own rows, never the store (contained-bundle.ts).
    if (path.includes('#') && containedRef(path)) {
      try {
        return { id, ok: true, prepared: await preparedContained(session, path, ctx, scan?.emit ?? true, shelf, request.share) };
      } catch (err) {
        return failure(id, session.format, err);
      }
    }
    return { id, ok: true, prepared: await prepareSession(session, ctx, scan?.emit ?? true, shelf, request.share) };
  }
  const result = request.mode === 'summary' && request.keep ? await openCached(id, path) : await parse(id, path);
  if (!('key' in result)) return result;
  if (request.mode === 'full') return { id, ok: true, session: result };
  const companions = result.sourceFiles.filter((f) => f.role !== 'primary' && f.path !== path).map((f) => f.path);
  // A command that only lists leaves the index text (about a quarter of a cold list's CPU) to a later scan that reads it.
  if (request.mode === 'summary' && request.textLater)
    return { id, ok: true, summary: toSummary(result), companions, usage: usageFacts(result), textLater: true };
  return { id, ok: true, summary: toSummary(result), companions, text: extractPackedIndexText(result), usage: usageFacts(result) };
}
