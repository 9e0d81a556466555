// Benchmark: the first scan of an OpenCode store of 10,000 sessions (one SQLite file, each session listed and indexed on its own) against the store's read+parse floor.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { generateOpenCodeStore, type OpenCodeStore } from './opencode-store.ts';
import type { OpenCodeRecall } from './opencode-recall.ts';
import { replayWriter, type WriterPhases } from './opencode-writer.ts';
import type { FloorFigures } from './read-parse-floor.ts';
import type { ColdFigures } from './search-cold.ts';

const run = promisify(execFile);

export interface OpenCodeFigures {
  store: OpenCodeStore;
  generateMs: number;
  /** `start`: the same first scan of a store of START_SESSIONS sessions: what any first scan costs before its sessions (a process, its threads, the index). */
  runs: Array<{ floor: FloorFigures; cold: ColdFigures; start: ColdFigures }>;
  /** The writer thread's work replayed on one thread after the runs, with a floor measured beside it. */
  writer: { phases: WriterPhases; floor: FloorFigures };
  /** After the last run's first scan: sampled sessions found by a phrase of their last answer. */
  recall: OpenCodeRecall;
}

/** Sessions the recall check searches for, spread over the store. */
const RECALL_SESSIONS = 50;

/** Sessions of the store whose first scan measures the fixed start: enough to start every thread a big scan starts. */
const START_SESSIONS = 10;

/**
 * The floor for a store: every row of every session read and its JSON parsed, in one pass per table on one thread
 * (what no reader of the store can do faster); the app reads each session on its own and indexes it besides.
 */
export function storeFloor(path: string): FloorFigures {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    for (const row of db.prepare('SELECT * FROM session').iterate()) void row;
    for (const table of ['message', 'part']) {
      const rows = db.prepare(`SELECT id, session_id, time_created, data FROM ${table}`);
      rows.setReturnArrays(true);
      for (const [, , , data] of rows.iterate() as Iterable<[string, string, number, string]>) JSON.parse(data);
    }
  } finally {
    db.close();
  }
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Sessions of the store the index holds, readable. */
function indexedSessions(indexFile: string): number {
  const db = new DatabaseSync(indexFile, { readOnly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM files WHERE key LIKE 'opencode:%' AND readable = 1").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The app's first scan of `store` in a fresh process (as search.ts runs it), checked to have indexed every session. */
async function firstScan(base: string, store: OpenCodeStore): Promise<ColdFigures> {
  const dataDir = join(base, 'data');
  await rm(dataDir, { recursive: true, force: true });
  const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'search-cold.ts'), dataDir, store.root], { maxBuffer: 1 << 20 });
  // A figure counts only if the scan indexed every session of the store (a broken build lists none, quickly).
  const indexed = indexedSessions(join(dataDir, 'index.sqlite'));
  if (indexed !== store.sessions) throw new Error(`The first scan indexed ${indexed} of the store's ${store.sessions} sessions.`);
  return JSON.parse(stdout) as ColdFigures;
}

/** The index the last first scan left, searched (in a process of its own) for a phrase of each sampled session's last answer. */
async function recallAfterScan(base: string, store: OpenCodeStore): Promise<OpenCodeRecall> {
  const args = [join(import.meta.dirname, 'opencode-recall.ts'), join(base, 'data'), store.root, store.path, String(RECALL_SESSIONS)];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as OpenCodeRecall;
}

/** `runs` floors and first scans, in turn (a busy minute falls on both alike), each beside the first scan of a small store. */
export async function benchOpenCode(sessions: number, runs: number): Promise<OpenCodeFigures> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-opencode-'));
  try {
    const g0 = performance.now();
    const store = await generateOpenCodeStore(base, sessions);
    const generateMs = performance.now() - g0;
    const small = await generateOpenCodeStore(join(base, 'small'), START_SESSIONS);
    const measured: OpenCodeFigures['runs'] = [];
    let recall: OpenCodeRecall | null = null;
    for (let r = 0; r < runs; r++) {
      const floor = storeFloor(store.path);
      const cold = await firstScan(base, store);
      if (r === runs - 1) recall = await recallAfterScan(base, store);
      measured.push({ floor, cold, start: await firstScan(base, small) });
    }
    const writerFloor = storeFloor(store.path);
    if (!recall) throw new Error('No run was measured.');
    return { store, generateMs, runs: measured, writer: { phases: await replayWriter(store.path), floor: writerFloor }, recall };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;
const r2 = (n: number) => Math.round(n * 100) / 100;
const each = (values: number[], show: (n: number) => string) => `${show(median(values))}${values.length > 1 ? ` [${values.map(show).join(', ')}]` : ''}`;

export function printOpenCode(f: OpenCodeFigures): void {
  const { store, runs } = f;
  console.log(
    `\nOpenCode store — ${store.sessions.toLocaleString('en-US')} sessions in one opencode.db (WAL), ${Math.round(store.bytes / 1024 / 1024)} MB (generated in ${Math.round(f.generateMs)} ms); ${runs.length} run${runs.length === 1 ? '' : 's'}, medians [each run]`,
  );
  console.log(
    `  floor (every row read, its JSON parsed, one thread): ${each(
      runs.map((r) => r.floor.ms),
      (n) => `${Math.round(n)} ms`,
    )}, CPU ${each(
      runs.map((r) => r.floor.cpuMs),
      (n) => `${Math.round(n)} ms`,
    )}`,
  );
  console.log(
    `  first scan, every session listed:                   ${each(
      runs.map((r) => r.cold.listedMs),
      (n) => `${Math.round(n)} ms`,
    )}; / floor ${each(
      runs.map((r) => r.cold.listedMs / r.floor.ms),
      (n) => `${r2(n)}×`,
    )}`,
  );
  console.log(
    `  cold index, every session searchable:               ${each(
      runs.map((r) => r.cold.searchableMs),
      (n) => `${Math.round(n)} ms`,
    )}; / floor ${each(
      runs.map((r) => r.cold.searchableMs / r.floor.ms),
      (n) => `${r2(n)}×`,
    )} (target ≤ 2.5×)`,
  );
  // What the catch-up after the list takes (the writer thread alone, the scan over): the words of every session.
  console.log(
    `  from listed to searchable:                          ${each(
      runs.map((r) => r.cold.searchableMs - r.cold.listedMs),
      (n) => `${Math.round(n)} ms`,
    )}; / floor ${each(
      runs.map((r) => (r.cold.searchableMs - r.cold.listedMs) / r.floor.ms),
      (n) => `${r2(n)}×`,
    )}`,
  );
  // A first scan's fixed start (the process's services, its worker threads, a new index) is a larger share of a store's
  // small floor than of a gigabyte of transcripts': shown apart, and the ratio without it.
  console.log(
    `  fixed start (a ${START_SESSIONS}-session store's cold index):     ${each(
      runs.map((r) => r.start.searchableMs),
      (n) => `${Math.round(n)} ms`,
    )}, CPU ${each(
      runs.map((r) => r.start.cpuMs),
      (n) => `${Math.round(n)} ms`,
    )}; cold index without it / floor ${each(
      runs.map((r) => (r.cold.searchableMs - r.start.searchableMs) / r.floor.ms),
      (n) => `${r2(n)}×`,
    )}, its CPU / floor's ${each(
      runs.map((r) => (r.cold.cpuMs - r.start.cpuMs) / r.floor.cpuMs),
      (n) => `${r2(n)}×`,
    )}`,
  );
  console.log(
    `  CPU (every thread) / floor's:                       ${each(
      runs.map((r) => r.cold.cpuMs / r.floor.cpuMs),
      (n) => `${r2(n)}×`,
    )}; peak RSS ${each(
      runs.map((r) => r.cold.peakRssMb),
      (n) => `${Math.round(n)} MB`,
    )}`,
  );
  const { recall } = f;
  console.log(
    `  recall after the last first scan:                   ${recall.found} of ${recall.checked} sampled sessions found by a phrase of their last answer${
      recall.missed.length ? `; missed ${recall.missed.join(', ')}` : ''
    }`,
  );
  // CPU on one thread, so a busy machine changes it little: what the writer thread spends per phase, as a ratio to the
  // floor's CPU. The words are what stands between the listed and the searchable store.
  const { phases, floor } = f.writer;
  const x = (ms: number) => `${Math.round(ms)} ms (${r2(ms / floor.cpuMs)}×)`;
  console.log(
    `  writer replayed on one thread, CPU / floor's ${Math.round(floor.cpuMs)} ms: list's rows ${x(phases.listCpuMs)}, words ${x(phases.wordsCpuMs)}, identifiers ${x(phases.identsCpuMs)}, merge ${x(phases.tidyCpuMs)}, last checkpoint ${x(phases.checkpointCpuMs)} (WAL at most ${Math.round(phases.peakWalBytes / 1024 / 1024)} MB); the scan workers' reads ${x(phases.readCpuMs)}`,
  );
}
