// Benchmark: the index writer's share of an OpenCode store's cold index, replayed on one thread (CPU per phase: the list's rows, the words, the identifiers, the merge, the last checkpoint; the WAL's peak size), against the store's read+parse floor.
import { mkdtemp, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { CATCH_UP_IDENT_BYTES, CATCH_UP_STEP_BYTES, SEND_BYTES } from '../env/tuning.ts';
import { containedPath } from '../catalogue/contained-sessions.ts';
import { IndexWrites, opBytes, releaseText, type WriteOp } from '../search-index/index-write.ts';
import { IndexTidy, tidyNeeded } from '../search-index/index-tidy.ts';
import { setMergeMode } from '../search-index/merge-mode.ts';
import { openIndexDatabase } from '../search-index/open-database.ts';
import { configureWriterConnection } from '../search-index/index-writer-thread.ts';
import { closeHeldStores, holdStoresOpen } from '../sources/sqlite-file.ts';
import { summarizeContained } from '../workers/contained-summaries.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';

/** CPU milliseconds of each phase of the writer's work, on this thread alone. */
export interface WriterPhases {
  /** The scan workers' part, for scale: every session read, summarised and its index text built. */
  readCpuMs: number;
  /** The list's rows and stored text, as a scan writes them (the full text left waiting). */
  listCpuMs: number;
  /** The catch-up's words: every session searchable. */
  wordsCpuMs: number;
  /** The catch-up's identifiers: substring search complete. */
  identsCpuMs: number;
  /** The merge after the scan. */
  tidyCpuMs: number;
  /** The WAL's last frames copied into the index file when the writer is done (the checkpoint at close). */
  checkpointCpuMs: number;
  /** The WAL file's largest size seen after a batch or step, in bytes. */
  peakWalBytes: number;
}

/** Sessions a scan worker reads in one batch (container-sync.ts). */
const BATCH = 32;

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

function timed(run: () => void): number {
  const c0 = cpuMs();
  run();
  return cpuMs() - c0;
}

/** The store's sessions read as a scan worker reads them, and the writes a scan hands the writer thread for them. */
async function scanOps(storePath: string): Promise<{ ops: WriteOp[]; readCpuMs: number }> {
  const source = new DatabaseSync(storePath, { readOnly: true });
  const ids = (source.prepare('SELECT id FROM session ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);
  source.close();
  const { size, mtimeMs } = statSync(storePath);
  const ops: WriteOp[] = [];
  holdStoresOpen(1000);
  const c0 = cpuMs();
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const response = await summarizeContained({ id: 1, mode: 'summaries', path: storePath, ids: batch }, (id, format, err) => ({
      id,
      ok: false,
      format,
      unreadable: { code: 'wrong_shape', message: String(err) },
    }));
    if (!response.ok) throw new Error(`The store's sessions could not be read: ${response.unreadable.message}`);
    batch.forEach((sessionId, j) => {
      const result = response.results[j];
      if (!result) throw new Error(`Session ${sessionId} was not read.`);
      // As the catalogue hands it to the index (indexed-catalogue.ts): the text apart from the stored result.
      const stored: SummaryResponse = result.ok ? { id: 0, ok: true, summary: result.summary, companions: result.companions } : result;
      const text = result.ok ? (result.text ?? null) : null;
      const usage = result.ok ? result.usage : undefined;
      ops.push({
        kind: 'put',
        path: containedPath(storePath, sessionId),
        size,
        mtimeMs,
        key: `opencode:${sessionId}`,
        result: stored,
        text,
        ...(usage ? { usage } : {}),
      });
    });
  }
  const readCpuMs = cpuMs() - c0;
  closeHeldStores();
  return { ops, readCpuMs };
}

/**
 * Replays the writer thread's work for the store's first scan on this thread, in a fresh index: the list's batches
 * (as the index store sends them, SEND_BYTES each), the catch-up of words then identifiers, and the merge.
 */
export async function replayWriter(storePath: string): Promise<WriterPhases> {
  const { ops, readCpuMs } = await scanOps(storePath);
  const dir = await mkdtemp(join(tmpdir(), 'sv-bench-writer-'));
  try {
    const file = join(dir, 'index.sqlite');
    const { db } = openIndexDatabase(file);
    // As the writer thread opens it (index-writer-thread.ts).
    configureWriterConnection(db);
    let peakWalBytes = 0;
    const walSize = () => {
      try {
        peakWalBytes = Math.max(peakWalBytes, statSync(`${file}-wal`).size);
      } catch {
        // no WAL file yet
      }
    };
    const writes = new IndexWrites(db);
    setMergeMode(db, 'bulk');
    const listCpuMs = timed(() => {
      let batch: WriteOp[] = [];
      let bytes = 0;
      const flush = () => {
        const error = writes.applyEach(batch, { deferText: true });
        if (error) throw new Error(`A batch failed: ${error}`);
        walSize();
        releaseText(batch);
        batch = [];
        bytes = 0;
      };
      for (const op of ops) {
        batch.push(op);
        bytes += opBytes(op);
        if (bytes >= SEND_BYTES) flush();
      }
      if (batch.length) flush();
    });
    const budget = { words: CATCH_UP_STEP_BYTES, idents: CATCH_UP_IDENT_BYTES };
    const wordsCpuMs = timed(() => {
      while (writes.pendingCounts().words > 0) {
        writes.catchUp(budget);
        walSize();
      }
    });
    const identsCpuMs = timed(() => {
      while (writes.pendingCounts().idents > 0) {
        writes.catchUp(budget);
        walSize();
      }
    });
    const tidyCpuMs = timed(() => {
      const kind = tidyNeeded(db);
      if (!kind) return;
      const tidy = new IndexTidy(db, {}, kind);
      while (tidy.step()) walSize();
    });
    walSize();
    const checkpointCpuMs = timed(() => db.close());
    return { readCpuMs, listCpuMs, wordsCpuMs, identsCpuMs, tidyCpuMs, checkpointCpuMs, peakWalBytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
