// Benchmark: recall of the export's redaction on a planted corpus (per secret type, place and format) and on the sample corpus of every format with secrets planted, and its findings on the clean sample corpus.
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRedactionCorpus } from './redaction-corpus.ts';
import { findingsOnSamples, measureRecall, recallTable, type RecallResult } from './redaction-recall.ts';
import { measureSampleRecall, sampleRecallLines, type SampleRecall } from './redaction-samples.ts';

export interface RedactionFigures {
  seeds: number[];
  result: RecallResult;
  ms: number;
  samples: Awaited<ReturnType<typeof findingsOnSamples>>;
  sampleDirs: string[];
  /** The sample corpus (every format) with secrets planted, exported through the contract. */
  planted: SampleRecall;
  plantedMs: number;
}

const SAMPLES = join(import.meta.dirname, '..', '..', 'samples');

/** The sample corpora: every reader's fixtures (`sources/<format>/fixtures/`), and the repository's copy of the sample corpus. */
function sampleDirs(): string[] {
  const sources = join(import.meta.dirname, '..', 'sources');
  const fixtures = readdirSync(sources)
    .sort()
    .map((format) => join(sources, format, 'fixtures'));
  return [...fixtures, SAMPLES].filter((d) => existsSync(d));
}

export async function benchRedaction(seeds = [1, 2, 3, 4]): Promise<RedactionFigures> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-redaction-'));
  const t0 = performance.now();
  try {
    const all: RecallResult = { plants: [], leaked: [], outputs: 0, sessions: 0 };
    for (const seed of seeds) {
      const root = join(base, `seed-${seed}`);
      const { plants, files } = await writeRedactionCorpus(root, seed);
      const r = await measureRecall(files, plants, join(base, `seed-${seed}.zip`));
      all.plants.push(...r.plants);
      all.leaked.push(...r.leaked);
      all.outputs += r.outputs;
      all.sessions += r.sessions;
    }
    const ms = performance.now() - t0;
    const dirs = sampleDirs();
    const samples = await findingsOnSamples(dirs);
    const t1 = performance.now();
    const planted = await measureSampleRecall(SAMPLES, seeds[0]);
    return { seeds, result: all, ms, samples, sampleDirs: dirs, planted, plantedMs: performance.now() - t1 };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

export function printRedaction(f: RedactionFigures): void {
  const { result } = f;
  const found = result.plants.length - result.leaked.length;
  console.log(
    `\nRedaction recall — ${result.plants.length} planted secrets (seeds ${f.seeds.join(', ')}) in ${result.sessions} sessions, exported as bundles + Markdown + HTML (${result.outputs} outputs), ${(f.ms / 1000).toFixed(1)} s`,
  );
  console.log(`  found ${found}/${result.plants.length} = ${((found / result.plants.length) * 100).toFixed(2)}% (a cell with ! let a secret out)\n`);
  console.log('  By secret type and place:');
  for (const line of recallTable(
    result,
    (p) => p.type,
    (p) => p.place,
  ))
    console.log(`  ${line}`);
  console.log('\n  By secret type and format:');
  for (const line of recallTable(
    result,
    (p) => p.type,
    (p) => p.format,
  ))
    console.log(`  ${line}`);
  for (const l of result.leaked.slice(0, 20)) console.log(`  missed: ${l.plant.type} in ${l.plant.place} (${l.plant.format}), found in ${l.where}`);
  const s = f.samples;
  const total = [...s.byRule.values()].reduce((a, b) => a + b, 0);
  console.log(
    `\n  False positives on the sample corpus (${s.files} files, ${(s.bytes / 1024 / 1024).toFixed(1)} MB: ${f.sampleDirs.join(', ')}): ${total} findings, ${((total / Math.max(s.bytes, 1)) * 1024 * 1024).toFixed(2)} per MB`,
  );
  for (const [rule, n] of [...s.byRule].sort((a, b) => b[1] - a[1])) console.log(`    ${rule.padEnd(28)} ${n}`);
  for (const e of s.examples.slice(0, 15)) console.log(`    e.g. ${e}`);
  const p = f.planted;
  const plantedFound = p.plants.length - p.leaked.length;
  console.log(
    `\n  Every format: ${p.planted} secrets planted into the sample corpus (${p.files} files: after every prose string, SQLite text value and Markdown line), ${p.plants.length} of them in what an export carries (found in the unredacted bundle); ${p.sessions} sessions exported as one bundle + Markdown + HTML each (${p.outputs} outputs; ${p.unreadable} unreadable sessions left out), ${(f.plantedMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `  found ${plantedFound}/${p.plants.length} = ${((plantedFound / Math.max(p.plants.length, 1)) * 100).toFixed(2)}% (a line with ! let a secret out)`,
  );
  for (const line of sampleRecallLines(p)) console.log(line ? `    ${line}` : '');
  for (const l of p.leaked.slice(0, 20)) console.log(`    missed: ${l.plant.type} in ${l.plant.format}, found in ${l.where}`);
}
