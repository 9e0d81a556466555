// Benchmark: what recognising session files by their content costs, against reading them and against the app's cold index of them, over 10,000 loose files of the realistic bench corpus (real record shapes, no layout around them).
import { execFile } from 'node:child_process';
import { link, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { realisticCorpus } from './realistic-corpus/corpus.ts';
import type { ColdFigures } from './search-cold.ts';
import { readers as allReaders } from '../sources/registry.ts';

const run = promisify(execFile);

export interface RecognitionFigures {
  files: number;
  /** Choosing each file's reader from its first 8 KB (64 KB when cut; no path claims a loose file) on a worker thread, as the scan does: wall and CPU time. */
  recognizeMs: number;
  recognizeCpuMs: number;
  /** Reading every file with the reader chosen (what a cold index parses anyway). */
  readMs: number;
  /** The app's first scan of the loose folder in a fresh process, until every file is searchable (it recognises each file too). */
  cold: ColdFigures;
  /** Files no reader recognised (should be 0: every one is a session). */
  unrecognised: number;
}

/** Recognition of every file on one worker thread (recognition-worker.ts). */
function recogniseOnWorker(files: string[]): Promise<{ ms: number; cpuMs: number; formats: Array<string | null> }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./recognition-worker.ts', import.meta.url), { workerData: files });
    worker.once('message', (m) => void worker.terminate().then(() => resolve(m)));
    worker.once('error', reject);
  });
}

export async function benchRecognition(count = 10_000, sizeMb = 500): Promise<RecognitionFigures & { mb: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'sv-bench-recognition-'));
  try {
    const corpus = await realisticCorpus(join(dir, 'corpus'), { sizeMb, sessions: count });
    // Downloads-style names, no layout around them: only their content can say what each file is.
    const loose = join(dir, 'loose');
    await mkdir(loose);
    const files: string[] = [];
    for (const [i, f] of corpus.files.entries()) {
      const to = join(loose, `export ${i}${f.path.endsWith('.jsonl') ? '.jsonl' : '.json'}`);
      await link(f.path, to);
      files.push(to);
    }
    const recognised = await recogniseOnWorker(files);
    const readers = recognised.formats.map((format) => allReaders.find((r) => r.format === format));
    const t = performance.now();
    for (let i = 0; i < files.length; i++) await readers[i]?.read(files[i]!);
    const readMs = performance.now() - t;
    const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'search-cold.ts'), join(dir, 'data'), loose], { maxBuffer: 1 << 20 });
    const cold = JSON.parse(stdout) as ColdFigures;
    return {
      files: files.length,
      recognizeMs: recognised.ms,
      recognizeCpuMs: recognised.cpuMs,
      readMs,
      cold,
      unrecognised: readers.filter((r) => !r).length,
      mb: corpus.bytes / 1024 ** 2,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function printRecognition(f: RecognitionFigures & { mb: number }): void {
  const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
  console.log(
    `\nRecognition by content (${f.files.toLocaleString()} loose files of the realistic corpus, ${f.mb.toFixed(0)} MB, no layout; one worker thread, as the scan)`,
  );
  console.log(`  recognise (8 KB head, 64 KB when cut)   ${f.recognizeMs.toFixed(0)} ms wall, ${f.recognizeCpuMs.toFixed(0)} ms CPU`);
  console.log(`  read every file with its reader           ${f.readMs.toFixed(0)} ms`);
  console.log(
    `  cold index of the folder (fresh process)  ${f.cold.searchableMs.toFixed(0)} ms wall until searchable, ${f.cold.cpuMs.toFixed(0)} ms CPU (every thread)`,
  );
  console.log(
    `  recognition / cold index: ${pct(f.recognizeCpuMs, f.cold.cpuMs)} of its CPU, ${pct(f.recognizeMs, f.cold.searchableMs)} of its wall time (target < 5%); recognition / read: ${pct(f.recognizeMs, f.readMs)}; unrecognised: ${f.unrecognised} (formats told only by their place)`,
  );
}
