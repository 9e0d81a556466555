// Benchmark: what recognising session files by their content costs, against reading them, over 10,000 loose files of the realistic bench corpus (real record shapes, no layout around them).
import { link, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { realisticCorpus } from './realistic-corpus/corpus.ts';
import { resolveReader } from '../sources/recognize.ts';

export interface RecognitionFigures {
  files: number;
  /** Choosing each file's reader from its first 64 KB (no path claims a loose file). */
  recognizeMs: number;
  /** Reading every file with the reader chosen (what a cold index parses anyway). */
  readMs: number;
  /** Files no reader recognised (should be 0: every one is a session). */
  unrecognised: number;
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
    let t = performance.now();
    const readers = [];
    for (const f of files) readers.push(await resolveReader(f));
    const recognizeMs = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < files.length; i++) await readers[i]?.read(files[i]!);
    const readMs = performance.now() - t;
    return { files: files.length, recognizeMs, readMs, unrecognised: readers.filter((r) => !r).length, mb: corpus.bytes / 1024 ** 2 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function printRecognition(f: RecognitionFigures & { mb: number }): void {
  console.log(`\nRecognition by content (${f.files.toLocaleString()} loose files of the realistic corpus, ${f.mb.toFixed(0)} MB, no layout; one thread)`);
  console.log(`  recognise (8 KB head, 64 KB when cut)   ${f.recognizeMs.toFixed(0)} ms`);
  console.log(`  read every file with its reader           ${f.readMs.toFixed(0)} ms`);
  console.log(
    `  recognition / read: ${((100 * f.recognizeMs) / f.readMs).toFixed(1)}% (target < 5% of a cold index, which also writes the index)  unrecognised: ${f.unrecognised} (formats told only by their place)`,
  );
}
