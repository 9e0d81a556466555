// Benchmark: cold index vs the read+parse floor, warm start, 50 queries vs ripgrep, incremental update, RSS.
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { warmStart } from './search-warm.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { benchServices } from './bench-services.ts';
import { generateCorpus, type Corpus } from './corpus.ts';

const run = promisify(execFile);

export interface SearchFigures {
  sessions: number;
  corpusMb: number;
  generateMs: number;
  floorMs: number;
  coldIndexMs: number;
  /** CPU time of every thread during the cold index: on a shared machine it moves less than the wall time. */
  coldCpuMs: number;
  floorCpuMs: number;
  /** After the cold index: merging the full-text tables into one segment each (index-tidy.ts), searches served meanwhile. */
  tidyMs: number;
  tidyCpuMs: number;
  /** The 50 queries once each as soon as everything is searchable, while the tables are merged. */
  mergingP50Ms: number;
  mergingP95Ms: number;
  coldMbPerSec: number;
  ratioToFloor: number;
  /** Each run's cold index over the floor measured just before it. */
  runRatios: number[];
  indexFileMb: number;
  warmFirstPageMs: number;
  queryP50Ms: number;
  queryP95Ms: number;
  rgP50Ms: number | null;
  rgP95Ms: number | null;
  incrementalMs: number;
  peakRssIndexingMb: number;
  restRssMb: number;
}

const RG = '/usr/bin/rg';

/** The fixed 50 queries: words common to rare, AND, phrases, prefixes, identifier substrings, filters. */
export function fixedQueries(corpus: Corpus): Array<{ query: string; rg: string }> {
  const v = corpus.vocabulary;
  const id = corpus.identifiers;
  const w = (i: number) => v[i] as string;
  const q: Array<{ query: string; rg: string }> = [];
  for (const i of [1, 4, 9, 20, 40, 80, 150, 300, 600, 1000, 1500, 2500, 3500, 4500, 5900]) q.push({ query: w(i), rg: w(i) });
  for (const [a, b] of [
    [2, 30],
    [5, 700],
    [12, 13],
    [60, 2000],
    [100, 101],
    [3, 4000],
    [250, 900],
    [7, 8],
  ] as const)
    q.push({ query: `${w(a)} ${w(b)}`, rg: w(b) });
  for (const [a, b] of [
    [0, 1],
    [2, 3],
    [5, 6],
    [10, 11],
    [1, 20],
    [0, 40],
  ] as const)
    q.push({ query: `"${w(a)} ${w(b)}"`, rg: `${w(a)} ${w(b)}` });
  for (const i of [15, 200, 800, 2200, 3300, 5000]) q.push({ query: `${w(i).slice(0, 4)}*`, rg: w(i).slice(0, 4) });
  for (const i of [0, 3, 10, 50, 200, 700, 1500, 2900]) {
    const ident = id[i] as string;
    q.push({ query: ident.slice(3, 14), rg: ident.slice(3, 14) });
  }
  q.push({ query: `source:codex ${w(30)}`, rg: w(30) });
  q.push({ query: `branch:main ${w(45)}`, rg: w(45) });
  q.push({ query: `model:claude ${w(90)}`, rg: w(90) });
  q.push({ query: `after:2025-06-01 ${w(120)}`, rg: w(120) });
  q.push({ query: `project:${w(14)} ${w(2)}`, rg: w(2) });
  q.push({ query: `tokens>5000 ${w(33)}`, rg: w(33) });
  q.push({ query: 'outcome:accepted sort:date', rg: 'accepted' });
  return q;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

async function floor(corpus: Corpus): Promise<number> {
  const t0 = performance.now();
  for (const f of corpus.files) {
    let buf = await readFile(f.path);
    if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
    const text = buf.toString('utf8');
    if (f.path.endsWith('.jsonl')) {
      for (const line of text.split('\n')) if (line) JSON.parse(line);
    } else JSON.parse(text);
  }
  return performance.now() - t0;
}

interface ColdFigures {
  coldIndexMs: number;
  cpuMs: number;
  tidyMs: number;
  tidyCpuMs: number;
  /** Each of the queries once, as soon as the cold index is searchable (the merge running), in ms. */
  mergingQueryMs: number[];
  peakRssMb: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** `runs`: how many times the floor and the cold index are measured, in turn. */
export async function benchSearch(sessions: number, withRg = true, runs = 1): Promise<SearchFigures> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-search-'));
  const root = join(base, 'root');
  const dataDir = join(base, 'data');
  try {
    let t0 = performance.now();
    const corpus = await generateCorpus(root, sessions);
    const generateMs = performance.now() - t0;
    const queries = fixedQueries(corpus);
    const queryFile = join(base, 'queries.json');
    await writeFile(queryFile, JSON.stringify(queries.map((q) => q.query)));
    // The floor and the cold index, `runs` times in turn (this machine's speed moves by ±20% from one minute to the
    // next): the figures are each one's median, and every run's ratio is printed. The last index is kept.
    const pairs: Array<{ floorMs: number; floorCpuMs: number; cold: ColdFigures }> = [];
    for (let r = 0; r < runs; r++) {
      const floorCpu0 = process.cpuUsage();
      const floorMs = await floor(corpus);
      const floorCpu = process.cpuUsage(floorCpu0);
      // Cold index: a fresh data dir, every file read in the scan workers and written to the index, in a fresh
      // process so the peak RSS is the app's (this process still holds what generating the corpus left behind).
      await rm(dataDir, { recursive: true, force: true });
      const cold = await run(process.execPath, [join(import.meta.dirname, 'search-cold.ts'), dataDir, root, queryFile], { maxBuffer: 1 << 20 });
      pairs.push({ floorMs, floorCpuMs: (floorCpu.user + floorCpu.system) / 1000, cold: JSON.parse(cold.stdout) as ColdFigures });
    }
    const floorMs = median(pairs.map((p) => p.floorMs));
    const coldFigures: ColdFigures = {
      coldIndexMs: median(pairs.map((p) => p.cold.coldIndexMs)),
      cpuMs: median(pairs.map((p) => p.cold.cpuMs)),
      tidyMs: median(pairs.map((p) => p.cold.tidyMs)),
      tidyCpuMs: median(pairs.map((p) => p.cold.tidyCpuMs)),
      mergingQueryMs: pairs.flatMap((p) => p.cold.mergingQueryMs),
      peakRssMb: Math.max(...pairs.map((p) => p.cold.peakRssMb)),
    };
    const coldIndexMs = coldFigures.coldIndexMs;
    const floorCpuMs = median(pairs.map((p) => p.floorCpuMs));
    const indexFileMb =
      (await stat(join(dataDir, 'index.sqlite')).then(
        (s) => s.size,
        () => 0,
      )) /
      1024 /
      1024;

    // Warm start: the built `serve`, index already built, until the list's first page arrives.
    const warmFigures = await warmStart(dataDir, root);

    // Queries, warm, in this process.
    const services = benchServices({ dataDir, shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: true });
    await services.start();
    await services.whenScanned();
    for (const { query } of queries.slice(0, 5)) await services.client.searchSessions({ query, limit: 20, offset: 0 });
    const times: number[] = [];
    for (const { query } of queries) {
      const q0 = performance.now();
      await services.client.searchSessions({ query, limit: 20, offset: 0 });
      times.push(performance.now() - q0);
    }
    let rgTimes: number[] | null = null;
    if (withRg) {
      rgTimes = [];
      for (const { rg } of queries) {
        // Session folders are hidden (.claude, .codex): without --hidden rg would search nothing.
        const r0 = performance.now();
        await run(RG, ['-l', '-i', '-F', '-z', '--hidden', '--no-ignore', '--', rg, root], { maxBuffer: 64 << 20 }).catch(() => undefined);
        rgTimes.push(performance.now() - r0);
      }
    }

    // Incremental: a line appended to a transcript while the app runs, until a search finds it.
    const target = corpus.files.find((f) => f.format === 'claude-code' && f.bytes < 50_000) ?? corpus.files[0];
    const marker = 'zyxwvutsmarker';
    const first = (await readFile(target?.path ?? '', 'utf8')).split('\n', 1)[0] ?? '{}';
    const record = {
      ...(JSON.parse(first) as object),
      uuid: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
      parentUuid: null,
      message: { role: 'user', content: `please look at ${marker}` },
    };
    t0 = performance.now();
    await appendFile(target?.path ?? '', `${JSON.stringify(record)}\n`);
    for (;;) {
      const page = await services.client.searchSessions({ query: marker, limit: 1, offset: 0 });
      if (page.total > 0) break;
      if (performance.now() - t0 > 10_000) throw new Error('appended text never became searchable');
      await new Promise((r) => setTimeout(r, 10));
    }
    const incrementalMs = performance.now() - t0;
    await services.close();

    const corpusMb = corpus.bytes / 1024 / 1024;
    return {
      sessions,
      corpusMb: round(corpusMb),
      generateMs: Math.round(generateMs),
      floorMs: Math.round(floorMs),
      coldIndexMs: Math.round(coldIndexMs),
      coldCpuMs: Math.round(coldFigures.cpuMs),
      tidyMs: Math.round(coldFigures.tidyMs),
      tidyCpuMs: Math.round(coldFigures.tidyCpuMs),
      mergingP50Ms: round(percentile(coldFigures.mergingQueryMs, 50)),
      mergingP95Ms: round(percentile(coldFigures.mergingQueryMs, 95)),
      floorCpuMs: Math.round(floorCpuMs),
      coldMbPerSec: round(corpusMb / (coldIndexMs / 1000)),
      ratioToFloor: round(coldIndexMs / floorMs, 2),
      runRatios: pairs.map((p) => round(p.cold.coldIndexMs / p.floorMs, 2)),
      indexFileMb: round(indexFileMb),
      warmFirstPageMs: Math.round(warmFigures.firstPageMs),
      queryP50Ms: round(percentile(times, 50)),
      queryP95Ms: round(percentile(times, 95)),
      rgP50Ms: rgTimes ? round(percentile(rgTimes, 50)) : null,
      rgP95Ms: rgTimes ? round(percentile(rgTimes, 95)) : null,
      incrementalMs: Math.round(incrementalMs),
      peakRssIndexingMb: Math.round(coldFigures.peakRssMb),
      restRssMb: Math.round(warmFigures.restRssMb),
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

export function printSearch(f: SearchFigures, cores: number): void {
  console.log(`\nSearch index — ${f.sessions} sessions, ${f.corpusMb} MB (generated in ${f.generateMs} ms), ${cores} cores`);
  console.log(`  floor (read + JSON.parse every file):  ${f.floorMs} ms`);
  console.log(
    `  cold index:                             ${f.coldIndexMs} ms, ${f.coldMbPerSec} MB/s, ${f.ratioToFloor}× the floor (target ≤ 2.5×); index file ${f.indexFileMb} MB`,
  );
  if (f.runRatios.length > 1)
    console.log(`  ${f.runRatios.length} runs (medians above), each cold index / its floor: ${f.runRatios.map((r) => `${r}×`).join(', ')}`);
  console.log(
    `  then tables merged (searchable before):  ${f.tidyMs} ms more, ${f.tidyCpuMs} ms CPU (cold index + merge: ${round((f.coldIndexMs + f.tidyMs) / f.floorMs, 2)}× the floor)`,
  );
  console.log(`  50 queries while the tables merge:      p50 ${f.mergingP50Ms} ms, p95 ${f.mergingP95Ms} ms (each once, right after the cold index)`);
  console.log(
    `  CPU time (every thread):                cold index ${f.coldCpuMs} ms, floor ${f.floorCpuMs} ms (${round(f.coldCpuMs / Math.max(f.floorCpuMs, 1), 2)}×)`,
  );
  console.log(`  warm start to first page:               ${f.warmFirstPageMs} ms (spawn serve → first 100 rows over HTTP)`);
  console.log(`  50 queries:                             p50 ${f.queryP50Ms} ms, p95 ${f.queryP95Ms} ms`);
  if (f.rgP50Ms !== null && f.rgP95Ms !== null) {
    console.log(
      `  rg -l -i -F -z --hidden (raw files):    p50 ${f.rgP50Ms} ms, p95 ${f.rgP95Ms} ms (index ${round(f.rgP50Ms / Math.max(f.queryP50Ms, 0.1))}× faster at p50)`,
    );
  }
  console.log(`  appended line searchable after:         ${f.incrementalMs} ms`);
  console.log(`  peak RSS while indexing:                ${f.peakRssIndexingMb} MB; at rest ${f.restRssMb} MB (serve, watching, after its rescan)`);
}
